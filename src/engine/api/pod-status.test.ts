import { describe, expect, it } from 'vitest';
import { computePodQOS } from './pod-status.ts';

const container = (resources: object, name = 'app') => ({ name, image: 'nginx', resources });

// Cases from upstream's pkg/apis/core/helper/qos (qos_test.go `TestComputePodQOS`) and its rules: only
// cpu and memory count, zero quantities do not, requests and limits are compared as summed quantities.
describe('computePodQOS (qos.ComputePodQOS)', () => {
  it.each([
    ['no resources at all', [container({})], 'BestEffort'],
    [
      'only an ephemeral-storage request (not a QoS resource)',
      [container({ requests: { 'ephemeral-storage': '1Gi' } })],
      'BestEffort',
    ],
    ['zero cpu and memory requests', [container({ requests: { cpu: '0', memory: '0' } })], 'BestEffort'],
    [
      'equal cpu and memory requests and limits',
      [container({ requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '100m', memory: '64Mi' } })],
      'Guaranteed',
    ],
    [
      'the same quantities written differently',
      [container({ requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1000m', memory: '1024Mi' } })],
      'Guaranteed',
    ],
    [
      'ephemeral-storage next to a guaranteed cpu and memory',
      [
        container({
          requests: { cpu: '1', memory: '1Gi', 'ephemeral-storage': '1Gi' },
          limits: { cpu: '1', memory: '1Gi' },
        }),
      ],
      'Guaranteed',
    ],
    ['a cpu limit only', [container({ limits: { cpu: '100m' } })], 'Burstable'],
    [
      'a memory request below its limit',
      [container({ requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '2Gi' } })],
      'Burstable',
    ],
    [
      'one guaranteed container next to one without resources',
      [
        container({ requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } }),
        container({}, 'b'),
      ],
      'Burstable',
    ],
  ])('%s → %s', (_what, containers, expected) => {
    expect(computePodQOS({ containers })).toBe(expected);
  });

  it('counts init containers', () => {
    const guaranteed = { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } };
    expect(
      computePodQOS({ containers: [container(guaranteed)], initContainers: [container({}, 'init')] }),
    ).toBe('Burstable');
    expect(
      computePodQOS({ containers: [container({})], initContainers: [container(guaranteed, 'init')] }),
    ).toBe('Burstable');
  });

  it('reads numbers as a manifest may write them, and survives a spec that is not an object', () => {
    const numeric = { requests: { cpu: 1, memory: 1073741824 }, limits: { cpu: 1, memory: '1Gi' } };
    expect(computePodQOS({ containers: [container(numeric)] })).toBe('Guaranteed');
    expect(computePodQOS(undefined)).toBe('BestEffort');
    expect(computePodQOS({ containers: 'x' })).toBe('BestEffort');
  });
});
