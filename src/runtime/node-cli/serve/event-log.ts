/**
 * The watch cache: every change the store emits, numbered by the store's resourceVersion, kept for a
 * while so that a watch from a list's resourceVersion sees exactly what happened after the list
 * (kube-apiserver's cacher keeps a sliding window the same way and answers 410 Gone before it).
 * Live watches are told about each new entry.
 */
import type { AnyObject, ServedCluster, WatchEvent } from '../../../engine/index.ts';

export interface LoggedEvent {
  readonly rv: number;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly resource: string;
  readonly object: AnyObject;
  readonly oldObject: AnyObject | undefined;
}

/** How many events the window keeps. */
const WINDOW = 20_000;

export class EventLog {
  private entries: LoggedEvent[] = [];
  /** Events with rv ≤ this are gone from the window (a watch from before it gets 410). */
  private oldestRv: number;
  private readonly listeners = new Set<(e: LoggedEvent) => void>();
  private unsubscribe: (() => void) | undefined;

  constructor(cluster: ServedCluster) {
    this.oldestRv = cluster.resourceVersion;
    this.attach(cluster);
  }

  /** Follows a cluster's store (a new one after a reload from the state file). */
  attach(cluster: ServedCluster): void {
    this.unsubscribe?.();
    this.unsubscribe = cluster.api.watch('*', (e: WatchEvent) => this.push(cluster.resourceVersion, e));
  }

  /**
   * After the cluster was replaced by one read from the state file: the differences between the two,
   * object by object, as the events a watch would have seen.
   */
  replaced(before: ServedCluster, after: ServedCluster): void {
    const old = new Map<string, AnyObject>();
    for (const { resource, object } of before.snapshot().store.objects)
      old.set(`${resource}/${object.metadata.namespace ?? ''}/${object.metadata.name}`, object);
    const rv = after.resourceVersion;
    for (const { resource, object } of after.snapshot().store.objects) {
      const key = `${resource}/${object.metadata.namespace ?? ''}/${object.metadata.name}`;
      const prev = old.get(key);
      old.delete(key);
      if (!prev) this.push(rv, { type: 'ADDED', resource, object });
      else if (prev.metadata.resourceVersion !== object.metadata.resourceVersion)
        this.push(rv, { type: 'MODIFIED', resource, object, oldObject: prev });
    }
    for (const [key, object] of old) {
      const resource = key.slice(0, key.indexOf('/')) as WatchEvent['resource'];
      this.push(rv, { type: 'DELETED', resource, object, oldObject: object });
    }
    this.attach(after);
  }

  private push(rv: number, e: WatchEvent): void {
    // A DELETED event carries the object at the deletion's resourceVersion, as the real server sends it.
    const object =
      e.type === 'DELETED'
        ? ({ ...e.object, metadata: { ...e.object.metadata, resourceVersion: String(rv) } } as AnyObject)
        : e.object;
    const entry: LoggedEvent = { rv, type: e.type, resource: e.resource, object, oldObject: e.oldObject };
    this.entries.push(entry);
    if (this.entries.length > WINDOW) {
      const dropped = this.entries.splice(0, this.entries.length - WINDOW);
      this.oldestRv = dropped.at(-1)!.rv;
    }
    for (const l of this.listeners) l(entry);
  }

  /** The events after `rv`, or undefined when the window no longer reaches back that far. */
  since(rv: number): LoggedEvent[] | undefined {
    if (rv < this.oldestRv) return undefined;
    return this.entries.filter((e) => e.rv > rv);
  }

  listen(fn: (e: LoggedEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}
