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

export type EventType = 'Normal' | 'Warning';

export interface EventSource {
  readonly component: string;
  readonly host?: string;
}

export class EventRecorder {
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
        } as unknown as AnyObject);
        return;
      }
      // Real names carry the Unix time in nanoseconds; the store's revision gives the sub-millisecond
      // part, so names are unique and sort in recording order, and replay identically.
      const nanos = nanosHex(this.clock.now(), this.api.store.resourceVersion % 1_000_000);
      const ref = involved.metadata;
      // Built as the API server's decoder would store it (keys sorted, no nulls: eventTime stays
      // unset), so it can skip decoding and validation (ApiServer.createTrusted). Optional keys are
      // assigned in that order rather than spread in: thousands of events are recorded per settle.
      const involvedObject: Record<string, string | undefined> = { apiVersion: involved.apiVersion };
      if (fieldPath) involvedObject.fieldPath = fieldPath;
      involvedObject.kind = involved.kind;
      involvedObject.name = ref.name;
      if (ref.namespace) involvedObject.namespace = ref.namespace;
      if (ref.resourceVersion) involvedObject.resourceVersion = ref.resourceVersion;
      if (ref.uid) involvedObject.uid = ref.uid;
      const from: Record<string, string> = { component: source.component };
      if (source.host) from.host = source.host;
      this.api.createTrusted('events', {
        apiVersion: 'v1',
        count: 1,
        firstTimestamp: now,
        involvedObject,
        kind: 'Event',
        lastTimestamp: now,
        message,
        metadata: { name: `${ref.name}.${nanos}`, namespace },
        reason,
        reportingComponent: source.component,
        reportingInstance: source.host ?? '',
        source: from,
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
    return this.matching(involved, reason, fieldPath).some(
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

  private matching(involved: AnyObject, reason: string, fieldPath: string | undefined): Event[] {
    // The index's shared list, filtered into a new array: asked before every event recorded.
    return this.api.store
      .byIndexShared('events', EVENT_OBJECT_INDEX, involved.metadata.uid)
      .filter((e) => e.reason === reason && (e.involvedObject.fieldPath ?? undefined) === fieldPath);
  }

  private find(
    involved: AnyObject,
    type: EventType,
    reason: string,
    message: string,
    source: EventSource,
    fieldPath: string | undefined,
  ): Event | undefined {
    return this.matching(involved, reason, fieldPath).find(
      (e) =>
        e.type === type &&
        e.message === message &&
        e.source?.component === source.component &&
        (e.source?.host ?? undefined) === source.host,
    );
  }
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
