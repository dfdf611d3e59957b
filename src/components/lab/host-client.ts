/**
 * The UI side of the host protocol: numbered requests, promises for their answers, AbortSignal
 * cancellation (the promise rejects at once and the host is told, so a queued request never runs),
 * and a listener for the host's events. Works over any Transport (Worker, WebContainer adapter, test).
 *
 * The optional watchdog is a heartbeat: while any request waits, the client pings the host every
 * `pingEveryMs`; the host answers pings between engine steps, never behind the queue, so an answer
 * (to a ping or to anything) proves its event loop still turns. A host silent for `deadAfterMs` is
 * spinning in one synchronous step (a bug, or an input the engine cannot finish): every waiting
 * request is rejected with code `unresponsive`, the transport is closed (a Worker is terminated) and
 * `onDead` is called to start a new host. It arms only once the host has said something, so a worker
 * still downloading its script on a slow network is not taken for a dead one.
 */
import {
  HostError,
  PROTOCOL_VERSION,
  type FromHost,
  type HostEvent,
  type Params,
  type RequestMessage,
  type RequestType,
  type Result,
  type Transport,
} from '../../runtime/protocol';

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  cleanup(): void;
}

export interface WatchdogOptions {
  readonly pingEveryMs: number;
  readonly deadAfterMs: number;
  readonly onDead: () => void;
  /**
   * Half-way to `deadAfterMs` without a word: the host may be stuck. The caller can warm a replacement
   * now, so a restart does not pay the new worker's start-up; `onRecover` says the host spoke again.
   */
  readonly onSuspect?: () => void;
  readonly onRecover?: () => void;
}

/**
 * The worker host's heartbeat. The slowest engine step the benchmarks budget is 500 ms (iptables render
 * of 1,000 Services × 5 endpoints; a lab's whole cluster starts in 100–300 ms), so 2 s of silence is four
 * times the worst legitimate step, on a machine shared with other work, and still leaves the learner
 * waiting only a couple of seconds before the restart. A false alarm costs one restart from the last
 * save, never work: files, history and the line being typed live in the page.
 */
export const WORKER_WATCHDOG = { pingEveryMs: 500, deadAfterMs: 2000 } as const;

function abortError(): Error {
  return new DOMException('The request was cancelled.', 'AbortError');
}

export class HostClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(event: HostEvent) => void>();
  private closed = false;
  private heardFrom = false;
  private lastHeard = 0;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private suspect = false;

  constructor(
    private readonly transport: Transport,
    private readonly watchdog?: WatchdogOptions,
  ) {
    transport.listen((message) => this.receive(message));
  }

  request<T extends RequestType>(
    type: T,
    params: Params<T>,
    opts: { signal?: AbortSignal } = {},
  ): Promise<Result<T>> {
    if (this.closed)
      return Promise.reject(new HostError({ name: 'HostError', message: 'host closed', code: 'closed' }));
    const { signal } = opts;
    if (signal?.aborted) return Promise.reject(abortError());
    const id = this.nextId++;
    return new Promise<Result<T>>((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(id);
        this.transport.post({ v: PROTOCOL_VERSION, kind: 'cancel', id });
        reject(abortError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: (v) => resolve(v as Result<T>),
        reject,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      });
      this.transport.post({ v: PROTOCOL_VERSION, kind: 'request', id, type, params } as RequestMessage);
      this.watch();
    });
  }

  /** Starts the heartbeat while requests wait; it stops itself once none does. */
  private watch(): void {
    const w = this.watchdog;
    if (!w || this.heartbeat !== undefined) return;
    // An idle host has nothing to say: silence is counted from the first request that waits.
    this.lastHeard = Date.now();
    this.heartbeat = setInterval(() => {
      if (this.pending.size === 0 || this.closed) {
        this.stopWatching();
        return;
      }
      const silent = this.heardFrom ? Date.now() - this.lastHeard : 0;
      if (silent >= w.deadAfterMs) {
        this.stopWatching();
        this.fail('the engine stopped answering', 'unresponsive');
        w.onDead();
        return;
      }
      if (silent >= w.deadAfterMs / 2 && !this.suspect) {
        this.suspect = true;
        w.onSuspect?.();
      }
      // Pings carry ids the client never waits for: the answer only updates `lastHeard`.
      this.transport.post({
        v: PROTOCOL_VERSION,
        kind: 'request',
        id: this.nextId++,
        type: 'ping',
        params: {},
      });
    }, w.pingEveryMs);
  }

  private stopWatching(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  onEvent(listener: (event: HostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.fail('host closed', 'closed');
  }

  /** Closes the host and rejects every waiting request with `code`. */
  private fail(message: string, code: string): void {
    this.closed = true;
    this.stopWatching();
    for (const p of this.pending.values()) {
      p.cleanup();
      p.reject(new HostError({ name: 'HostError', message, code }));
    }
    this.pending.clear();
    this.transport.close();
  }

  private receive(message: FromHost): void {
    if (this.closed) return;
    this.heardFrom = true;
    this.lastHeard = Date.now();
    if (this.suspect) {
      this.suspect = false;
      this.watchdog?.onRecover?.();
    }
    if (message.v !== PROTOCOL_VERSION) {
      const error = new HostError({
        name: 'HostError',
        message: `host speaks protocol ${String(message.v)}`,
        code: 'version',
      });
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
      return;
    }
    if (message.kind === 'event') {
      for (const l of this.listeners) l(message.event);
      return;
    }
    const p = this.pending.get(message.id);
    if (!p) return; // cancelled, or answered already
    this.pending.delete(message.id);
    p.cleanup();
    if (message.ok) p.resolve(message.value);
    else p.reject(new HostError(message.error));
  }
}
