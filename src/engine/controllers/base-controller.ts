/**
 * The shape most of our controllers share: watches that map events to queue keys, and a reconcile of
 * one key at a time (client-go's informer + workqueue pattern). A reconcile that throws (an object
 * gone meanwhile, a namespace terminating) is dropped; the next watch event brings the key back.
 */
import type { Controller, ControllerContext } from './runtime.ts';
import { WorkQueue } from './runtime.ts';
import type { ResourceKey } from '../api/objects.ts';
import type { WatchEvent } from '../api/store.ts';

export abstract class BaseController implements Controller {
  abstract readonly name: string;
  protected readonly ctx: ControllerContext;
  protected readonly queue = new WorkQueue();
  private unwatch: (() => void)[] = [];

  constructor(ctx: ControllerContext) {
    this.ctx = ctx;
  }

  /** Which resources to watch and which keys an event queues. */
  protected abstract watches(): [ResourceKey, (e: WatchEvent) => readonly string[]][];
  /** Keys to queue at start (every existing object the controller owns). */
  protected abstract initialKeys(): readonly string[];
  /** Reconciles one key; returns true when it wrote through the API. */
  protected abstract reconcile(key: string): boolean;

  start(): void {
    for (const u of this.unwatch) u();
    this.unwatch = this.watches().map(([resource, keys]) =>
      this.ctx.api.watch(resource, (e) => {
        for (const k of keys(e)) this.queue.add(k);
      }),
    );
    for (const k of this.initialKeys()) this.queue.add(k);
  }

  /**
   * True while reconcile runs. Watch handlers run synchronously inside the API writes, so a controller
   * whose own writes must not requeue work (upstream's endpointSliceTracker) checks this in its watch.
   */
  protected reconciling = false;

  sync(): boolean {
    let wrote = false;
    for (const key of this.queue.drain().sort()) {
      this.reconciling = true;
      try {
        wrote = this.reconcile(key) || wrote;
      } catch {
        // Dropped; a later event requeues the key (the real controllers requeue with rate limiting).
      } finally {
        this.reconciling = false;
      }
    }
    return wrote;
  }
}

export { splitKey } from '../api/store.ts';
