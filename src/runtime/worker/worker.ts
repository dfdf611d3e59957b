/**
 * The Web Worker host: the engine off the main thread, so a long `kubectl` never freezes the page.
 * Instant, offline, needs no cross-origin isolation. The UI creates it with `connectWorkerHost()`.
 */
import { createHostHandler } from '../host-handler.ts';
import { loadBundledLab } from '../labs.ts';

// The project compiles with the DOM lib; a worker's global scope is typed here by what it uses.
const scope = self as unknown as {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
};

const handler = createHostHandler({
  host: 'worker',
  loadLab: loadBundledLab,
  send: (message) => scope.postMessage(message),
});

scope.addEventListener('message', (event) => handler.receive(event.data));
