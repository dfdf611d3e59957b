import { describe, expect, it } from 'vitest';
import type { Pod } from '../api/objects.ts';
import fc from 'fast-check';
import {
  containerLogs,
  listeningSockets,
  podPrograms,
  programExit,
  runProgram,
} from './container-runtime.ts';
import type { Program, Step } from './process-model.ts';
import { CLOCK_ORIGIN_MS } from '../util/clock.ts';

const T0 = '2026-01-01T00:00:00Z';

/** A pod whose containers all started at T0. */
function runningPod(containers: Record<string, unknown>[]): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', uid: 'u', resourceVersion: '1', creationTimestamp: T0 },
    spec: { containers: containers as never },
    status: {
      podIP: '10.244.1.5',
      containerStatuses: containers.map((c) => ({
        name: c.name as string,
        image: c.image as string,
        imageID: '',
        ready: true,
        restartCount: 0,
        state: { running: { startedAt: T0 } },
      })),
    },
  } as Pod;
}

const sockets = (containers: Record<string, unknown>[]) =>
  listeningSockets(runningPod(containers)).map(
    (s) => `${s.container} ${s.process} ${s.protocol}/${s.port} ${s.responder.kind}`,
  );

describe('what listens, from image and arguments', () => {
  it.each([
    { name: 'nginx', c: { image: 'nginx' }, want: ['c nginx TCP/80 nginx'] },
    {
      name: 'http-echo default',
      c: { image: 'hashicorp/http-echo', args: ['-text=hi'] },
      want: ['c http-echo TCP/5678 http-echo'],
    },
    {
      name: 'http-echo -listen',
      c: { image: 'hashicorp/http-echo', args: ['-listen=:8080', '-text=hi'] },
      want: ['c http-echo TCP/8080 http-echo'],
    },
    {
      name: 'agnhost netexec',
      c: { image: 'registry.k8s.io/e2e-test-images/agnhost:2.53', args: ['netexec', '--http-port=8080'] },
      want: ['c agnhost TCP/8080 agnhost-netexec', 'c agnhost UDP/8081 agnhost-netexec'],
    },
    {
      name: 'agnhost serve-hostname',
      c: { image: 'registry.k8s.io/e2e-test-images/agnhost:2.53', args: ['serve-hostname'] },
      want: ['c agnhost TCP/9376 serve-hostname'],
    },
    { name: 'busybox sleeping', c: { image: 'busybox', command: ['sleep', '3600'] }, want: [] },
    {
      name: 'busybox httpd -f',
      c: { image: 'busybox', command: ['httpd', '-f', '-p', '8080'] },
      want: ['c httpd TCP/8080 busybox-httpd'],
    },
    {
      name: 'busybox nc -lk',
      c: { image: 'busybox', command: ['sh', '-c', 'nc -lk -p 9000 -e cat'] },
      want: ['c nc TCP/9000 netcat'],
    },
    {
      name: 'declared containerPort does not make nginx listen on it',
      c: { image: 'nginx', ports: [{ containerPort: 8080 }] },
      want: ['c nginx TCP/80 nginx'],
    },
    {
      name: 'unknown image answers on declared ports',
      c: { image: 'ghcr.io/acme/shop:1.0', ports: [{ containerPort: 3000 }] },
      want: ['c app TCP/3000 generic-http'],
    },
  ])('$name', ({ c, want }) => {
    expect(sockets([{ name: 'c', ...c }])).toEqual(want);
  });
});

describe('how programs end', () => {
  const exitOf = (c: Record<string, unknown>) => {
    const prog = podPrograms(runningPod([{ name: 'c', ...c }])).get('c')!.program;
    return prog.startError ? 'StartError' : programExit(prog);
  };
  it.each([
    {
      name: 'busybox without a command reads EOF and exits',
      c: { image: 'busybox' },
      want: { afterMs: 0, code: 0 },
    },
    { name: 'sleep 5', c: { image: 'busybox', command: ['sleep', '5'] }, want: { afterMs: 5000, code: 0 } },
    {
      name: "sh -c 'exit 1'",
      c: { image: 'busybox', command: ['sh', '-c', 'exit 1'] },
      want: { afterMs: 0, code: 1 },
    },
    { name: 'sleep infinity', c: { image: 'busybox', command: ['sleep', 'infinity'] }, want: undefined },
    {
      name: 'busybox httpd without -f daemonises',
      c: { image: 'busybox', command: ['httpd', '-p', '80'] },
      want: { afterMs: 0, code: 0 },
    },
    { name: 'http-echo without -text', c: { image: 'hashicorp/http-echo' }, want: { afterMs: 0, code: 127 } },
    { name: 'missing binary', c: { image: 'hashicorp/http-echo', command: ['sh'] }, want: 'StartError' },
    {
      name: 'while loop runs forever',
      c: { image: 'busybox', command: ['sh', '-c', 'while true; do echo hi; sleep 5; done'] },
      want: undefined,
    },
  ])('$name', ({ c, want }) => {
    expect(exitOf(c)).toEqual(want);
  });

  // programExit reads a straight-line program's end off its steps; playing it must agree.
  it('reads the end of a straight-line program as playing it gives', () => {
    const stepArb: fc.Arbitrary<Step> = fc.oneof(
      fc.constant<Step>({ op: 'log', text: 'line' }),
      fc.constant<Step>({ op: 'write', text: 'part', stream: 'err' }),
      fc.integer({ min: 0, max: 5000 }).map<Step>((ms) => ({ op: 'sleep', ms })),
      fc.integer({ min: 0, max: 255 }).map<Step>((code) => ({ op: 'status', code })),
      fc
        .option(fc.integer({ min: 0, max: 255 }), { nil: undefined })
        .map<Step>((code) => (code === undefined ? { op: 'exit' } : { op: 'exit', code })),
      fc.constant<Step>({ op: 'file', path: '/tmp/x', exists: true }),
      fc.constant<Step>({ op: 'trap' }),
      fc.constant<Step>({ op: 'block' }),
    );
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 8 }), fc.nat(10 ** 9), (steps, start) => {
        const program: Program = { process: 'sh', steps, handlesStopSignal: true, stopLogs: [] };
        const played = runProgram(program, start, Number.MAX_SAFE_INTEGER).exit;
        expect(programExit(program, start)).toEqual(
          played ? { afterMs: played.at - start, code: played.code } : undefined,
        );
      }),
      { numRuns: 500 },
    );
  });
});

describe('container logs', () => {
  it('nginx prints its entrypoint and start-up notices with simulated timestamps', () => {
    const r = containerLogs(runningPod([{ name: 'c', image: 'nginx:1.27.3' }]), 'c', {
      now: CLOCK_ORIGIN_MS + 1000,
    });
    expect(r.ok).toBe(true);
    const lines = r.ok ? r.lines.map((l) => l.text) : [];
    expect(lines[0]).toBe(
      '/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration',
    );
    expect(lines).toContain('/docker-entrypoint.sh: Configuration complete; ready for start up');
    expect(lines).toContain('2026/01/01 00:00:00 [notice] 1#1: nginx/1.27.3');
  });

  it('a shell loop prints one line per iteration up to now', () => {
    const pod = runningPod([
      {
        name: 'c',
        image: 'busybox',
        command: [
          'sh',
          '-c',
          'for i in 1 2; do echo start $i; done; while true; do echo tick; sleep 10; done',
        ],
      },
    ]);
    const r = containerLogs(pod, 'c', { now: CLOCK_ORIGIN_MS + 25_000 });
    expect(r.ok && r.lines.map((l) => `${(l.time - CLOCK_ORIGIN_MS) / 1000}s ${l.text}`)).toEqual([
      '0s start 1',
      '0s start 2',
      '0s tick',
      '10s tick',
      '20s tick',
    ]);
  });

  it('a container in CrashLoopBackOff serves its last run, with or without --previous', () => {
    // kubelet `GetContainerLogs` reads the newest container of that name, the exited one, while the
    // next start waits in back-off (kubectl logs on a crashing pod shows why it crashed).
    const pod = runningPod([
      { name: 'c', image: 'busybox', command: ['sh', '-c', 'echo booting; echo fatal: no config; exit 1'] },
    ]);
    const st = pod.status!.containerStatuses![0]!;
    st.restartCount = 3;
    st.state = {
      waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container' },
    };
    st.lastState = { terminated: { exitCode: 1, reason: 'Error', startedAt: T0, finishedAt: T0 } };
    const want = {
      ok: true,
      lines: [
        { time: CLOCK_ORIGIN_MS, text: 'booting' },
        { time: CLOCK_ORIGIN_MS, text: 'fatal: no config' },
      ],
    };
    expect(containerLogs(pod, 'c', { now: CLOCK_ORIGIN_MS + 60_000 })).toEqual(want);
    expect(containerLogs(pod, 'c', { previous: true, now: CLOCK_ORIGIN_MS + 60_000 })).toEqual(want);
  });

  it('a container that has not started yet answers like the API server', () => {
    const pod = runningPod([{ name: 'c', image: 'nginx' }]);
    pod.status!.containerStatuses![0]!.state = { waiting: { reason: 'ContainerCreating' } };
    expect(containerLogs(pod, 'c', { now: CLOCK_ORIGIN_MS })).toEqual({
      ok: false,
      error: 'container "c" in pod "p" is waiting to start: ContainerCreating',
    });
    expect(containerLogs(pod, 'c', { previous: true, now: CLOCK_ORIGIN_MS })).toEqual({
      ok: false,
      error: 'previous terminated container "c" in pod "p" not found',
    });
  });
});
