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

/** Pods a-1..a-n labelled app=a (owned by nothing), each logging `hello from <pod>/<container>`. */
function withPods(n: number, opts: { waiting?: string[]; containers?: string[] } = {}): TestKubectl {
  let k: TestKubectl | undefined = undefined;
  k = makeKubectl({
    hooks: {
      containerLogLines: (pod, container) => {
        if (opts.waiting?.includes(pod.metadata.name)) return undefined;
        const now = k!.host.clock.now();
        return [{ time: now, text: `hello from ${pod.metadata.name}/${container}` }];
      },
    },
  });
  for (let i = 1; i <= n; i++)
    k.put({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `a-${i}`, namespace: 'default', labels: { app: 'a' } },
      spec: {
        nodeName: 'node-1',
        containers: (opts.containers ?? ['c']).map((name) => ({ name, image: 'busybox' })),
      },
      status: opts.waiting?.includes(`a-${i}`)
        ? {
            phase: 'Pending',
            containerStatuses: (opts.containers ?? ['c']).map((name) => ({
              name,
              ready: false,
              restartCount: 0,
              image: 'busybox',
              imageID: '',
              state: { waiting: { reason: 'ContainerCreating' } },
            })),
          }
        : { phase: 'Running' },
    });
  return k;
}

describe('kubectl logs --since-time', () => {
  it('keeps the lines stamped at or after the time', () => {
    const k = withLoggingPod();
    const now = k.host.clock.now();
    const at = new Date(now - 20_000).toISOString().replace(/\.\d+Z$/, 'Z');
    expect(k.run(`logs b --since-time=${at}`).stdout).toBe('tick 3\ntick 4\ntick 5\n');
    const offset = new Date(now - 10_000 + 2 * 3600_000).toISOString().replace(/\.\d+Z$/, '+02:00');
    expect(k.run(`logs b --since-time=${offset}`).stdout).toBe('tick 4\ntick 5\n');
  });

  // Goldens: kubectl v1.33 `logs web --since-time=…` (the parse error comes before any API call).
  it.each([
    ['abc', 'parsing time "abc" as "2006-01-02T15:04:05Z07:00": cannot parse "abc" as "2006"'],
    ['2024-01-01', 'parsing time "2024-01-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"'],
    [
      '2024-01-01T00:00:00',
      'parsing time "2024-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"',
    ],
    ['2024-13-01T00:00:00Z', 'parsing time "2024-13-01T00:00:00Z": month out of range'],
    ['2024-02-30T00:00:00Z', 'parsing time "2024-02-30T00:00:00Z": day out of range'],
    ['2024-01-01T25:00:00Z', 'parsing time "2024-01-01T25:00:00Z": hour out of range'],
    [
      '2024-01-01T10:00:00+0100',
      'parsing time "2024-01-01T10:00:00+0100" as "2006-01-02T15:04:05Z07:00": cannot parse "+0100" as "Z07:00"',
    ],
    [
      '2024-01-01 10:00:00Z',
      'parsing time "2024-01-01 10:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 10:00:00Z" as "T"',
    ],
    ['2024-01-01T10:00:00Zjunk', 'parsing time "2024-01-01T10:00:00Zjunk": extra text: "junk"'],
    ['2024-01-01T10:00:60Z', 'parsing time "2024-01-01T10:00:60Z": second out of range'],
    ['2024-00-01T10:00:00Z', 'parsing time "2024-00-01T10:00:00Z": month out of range'],
  ])('%s is refused with Go’s parse error', (value, message) => {
    const k = withLoggingPod();
    expect(k.run(`logs b '--since-time=${value}'`)).toMatchObject({
      stderr: `error: ${message}\n`,
      exitCode: 1,
    });
  });
});

describe('kubectl logs --all-pods, -f, --max-log-requests, --ignore-errors', () => {
  it('--all-pods reads every pod of a TYPE/NAME target, prefixed', () => {
    const k = withPods(3);
    k.put({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'a', namespace: 'default' },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'a' } },
        template: {
          metadata: { labels: { app: 'a' } },
          spec: { containers: [{ name: 'c', image: 'busybox' }] },
        },
      },
    });
    expect(k.run('logs rs/a')).toMatchObject({
      stdout: 'hello from a-1/c\n',
      stderr: 'Found 3 pods, using pod/a-1\n',
    });
    expect(k.run('logs rs/a --all-pods')).toMatchObject({
      stdout: '[pod/a-1/c] hello from a-1/c\n[pod/a-2/c] hello from a-2/c\n[pod/a-3/c] hello from a-3/c\n',
      stderr: '',
    });
    // A pod target is one pod whatever --all-pods says; the prefix still comes with it.
    expect(k.run('logs a-2 --all-pods').stdout).toBe('[pod/a-2/c] hello from a-2/c\n');
  });

  it('-l without --tail keeps the last 10 lines of each container (logs.go selectorTail)', () => {
    let k: TestKubectl | undefined = undefined;
    k = makeKubectl({
      hooks: {
        containerLogLines: () =>
          Array.from({ length: 15 }, (_, i) => ({ time: k!.host.clock.now(), text: `line ${i}` })),
      },
    });
    k.put({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default', labels: { app: 'p' } },
      spec: { containers: [{ name: 'c', image: 'busybox' }] },
      status: { phase: 'Running' },
    });
    expect(k.run('logs -l app=p').stdout.split('\n')[0]).toBe('line 5');
    expect(k.run('logs -l app=p --tail=-1').stdout.split('\n')[0]).toBe('line 0');
    expect(k.run('logs p').stdout.split('\n')[0]).toBe('line 0');
  });

  it('-f prints what was logged and returns; a terminated container returns at once', () => {
    const k = withPods(1);
    const before = k.host.clock.now();
    expect(k.run('logs -f a-1')).toMatchObject({ stdout: 'hello from a-1/c\n', exitCode: 0 });
    expect(k.host.clock.now()).toBe(before);
  });

  it('following more streams than --max-log-requests is refused (logs.go RunLogs)', () => {
    const k = withPods(6);
    expect(k.run('logs -f -l app=a')).toMatchObject({
      stdout: '',
      stderr:
        'error: you are attempting to follow 6 log streams, but maximum allowed concurrency is 5, use --max-log-requests to increase the limit\n',
      exitCode: 1,
    });
    expect(k.run('logs -f -l app=a --max-log-requests=6').stdout.split('\n')).toHaveLength(7);
    // Without -f the streams are read one after the other: no limit.
    expect(k.run('logs -l app=a').exitCode).toBe(0);
    // Containers count: 2 pods × 3 containers = 6 streams.
    const k2 = withPods(2, { containers: ['x', 'y', 'z'] });
    expect(k2.run('logs -f -l app=a --all-containers').stderr).toContain('follow 6 log streams');
  });

  it('--ignore-errors puts a failing stream’s error into the followed output and goes on', () => {
    const k = withPods(3, { waiting: ['a-2'] });
    expect(k.run('logs -f -l app=a --ignore-errors')).toMatchObject({
      stdout:
        'hello from a-1/c\nerror: container "c" in pod "a-2" is waiting to start: ContainerCreating\nhello from a-3/c\n',
      exitCode: 0,
    });
    expect(k.run('logs -f -l app=a')).toMatchObject({
      stdout: 'hello from a-1/c\n',
      stderr:
        'Error from server (BadRequest): container "c" in pod "a-2" is waiting to start: ContainerCreating\n',
      exitCode: 1,
    });
    // Read one after the other (no -f), the first error ends the command whatever --ignore-errors says.
    expect(k.run('logs -l app=a --ignore-errors').exitCode).toBe(1);
  });

  it('Validate’s errors (logs.go)', () => {
    const k = withPods(1, { containers: ['x', 'y'] });
    expect(k.run('logs a-1 -c x --all-containers').stderr).toBe(
      'error: --all-containers=true should not be specified with container name x\n',
    );
    expect(k.run('logs a-1 x -c y').stderr).toBe(
      'error: only one of -c or an inline [CONTAINER] arg is allowed\n',
    );
    expect(k.run('logs a-1 --limit-bytes=-1').stderr).toBe('error: --limit-bytes must be greater than 0\n');
    expect(k.run('logs a-1 --tail=-2').stderr).toBe('error: --tail must be greater than or equal to -1\n');
    expect(k.run('logs a-1 -l app=a').stderr).toBe(
      "error: only a selector (-l) or a POD name is allowed\nSee 'kubectl logs -h' for help and examples\n",
    );
  });
});
