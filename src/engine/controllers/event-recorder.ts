/**
 * The event recorder every component shares, after client-go `tools/record` (`recorder.go`,
 * `events_cache.go`): an event is a core/v1 Event named `<object>.<unix-nanos in hex>` in the object's
 * namespace; an identical event (same object, container, source, type, reason and message) bumps
 * `count` and `lastTimestamp` on the existing object instead of creating a new one, which is what
 * `kubectl describe` prints as `(x3 over 2m)`.
 *
 * Simplified: no "combined from similar events" aggregation and no rate limiting; a failed write (a
 * namespace being deleted) drops the event, as the real recorder does.
 */
import type { ApiServer } from '../apiserver/apiserver.ts';
import type { AnyObject, Event } from '../api/objects.ts';
import type { SimClock } from '../util/clock.ts';
import { parseTimestamp } from '../util/clock.ts';
import { EVENT_OBJECT_INDEX } from '../api/store.ts';

import type { EventSink, EventSource, EventType } from './runtime.ts';

export type { EventSource, EventType };

export class EventRecorder implements EventSink {
  private readonly api: ApiServer;
  private readonly clock: SimClock;

  constructor(api: ApiServer, clock: SimClock) {
    this.api = api;
    this.clock = clock;
  }

  /**
   * Records an event about `involved`. `fieldPath` names a container (`spec.containers{nginx}`) for the
   * kubelet's container events.
   */
  event(
    involved: AnyObject,
    type: EventType,
    reason: string,
    message: string,
    source: EventSource = { component: 'packetpath' },
    fieldPath?: string,
  ): void {
    const namespace = involved.metadata.namespace ?? 'default';
    const now = this.clock.rfc3339();
    const existing = this.find(involved, type, reason, message, source, fieldPath);
    try {
      if (existing) {
        // Only count and lastTimestamp move; the rest is shared with the stored version.
        this.api.updateTrusted('events', {
          ...existing,
          count: (existing.count ?? 1) + 1,
          lastTimestamp: now,
        });
        return;
      }
      // Real names carry the Unix time in nanoseconds; the store's revision gives the sub-millisecond
      // part, so names are unique and sort in recording order, and replay identically.
      const nanos = nanosHex(this.clock.now(), this.api.store.resourceVersion % 1_000_000);
      // Built as the API server's decoder would store it (keys sorted, no nulls: eventTime stays
      // unset), so it can skip decoding and validation (ApiServer.createTrusted).
      this.api.createTrusted('events', {
        apiVersion: 'v1',
        count: 1,
        firstTimestamp: now,
        involvedObject: this.reference(involved, fieldPath),
        kind: 'Event',
        lastTimestamp: now,
        message,
        metadata: { name: `${involved.metadata.name}.${nanos}`, namespace },
        reason,
        reportingComponent: source.component,
        reportingInstance: source.host ?? '',
        source: this.sourceOf(source),
        type,
      });
    } catch {
      // The real recorder logs and drops events it cannot write (e.g. the namespace is terminating).
    }
  }

  /**
   * Whether an event with this reason (and container) about the object was recorded at or after
   * `sinceMs`. Components that report on a schedule (probe failures, back-offs) use it so that running
   * the same sync twice does not count an occurrence twice.
   */
  recordedSince(
    involved: AnyObject,
    reason: string,
    sinceMs: number,
    fieldPath?: string,
    messagePrefix = '',
  ): boolean {
    const since = Math.floor(sinceMs / 1000) * 1000;
    return this.someAbout(
      involved,
      reason,
      fieldPath,
      (e) => (e.message ?? '').startsWith(messagePrefix) && parseTimestamp(e.lastTimestamp ?? '') >= since,
    );
  }

  /** Events about an object, oldest first (what `kubectl describe` lists). */
  eventsFor(involved: AnyObject): Event[] {
    return this.api
      .byIndex('events', EVENT_OBJECT_INDEX, involved.metadata.uid)
      .sort(
        (a, b) =>
          (a.firstTimestamp ?? '').localeCompare(b.firstTimestamp ?? '') ||
          a.metadata.name.localeCompare(b.metadata.name),
      );
  }

  /**
   * Whether an event about the object with this reason and container satisfies `fn`. Asked before
   * every event recorded, so it walks the index in place: no list per object is built or kept.
   */
  private someAbout(
    involved: AnyObject,
    reason: string,
    fieldPath: string | undefined,
    fn: (e: Event) => boolean,
  ): boolean {
    return this.api.store.someIndexed(
      'events',
      EVENT_OBJECT_INDEX,
      involved.metadata.uid,
      (e) => e.reason === reason && (e.involvedObject.fieldPath ?? undefined) === fieldPath && fn(e),
    );
  }

  private find(
    involved: AnyObject,
    type: EventType,
    reason: string,
    message: string,
    source: EventSource,
    fieldPath: string | undefined,
  ): Event | undefined {
    let found: Event | undefined;
    this.someAbout(involved, reason, fieldPath, (e) => {
      if (
        e.type !== type ||
        e.message !== message ||
        e.source?.component !== source.component ||
        (e.source?.host ?? undefined) !== source.host
      )
        return false;
      found = e;
      return true;
    });
    return found;
  }

  /**
   * The event's involvedObject, built as the decoder would store it (keys sorted). Stored objects are
   * never changed, so the events a component records in a row about one version of one object (the
   * kubelet's Pulling, Pulled, Created, Started) share it: tens of thousands of events are kept.
   */
  private reference(involved: AnyObject, fieldPath: string | undefined): Event['involvedObject'] {
    const last = this.lastReference;
    if (last && last.involved === involved && last.fieldPath === fieldPath) return last.ref;
    const meta = involved.metadata;
    const ref: Record<string, string> = { apiVersion: involved.apiVersion };
    if (fieldPath) ref.fieldPath = fieldPath;
    ref.kind = involved.kind;
    ref.name = meta.name;
    if (meta.namespace) ref.namespace = meta.namespace;
    if (meta.resourceVersion) ref.resourceVersion = meta.resourceVersion;
    if (meta.uid) ref.uid = meta.uid;
    this.lastReference = { involved, fieldPath, ref };
    return ref;
  }

  private lastReference:
    | { involved: AnyObject; fieldPath: string | undefined; ref: Event['involvedObject'] }
    | undefined;

  /** One shared `source` per component and node, for the same reason. */
  private sourceOf(source: EventSource): Event['source'] {
    let byHost = this.sources.get(source.component);
    if (!byHost) this.sources.set(source.component, (byHost = new Map()));
    const host = source.host ?? '';
    let from = byHost.get(host);
    if (!from) {
      from = host ? { component: source.component, host } : { component: source.component };
      byHost.set(host, from);
    }
    return from;
  }

  /** Sources by component, then node ('' for none). */
  private readonly sources = new Map<string, Map<string, NonNullable<Event['source']>>>();
}

/**
 * `ms * 1e6 + sub` in hex, exactly, without BigInt (the product passes 2^53): split at 2^24 so every
 * partial product stays an exact double.
 */
export function nanosHex(ms: number, sub: number): string {
  const SPLIT = 2 ** 24;
  const lo = (ms % SPLIT) * 1_000_000 + sub;
  const hi = Math.floor(ms / SPLIT) * 1_000_000 + Math.floor(lo / SPLIT);
  const low = (lo % SPLIT).toString(16);
  return hi > 0 ? hi.toString(16) + low.padStart(6, '0') : low;
}
