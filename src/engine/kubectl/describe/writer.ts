/**
 * pkg/describe's PrefixWriter and shared sections: two spaces per level, the whole text aligned by a
 * tabwriter(minwidth 0, tabwidth 8, padding 2) at the end; multi-line Labels/Annotations blocks (sorted
 * keys, `<none>`, last-applied-configuration skipped, long values folded); the Events table.
 */
import type { AnyObject, Event } from '../../api/objects.ts';
import { parseTimestamp } from '../../util/clock.ts';
import { age } from '../printers/duration.ts';
import { DESCRIBE_OPTIONS, tabwrite } from '../../util/tabwriter.ts';

const MAX_ANNOTATION_LEN = 140;
const SKIP_ANNOTATIONS = new Set(['kubectl.kubernetes.io/last-applied-configuration']);

export class PrefixWriter {
  private text = '';

  write(level: number, s: string): void {
    this.text += '  '.repeat(level) + s;
  }

  /** `WriteLine`: the text and a newline, no indentation. */
  line(s: string): void {
    this.text += `${s}\n`;
  }

  /** tabbedString: the aligned result. */
  toString(): string {
    return tabwrite(this.text, DESCRIBE_OPTIONS);
  }
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad2 = (n: number): string => String(n).padStart(2, '0');

/** Go's time.RFC1123Z in UTC: `Thu, 01 Jan 2026 00:00:00 +0000`. */
export function rfc1123z(timestamp: string | undefined | null): string {
  const ms = timestamp ? parseTimestamp(timestamp) : NaN;
  const d = new Date(Number.isNaN(ms) ? Date.UTC(1, 0, 1) : ms);
  return `${DAYS[d.getUTCDay()]}, ${pad2(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())} +0000`;
}

/** metav1.Time's String(): `2026-01-01 00:00:00 +0000 UTC`. */
export function goTimeString(timestamp: string | undefined): string {
  const ms = timestamp ? parseTimestamp(timestamp) : NaN;
  if (Number.isNaN(ms)) return '0001-01-01 00:00:00 +0000 UTC';
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())} +0000 UTC`;
}

function sortedKeys(o: Readonly<Record<string, string>> | undefined): string[] {
  return Object.keys(o ?? {}).sort();
}

/** printLabelsMultilineWithIndent. */
export function writeLabels(
  w: PrefixWriter,
  title: string,
  labels: Readonly<Record<string, string>> | undefined,
  initialIndent = '',
  innerIndent = '\t',
): void {
  w.write(0, `${initialIndent}${title}:${innerIndent}`);
  const keys = sortedKeys(labels);
  if (keys.length === 0) {
    w.line('<none>');
    return;
  }
  keys.forEach((k, i) => {
    if (i !== 0) w.write(0, `${initialIndent}${innerIndent}`);
    w.write(0, `${k}=${labels![k]}\n`);
  });
}

/** printAnnotationsMultiline: long or multi-line values on their own lines, cut at 140 characters. */
export function writeAnnotations(
  w: PrefixWriter,
  title: string,
  annotations: Readonly<Record<string, string>> | undefined,
): void {
  w.write(0, `${title}:\t`);
  const keys = sortedKeys(annotations).filter((k) => !SKIP_ANNOTATIONS.has(k));
  if (keys.length === 0) {
    w.line('<none>');
    return;
  }
  keys.forEach((k, i) => {
    if (i !== 0) w.write(0, '\t');
    const value = annotations![k]!.replace(/\n$/, '');
    if (value.length + k.length + 2 > MAX_ANNOTATION_LEN || value.includes('\n')) {
      w.write(0, `${k}:\n`);
      for (const s of value.split('\n')) {
        const cut = s.length > MAX_ANNOTATION_LEN - 2 ? `${s.slice(0, MAX_ANNOTATION_LEN - 2)}...` : s;
        w.write(0, `\t  ${cut}\n`);
      }
    } else w.write(0, `${k}: ${value}\n`);
  });
}

/** `searchEvents`: events whose involvedObject is this object, oldest lastTimestamp first. */
export function eventsFor(events: readonly Event[], obj: AnyObject): Event[] {
  return events
    .filter(
      (e) =>
        e.involvedObject?.name === obj.metadata.name &&
        (e.involvedObject?.namespace ?? '') === (obj.metadata.namespace ?? '') &&
        e.involvedObject?.kind === obj.kind &&
        (!e.involvedObject?.uid ||
          e.involvedObject.uid === obj.metadata.uid ||
          e.involvedObject.uid === obj.metadata.name),
    )
    .map((e, i) => ({ e, i }))
    .sort((a, b) => {
      const ta = a.e.lastTimestamp ? parseTimestamp(a.e.lastTimestamp) : 0;
      const tb = b.e.lastTimestamp ? parseTimestamp(b.e.lastTimestamp) : 0;
      return ta - tb || a.i - b.i;
    })
    .map(({ e }) => e);
}

/** DescribeEvents: `Events:  <none>` or the Type/Reason/Age/From/Message table. */
export function writeEvents(w: PrefixWriter, events: readonly Event[] | undefined, now: number): void {
  if (!events) return;
  if (events.length === 0) {
    w.write(0, 'Events:\t<none>\n');
    return;
  }
  w.write(0, 'Events:\n  Type\tReason\tAge\tFrom\tMessage\n');
  w.write(1, '----\t------\t----\t----\t-------\n');
  for (const e of events) {
    const first = e.eventTime ? age(e.eventTime, now) : age(e.firstTimestamp, now);
    let interval: string;
    if (e.series) interval = `${age(e.series.lastObservedTime, now)} (x${e.series.count ?? 0} over ${first})`;
    else if ((e.count ?? 0) > 1) interval = `${age(e.lastTimestamp, now)} (x${e.count} over ${first})`;
    else interval = first;
    const source = e.source?.component || e.reportingComponent || '';
    let message = (e.message ?? '').trim();
    if (e.involvedObject?.fieldPath) message = `${e.involvedObject.fieldPath}: ${message}`;
    w.write(1, `${e.type ?? ''}\t${e.reason ?? ''}\t${interval}\t${source}\t${message}\n`);
  }
}

/** `Controlled By:` text, `Kind/name` of the controller owner reference. */
export function controllerOf(obj: AnyObject): string {
  const ref = obj.metadata.ownerReferences?.find((r) => r.controller);
  return ref ? `${ref.kind}/${ref.name}` : '';
}
