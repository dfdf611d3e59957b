import { describe, expect, it } from 'vitest';
import { fitError } from './scheduler-plugins.ts';

// Expected texts follow v1.35's FitError.Error and DefaultPreemption's wording (reasons sorted as
// "<count> <reason>", post-filter message appended after a space).
describe('FitError message', () => {
  it.each([
    {
      name: 'tainted control plane, full workers',
      failures: [
        { reason: 'node(s) had untolerated taint(s)', resolvable: false },
        { reason: 'Too many pods', resolvable: true },
        { reason: 'Too many pods', resolvable: true },
      ],
      want: '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Too many pods. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
    },
    {
      name: 'nodeSelector matching nothing',
      failures: [
        { reason: "node(s) didn't match Pod's node affinity/selector", resolvable: false },
        { reason: "node(s) didn't match Pod's node affinity/selector", resolvable: false },
        { reason: "node(s) didn't match Pod's node affinity/selector", resolvable: false },
      ],
      want: "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    },
  ])('$name', ({ failures, want }) => {
    expect(fitError(3, failures)).toBe(want);
  });
});
