// monaco-worker-manager/worker, for Monaco >= 0.56 (aliased in astro.config.mjs). The original imports
// `monaco-editor/esm/vs/editor/editor.worker.js`, a path the 0.56 `exports` map no longer resolves, and
// waits for a first message Monaco no longer sends. See docs in ../editor.ts and platform-notes §3.2.
import { initialize as init } from 'monaco-editor/editor/editor.worker.js';

/** @param {(ctx: unknown, createData: unknown) => object} fn */
export function initialize(fn) {
  init((ctx, createData) => Object.create(fn(ctx, createData)));
}
