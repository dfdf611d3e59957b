/**
 * A digest of a cluster snapshot, so the instructor CLI can compare a report's recorded snapshot with
 * the replayed one without keeping ~200 KB of parsed JSON per report between reading the cohort and
 * grading it, and without a structural comparison of both. The digest is sha256 of exactly the text
 * `JSON.stringify(snapshot)` gives: equal digests mean identical JSON, so nothing edited in a recorded
 * snapshot goes unnoticed. It is sensitive to key order, which JSON equality is not; the CLI therefore
 * treats a differing digest only as a suspicion and re-checks that report structurally (grade-files.ts).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** An incremental sha256 over UTF-8 text (node:crypto's `createHash('sha256')` has this shape too). */
export interface Sha256 {
  update(text: string): unknown;
  digest(encoding: 'hex'): string;
}

/** The portable sha256 (the browser's grader); the Node CLI passes node:crypto's, several times faster. */
export function portableSha256(): Sha256 {
  const h = sha256.create();
  return {
    update(text) {
      h.update(utf8ToBytes(text));
    },
    digest: () => bytesToHex(h.digest()),
  };
}

/**
 * JSON text of a snapshot entry (`{"resource":…,"object":…}`) by the stored object's identity. Stored
 * objects are never mutated (the store replaces them on write, and snapshots and restores share them:
 * src/engine/api/store.ts), so a replayed cluster's unchanged objects — nearly all of them, one step
 * after a branch point — are serialized once for the whole cohort.
 */
const entryText = new WeakMap<object, { readonly resource: unknown; readonly text: string }>();

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value JSON.stringify writes as a plain object: no toJSON, no exotic prototype. */
function plain(v: unknown): v is Record<string, unknown> {
  if (!isRecord(v) || typeof v.toJSON === 'function') return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** What JSON.stringify skips as an object member, and writes as null in an array. */
const skipped = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/** Writes `{"k":v,…}` as JSON.stringify would, `member` writing each present value. */
function writeObject(
  obj: Record<string, unknown>,
  write: (text: string) => void,
  member: (key: string, value: unknown) => void,
): void {
  let first = true;
  write('{');
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    if (skipped(value)) continue;
    write(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    member(key, value);
  }
  write('}');
}

/** A snapshot entry's text: remembered for an engine-stored `{resource, object}` entry. */
function entryJson(entry: unknown): string {
  if (skipped(entry)) return 'null';
  const object = plain(entry) ? entry.object : undefined;
  const keys = plain(entry) ? Object.keys(entry) : [];
  if (!plain(entry) || typeof object !== 'object' || object === null || keys.join() !== 'resource,object')
    return JSON.stringify(entry);
  const known = entryText.get(object);
  if (known && known.resource === entry.resource) return known.text;
  const text = JSON.stringify(entry);
  entryText.set(object, { resource: entry.resource, text });
  return text;
}

/**
 * Writes exactly `JSON.stringify(snapshot)`, in parts. With `remember`, the store's objects are taken to
 * be engine-stored (immutable) objects and their entries' text is kept for the next snapshot sharing
 * them; without it the whole text is one JSON.stringify (a snapshot parsed from a report is seen once).
 */
export function writeSnapshotJson(snapshot: unknown, write: (text: string) => void, remember = false): void {
  if (!remember || !plain(snapshot) || !plain(snapshot.store) || !Array.isArray(snapshot.store.objects)) {
    write(JSON.stringify(snapshot) ?? 'undefined');
    return;
  }
  const objects: readonly unknown[] = snapshot.store.objects;
  writeObject(snapshot, write, (key, value) => {
    if (key !== 'store') return write(JSON.stringify(value));
    writeObject(value as Record<string, unknown>, write, (k, v) => {
      if (k !== 'objects' || v !== objects) return write(JSON.stringify(v));
      write('[');
      // Indexes, not forEach: a hole in a sparse array is `null` in JSON.
      for (let i = 0; i < objects.length; i++) write(`${i > 0 ? ',' : ''}${entryJson(objects[i])}`);
      write(']');
    });
  });
}

/** `JSON.stringify(snapshot)`, assembled as `writeSnapshotJson` writes it. */
export function snapshotJson(snapshot: unknown, remember = false): string {
  const parts: string[] = [];
  writeSnapshotJson(snapshot, (t) => parts.push(t), remember);
  return parts.join('');
}

/** `sha256:<hex>` of `JSON.stringify(snapshot)`; `remember` as for writeSnapshotJson. */
export function snapshotDigest(
  snapshot: unknown,
  opts: { sha256?: () => Sha256; remember?: boolean } = {},
): string {
  const h = (opts.sha256 ?? portableSha256)();
  writeSnapshotJson(snapshot, (t) => h.update(t), opts.remember ?? false);
  return `sha256:${h.digest('hex')}`;
}
