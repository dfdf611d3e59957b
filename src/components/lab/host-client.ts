/**
 * The UI side of the host protocol: numbered requests, promises for their answers, AbortSignal
 * cancellation (the promise rejects at once and the host is told, so a queued request never runs),
 * and a listener for the host's events. Works over any Transport (Worker, WebContainer adapter, test).
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

function abortError(): Error {
  return new DOMException('The request was cancelled.', 'AbortError');
}

export class HostClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(event: HostEvent) => void>();
  private closed = false;

  constructor(private readonly transport: Transport) {
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
    });
  }

  onEvent(listener: (event: HostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.closed = true;
    for (const p of this.pending.values()) {
      p.cleanup();
      p.reject(new HostError({ name: 'HostError', message: 'host closed', code: 'closed' }));
    }
    this.pending.clear();
    this.transport.close();
  }

  private receive(message: FromHost): void {
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
