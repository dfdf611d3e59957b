/**
 * Tests' stand-in for the page: the worker's message handler driven directly (no Worker), the way the
 * UI's HostClient talks to it. Shared by the host tests so each one asks only what it checks.
 */
import { createHostHandler } from './host-handler.ts';
import { loadBundledLab } from './labs.ts';
import {
  PROTOCOL_VERSION,
  type FromHost,
  type Params,
  type RequestType,
  type Result,
  type ToHost,
  type Transport,
} from './protocol.ts';

export function workerHarness() {
  const sent: FromHost[] = [];
  const handler = createHostHandler({ host: 'worker', loadLab: loadBundledLab, send: (m) => sent.push(m) });
  let id = 0;
  async function request<T extends RequestType>(type: T, params: Params<T>): Promise<Result<T>> {
    const myId = ++id;
    handler.receive({ v: PROTOCOL_VERSION, kind: 'request', id: myId, type, params } as ToHost);
    await handler.idle();
    const r = sent.find((m) => m.kind === 'response' && m.id === myId);
    if (!r || r.kind !== 'response') throw new Error('no response');
    if (!r.ok)
      throw Object.assign(new Error(r.error.message), { code: r.error.code, errorName: r.error.name });
    return r.value as Result<T>;
  }
  const events = () => sent.flatMap((m) => (m.kind === 'event' ? [m.event] : []));
  return { handler, sent, request, events, nextId: () => ++id };
}

/**
 * A Transport to a real worker host handler in this thread, as the page's HostClient uses a Worker.
 * `freeze()` drops every message both ways from then on: to the client that is exactly a worker
 * spinning in one synchronous step (it never answers, not even pings). `close()` ends it like
 * `Worker.terminate()`.
 */
export function workerTransport() {
  let receive: ((m: FromHost) => void) | undefined;
  let silent = false;
  let closed = false;
  const posted: ToHost[] = [];
  const handler = createHostHandler({
    host: 'worker',
    loadLab: loadBundledLab,
    // Delivered a task later, as postMessage is.
    send: (m) => {
      if (!silent) setTimeout(() => !silent && receive?.(m), 0);
    },
  });
  const transport: Transport = {
    post: (m) => {
      posted.push(m);
      if (!silent) handler.receive(m);
    },
    listen: (r) => {
      receive = r;
    },
    close: () => {
      silent = true;
      closed = true;
    },
  };
  return {
    transport,
    posted,
    freeze: () => {
      silent = true;
    },
    isClosed: () => closed,
  };
}
