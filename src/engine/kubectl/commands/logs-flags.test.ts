/**
 * `kubectl logs --since` and `--limit-bytes`, which used to be accepted and ignored: the kubelet serves
 * the lines stamped at or after now - since (rounded to whole seconds by logs.go), and stops after
 * limit-bytes bytes. logs.go Validate's errors for conflicting or negative values.
 */
import { describe, expect, it } from 'vitest';
import { makeKubectl, type TestKubectl } from '../test-helpers.ts';

function withLoggingPod(): TestKubectl {
  let k: TestKubectl | undefined = undefined;
  k = makeKubectl({
    hooks: {
      // One line every 10 s of simulated time, the last one stamped now.
      containerLogLines: () => {
        const now = k!.host.clock.now();
        return [5, 4, 3, 2, 1, 0].map((n) => ({ time: now - n * 10_000, text: `tick ${5 - n}` }));
      },
    },
  });
  k.put({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'b', namespace: 'default' },
    spec: { containers: [{ name: 'c', image: 'busybox' }] },
    status: { phase: 'Running' },
  });
  return k;
}

describe('kubectl logs --since, --limit-bytes', () => {
  it('--since keeps the lines of the last N seconds', () => {
    const k = withLoggingPod();
    expect(k.run('logs b').stdout).toBe('tick 0\ntick 1\ntick 2\ntick 3\ntick 4\ntick 5\n');
    expect(k.run('logs b --since=25s').stdout).toBe('tick 3\ntick 4\ntick 5\n');
    expect(k.run('logs b --since=20s --tail=1').stdout).toBe('tick 5\n');
  });

  it('--limit-bytes stops the stream after that many bytes, mid-line', () => {
    const k = withLoggingPod();
    expect(k.run('logs b --limit-bytes=10').stdout).toBe('tick 0\ntic');
  });

  it('conflicting or negative values are refused as logs.go Validate words it', () => {
    const k = withLoggingPod();
    expect(k.run('logs b --since=1m --since-time=2026-01-01T00:00:00Z').stderr).toBe(
      'error: at most one of `sinceTime` or `sinceSeconds` may be specified\n',
    );
    expect(k.run('logs b --since=-1s').stderr).toBe('error: --since must be greater than 0\n');
  });
});
