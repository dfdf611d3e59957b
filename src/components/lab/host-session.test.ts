import { afterEach, describe, expect, it, vi } from 'vitest';
import { HostSession, type HostSessionOptions } from './host-session.ts';
import type { RestartTiming } from './lab-debug.ts';
import { workerTransport } from '../../runtime/test-host.ts';
import type { HostEvent, HostState, LoadResult, Transport } from '../../runtime/protocol.ts';

const LAB = '00-sandbox';
// Long enough that a slow step on a loaded machine (a lab load) is not taken for a hang.
const WATCH = { pingEveryMs: 100, deadAfterMs: 1500 };

/** A session whose workers are real host handlers in this thread; the test can freeze any of them. */
function harness(over: Partial<HostSessionOptions> = {}) {
  const workers: ReturnType<typeof workerTransport>[] = [];
  const open = (): Transport => {
    const w = workerTransport();
    workers.push(w);
    return w.transport;
  };
  const events: HostEvent[] = [];
  const restarted: LoadResult[] = [];
  const failed: unknown[] = [];
  let state: HostState | undefined;
  const files = new Map<string, string>();
  const session = new HostSession({
    openWorker: open,
    watchdog: WATCH,
    recoveryPoint: () => ({
      load: { labId: LAB, seed: 1, start: state ? { kind: 'state', state } : { kind: 'fresh' } },
      files,
    }),
    onEvent: (e) => events.push(e),
    onRestarting: () => {},
    onRestarted: (r) => restarted.push(r),
    onRestartFailed: (e) => failed.push(e),
    ...over,
  });
  return {
    session,
    workers,
    events,
    restarted,
    failed,
    files,
    save: (s: HostState) => {
      state = s;
    },
  };
}

let open: HostSession[] = [];
afterEach(() => {
  for (const s of open) s.close();
  open = [];
});

describe('HostSession', () => {
  it('sends requests to the current worker and passes its events on', async () => {
    const h = harness();
    open.push(h.session);
    await h.session.request('load', { labId: LAB, seed: 1, start: { kind: 'fresh' } });
    const r = await h.session.request('exec', { line: 'echo hi > note.txt' });
    expect(r.exitCode).toBe(0);
    // A shell-made file change reaches the page as an event.
    await vi.waitFor(() =>
      expect(h.events).toContainEqual({ type: 'file', path: 'note.txt', content: 'hi\n' }),
    );
    expect(h.session.kind).toBe('worker');
  });

  it('replaces a frozen worker from the last save, writes the page files over it, and re-asks questions', async () => {
    const timings: RestartTiming[] = [];
    const h = harness({ debug: { restarted: (t) => timings.push(t) } });
    open.push(h.session);
    await h.session.request('load', { labId: LAB, seed: 1, start: { kind: 'fresh' } });
    await h.session.request('exec', { line: 'kubectl create deployment keep --image=nginx' });
    h.save(await h.session.request('state', {}));
    // After the save: a file edited in the page only, and a command the frozen worker never answers.
    h.files.set('web.yaml', 'edited: in the page\n');
    h.workers[0]!.freeze();
    const exec = h.session.request('exec', { line: 'kubectl get deploy' }).catch((e: unknown) => e);
    // A command line is not re-run on the new worker: it may be what made the engine spin.
    expect(await exec).toMatchObject({ name: 'HostError', code: 'unresponsive' });
    // A question asked while the restart runs waits for it and is answered by the new worker.
    const out = await h.session.request('exec', { line: 'kubectl get deploy keep -o name; cat web.yaml' });
    expect(out.stdout).toBe('deployment.apps/keep\nedited: in the page\n');
    expect(h.restarted).toHaveLength(1);
    expect(h.failed).toEqual([]);
    expect(h.workers[0]!.isClosed()).toBe(true);
    // The spare was started half-way to the deadline, so the restart was warm.
    expect(timings).toEqual([{ ms: expect.any(Number) as number, warm: true, count: 1 }]);
    expect(h.workers).toHaveLength(2);
  });

  it('wraps every transport it opens with the debug hook', async () => {
    const wrapped: Transport[] = [];
    const h = harness({
      debug: {
        transport: (t) => {
          wrapped.push(t);
          return t;
        },
      },
    });
    open.push(h.session);
    expect(wrapped).toHaveLength(1);
    h.session.workerClient().close();
    expect(wrapped).toHaveLength(2);
  });

  it('reports a replacement that cannot load instead of hanging', async () => {
    const h = harness();
    open.push(h.session);
    await h.session.request('load', { labId: LAB, seed: 1, start: { kind: 'fresh' } });
    // A saved state the engine refuses: the replacement cannot load it.
    const broken = JSON.parse(
      '{"snapshot":{"format":"not-a-snapshot"},"journal":[],"quizAnswers":{},"startedAt":""}',
    ) as HostState;
    h.save(broken);
    h.workers[0]!.freeze();
    await h.session.request('exec', { line: 'true' }).catch(() => {});
    await h.session.settled();
    expect(h.failed).toHaveLength(1);
    expect(h.restarted).toEqual([]);
  });
});
