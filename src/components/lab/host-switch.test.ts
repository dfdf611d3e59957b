import { afterEach, describe, expect, it } from 'vitest';
import { HostSwitch, type HostSwitchDeps } from './host-switch.ts';
import { HostSession } from './host-session.ts';
import { fmt } from './lab-ui.ts';
import { workerTransport } from '../../runtime/test-host.ts';
import { PROTOCOL_VERSION, type LoadResult, type Transport } from '../../runtime/protocol.ts';

const LAB = '00-sandbox';
const sessions: HostSession[] = [];
afterEach(() => {
  for (const s of sessions.splice(0)) s.close();
});

function setup(openWebContainer: () => Promise<Transport>) {
  const session = new HostSession({
    openWorker: () => workerTransport().transport,
    recoveryPoint: () => ({ load: { labId: LAB, seed: 1, start: { kind: 'fresh' } }, files: new Map() }),
    onEvent: () => {},
    onRestarting: () => {},
    onRestarted: () => {},
    onRestartFailed: () => {},
  });
  sessions.push(session);
  const log: string[] = [];
  const shown: LoadResult[] = [];
  const notices: string[] = [];
  let passthrough: ((data: string) => void) | undefined;
  const deps: HostSwitchDeps = {
    ui: {
      t: (key, params) => fmt(`${key}{percent}{reason}`, params),
      say: (text) => void log.push(text),
      showNotice: (text) => void notices.push(text),
      mark: (key, value) => void log.push(`${key}=${value}`),
      $: () => {
        throw new Error('no DOM in this test');
      },
    },
    session,
    terminal: {
      term: { reset: () => void log.push('reset'), cols: 132, rows: 40, onResize: () => ({ dispose() {} }) },
    },
    readline: {
      setPassthrough: (f) => {
        passthrough = f;
      },
      start: () => void log.push('prompt'),
    },
    flush: async () => {},
    loadParams: (start) => ({ labId: LAB, seed: 1, start }),
    show: (r) => void shown.push(r),
    openWebContainer,
  };
  const sw = new HostSwitch(deps);
  sw.showHost = () => {};
  return { session, sw, log, shown, notices, passthrough: () => passthrough };
}

describe('HostSwitch', () => {
  it('carries the cluster to the other host and back as a snapshot', async () => {
    const wc = workerTransport();
    const { session, sw, shown, passthrough } = setup(async () => wc.transport);
    await session.request('load', { labId: LAB, seed: 1, start: { kind: 'fresh' } });
    await session.request('exec', { line: 'kubectl create deployment moved --image=nginx' });
    await sw.toggle();
    expect(session.kind).toBe('webcontainer');
    expect(passthrough()).toBeTypeOf('function');
    // The pty host was told the terminal's size.
    expect(wc.posted.some((m) => m.kind === 'request' && m.type === 'ptyResize')).toBe(true);
    expect((await session.request('exec', { line: 'kubectl get deploy moved -o name' })).stdout).toBe(
      'deployment.apps/moved\n',
    );
    await sw.toggle();
    expect(session.kind).toBe('worker');
    expect(passthrough()).toBeUndefined();
    expect(shown).toHaveLength(1);
    expect((await session.request('exec', { line: 'kubectl get deploy moved -o name' })).stdout).toBe(
      'deployment.apps/moved\n',
    );
    // The WebContainer host was closed when the lab left it.
    expect(wc.isClosed()).toBe(true);
  });

  it('stays on the worker and says why when the WebContainer cannot load', async () => {
    // A host that refuses its first request (the load), as a WebContainer without isolation does.
    let give: () => void = () => {};
    const { session, sw, notices, log } = setup(async () => ({
      close: () => {},
      post: () => give(),
      listen: (receive) => {
        give = () =>
          setTimeout(() =>
            receive({
              v: PROTOCOL_VERSION,
              kind: 'response',
              id: 1,
              ok: false,
              error: { name: 'Error', message: 'cross-origin isolation is off', code: 'unsupported' },
            }),
          );
      },
    }));
    await session.request('load', { labId: LAB, seed: 1, start: { kind: 'fresh' } });
    await sw.toggle();
    expect(session.kind).toBe('worker');
    expect(notices).toEqual(['lab.wcFailed{percent}cross-origin isolation is off']);
    expect(log).toContain('host=worker');
    expect((await session.request('exec', { line: 'true' })).exitCode).toBe(0);
  });
});
