/**
 * The host side of the protocol for hosts that run the engine in-process (the Web Worker; tests
 * instantiate it directly). Requests run one at a time, in arrival order; a request cancelled before
 * it starts is answered with an AbortError and never runs. The engine is synchronous, so a request
 * that has started runs to the end (the UI has already stopped waiting for it).
 */
import type { LoadedLab } from '../grader/lab-schema.ts';
import { isDrawSeed } from '../grader/draw.ts';
import { labForLearner } from '../grader/variants.ts';
import { LabSession } from './lab-session.ts';
import {
  PROTOCOL_VERSION,
  isToHost,
  toErrorInfo,
  type FromHost,
  type HostKind,
  type RequestMessage,
  type RequestType,
  type Result,
} from './protocol.ts';

export interface HostHandlerOptions {
  readonly host: HostKind;
  readonly loadLab: (id: string) => Promise<LoadedLab>;
  readonly send: (message: FromHost) => void;
}

export interface HostHandler {
  receive(data: unknown): void;
  /** Resolves when every request received so far has been answered (for tests). */
  idle(): Promise<void>;
}

const yieldToEvents = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function createHostHandler(opts: HostHandlerOptions): HostHandler {
  let session: LabSession | undefined;
  const queue: RequestMessage[] = [];
  const cancelled = new Set<number>();
  let pumping: Promise<void> | undefined;

  const respond = (id: number, value: unknown) =>
    opts.send({ v: PROTOCOL_VERSION, kind: 'response', id, ok: true, value });
  const fail = (id: number, error: unknown, code?: string) =>
    opts.send({ v: PROTOCOL_VERSION, kind: 'response', id, ok: false, error: toErrorInfo(error, code) });

  function need(): LabSession {
    if (!session) throw Object.assign(new Error('no lab loaded'), { code: 'no-lab' });
    return session;
  }

  async function run<T extends RequestType>(msg: RequestMessage & { type: T }): Promise<Result<T>>;
  async function run(msg: RequestMessage): Promise<unknown> {
    switch (msg.type) {
      case 'hello':
        return { version: PROTOCOL_VERSION, host: opts.host, terminal: 'line' };
      case 'load': {
        // A lab with variants becomes the variant the learner's seed draws (seed 0 when none is sent).
        const seed = isDrawSeed(msg.params.seed) ? msg.params.seed : 0;
        const loaded = labForLearner(await opts.loadLab(msg.params.labId), { seed });
        const next = new LabSession(
          loaded,
          (path, content) =>
            opts.send({ v: PROTOCOL_VERSION, kind: 'event', event: { type: 'file', path, content } }),
          undefined,
          seed,
        );
        const result = await next.load(msg.params.start);
        session = next;
        return result;
      }
      case 'exec':
        return need().exec(msg.params.line);
      case 'complete':
        return need().complete(msg.params.line, msg.params.cursor);
      case 'incomplete':
        return need().needsMoreInput(msg.params.text);
      case 'writeFile':
        need().writeFile(msg.params.path, msg.params.content);
        return null;
      case 'removeFile':
        need().removeFile(msg.params.path);
        return null;
      case 'state':
        return need().state();
      case 'validate':
        return need().validate(msg.params.path);
      case 'check':
        return need().check();
      case 'answer':
        need().answer(msg.params.check, msg.params.choices);
        return null;
      case 'report':
        return need().report(msg.params.locale, msg.params.submittedAt, msg.params.learner);
      case 'network':
        return need().network();
      case 'trace':
        return need().trace(msg.params);
      case 'ping':
        return null;
      case 'resize':
        need().resize(msg.params.cols, msg.params.rows);
        return null;
      case 'ptyInput':
      case 'ptyResize':
        throw Object.assign(new Error(`${msg.type}: this host has no pty`), { code: 'unsupported' });
    }
  }

  async function pump(): Promise<void> {
    while (queue.length > 0) {
      const msg = queue.shift()!;
      if (cancelled.delete(msg.id)) {
        fail(msg.id, Object.assign(new Error('cancelled'), { name: 'AbortError' }), 'cancelled');
        continue;
      }
      try {
        respond(msg.id, await run(msg));
      } catch (e) {
        fail(msg.id, e);
      }
      if (queue.length > 0) await yieldToEvents();
    }
  }

  return {
    receive(data) {
      if (!isToHost(data)) return;
      if (data.v !== PROTOCOL_VERSION) {
        fail(
          data.id,
          new Error(`protocol version ${String(data.v)} (this host speaks ${PROTOCOL_VERSION})`),
          'version',
        );
        return;
      }
      if (data.kind === 'request' && data.type === 'ping') {
        // The heartbeat is answered now, not after the queue: its answer says the event loop turns.
        respond(data.id, null);
        return;
      }
      if (data.kind === 'cancel') {
        if (queue.some((m) => m.id === data.id)) cancelled.add(data.id);
        return;
      }
      queue.push(data);
      pumping ??= pump().finally(() => {
        pumping = undefined;
      });
    },
    async idle() {
      while (pumping) await pumping;
    },
  };
}
