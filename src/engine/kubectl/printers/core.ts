/**
 * Small core printers: Namespace (NAME STATUS AGE), ConfigMap (DATA counts data + binaryData keys),
 * Secret (TYPE, DATA), ServiceAccount and Event (`printEvent`: LAST SEEN falls back to the first
 * timestamp, OBJECT is `kind/name` lower-cased, wide adds SUBOBJECT, SOURCE, FIRST SEEN, COUNT, NAME).
 */
import type { ConfigMap, Event, Namespace, Secret, ServiceAccount } from '../../api/objects.ts';
import { age } from './duration.ts';
import type { TableDef } from './table.ts';

export const namespaceTable: TableDef<Namespace> = {
  columns: [{ name: 'Name' }, { name: 'Status' }, { name: 'Age' }],
  row(ns, ctx) {
    return [ns.metadata.name, ns.status?.phase ?? '', age(ns.metadata.creationTimestamp, ctx.now)];
  },
};

export const configMapTable: TableDef<ConfigMap> = {
  columns: [{ name: 'Name' }, { name: 'Data' }, { name: 'Age' }],
  row(cm, ctx) {
    const n = Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length;
    return [cm.metadata.name, n, age(cm.metadata.creationTimestamp, ctx.now)];
  },
};

export const secretTable: TableDef<Secret> = {
  columns: [{ name: 'Name' }, { name: 'Type' }, { name: 'Data' }, { name: 'Age' }],
  row(s, ctx) {
    return [
      s.metadata.name,
      s.type ?? '',
      Object.keys(s.data ?? {}).length,
      age(s.metadata.creationTimestamp, ctx.now),
    ];
  },
};

export const serviceAccountTable: TableDef<ServiceAccount> = {
  columns: [{ name: 'Name' }, { name: 'Secrets' }, { name: 'Age' }],
  row(sa, ctx) {
    return [sa.metadata.name, (sa.secrets ?? []).length, age(sa.metadata.creationTimestamp, ctx.now)];
  },
};

/** The involved object as the Events table and describe print it: `pod/web`. */
export function eventTarget(e: Event): string {
  const kind = (e.involvedObject?.kind ?? '').toLowerCase();
  return e.involvedObject?.name ? `${kind}/${e.involvedObject.name}` : kind;
}

export function eventTimes(e: Event, now: number): { first: string; last: string; count: number } {
  const first = e.firstTimestamp ? age(e.firstTimestamp, now) : age(e.eventTime, now);
  let last = e.lastTimestamp ? age(e.lastTimestamp, now) : first;
  let count = e.count ?? 0;
  if (e.series) {
    last = age(e.series.lastObservedTime, now);
    count = e.series.count ?? count;
  } else if (count === 0) count = 1;
  return { first, last, count };
}

function eventSource(e: Event): string {
  const component = e.source?.component || e.reportingComponent || '';
  const instance = e.source?.host || e.reportingInstance || '';
  return instance ? `${component}, ${instance}` : component;
}

export const eventTable: TableDef<Event> = {
  columns: [
    { name: 'Last Seen' },
    { name: 'Type' },
    { name: 'Reason' },
    { name: 'Object' },
    { name: 'Subobject', wide: true },
    { name: 'Source', wide: true },
    { name: 'Message' },
    { name: 'First Seen', wide: true },
    { name: 'Count', wide: true },
    { name: 'Name', wide: true },
  ],
  row(e, ctx) {
    const t = eventTimes(e, ctx.now);
    return [
      t.last,
      e.type ?? '',
      e.reason ?? '',
      eventTarget(e),
      e.involvedObject?.fieldPath ?? '',
      eventSource(e),
      (e.message ?? '').trim(),
      t.first,
      t.count,
      e.metadata.name,
    ];
  },
};
