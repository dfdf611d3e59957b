/**
 * Starts the Web Worker host and returns it as a protocol transport. Vite bundles the worker (the
 * engine, the grader, the lab data) as its own chunk from the `new URL(…, import.meta.url)` below.
 */
import { isFromHost, type FromHost, type Transport } from '../protocol.ts';

export function connectWorkerHost(): Transport {
  const worker = new Worker(new URL('./worker.ts', import.meta.url), {
    type: 'module',
    name: 'packetpath-engine',
  });
  return {
    post: (message) => worker.postMessage(message),
    listen(receive: (message: FromHost) => void) {
      worker.onmessage = (event: MessageEvent<unknown>) => {
        if (isFromHost(event.data)) receive(event.data);
      };
      worker.onerror = (event) => {
        receive({
          v: 1,
          kind: 'event',
          event: {
            type: 'fatal',
            error: { name: 'WorkerError', message: event.message || 'the engine worker failed to start' },
          },
        });
      };
    },
    close: () => worker.terminate(),
  };
}
