/**
 * Saved progress: one versioned record per lab in IndexedDB (files, the engine's cluster snapshot,
 * terminal history, check results, hints shown), an export/import format for all of them, and the
 * rules that decide what a stored record is: current, older (migrate), or unreadable (offer a reset).
 * The record checks are pure and unit-tested; the IndexedDB part is a tiny promise wrapper.
 *
 * Two tabs on one lab: every record carries a revision `rev`, and a tab writes only with a
 * compare-and-swap (`ProgressStore.compareAndPut`: one IndexedDB readwrite transaction reads the stored
 * rev and writes only if it is still the one this tab last loaded or wrote; IndexedDB runs readwrite
 * transactions on a store one at a time, across tabs, so the check and the write cannot interleave).
 * A tab that finds another rev has been overtaken: it writes nothing and asks the learner (load the
 * other tab's version, or keep its own, which then replaces the other's on purpose). BroadcastChannel
 * tells the other tabs at once after each write, so a tab with no unsaved changes simply takes the new
 * version live, and one with unsaved changes asks before its next save would fail. Why not per-file
 * merges: a lab is files *and* a cluster built by the commands run; two clusters cannot be merged, and
 * files merged without their cluster would not match it.
 *
 * Record versions: 2 (this one, `rev`); 1 (no `rev`: migrated as it is, rev 0); 0 or unversioned
 * (files and commands only: replayed through the journal, after asking).
 *
 * A lab with variants (the capstone) also keeps the learner's draw seed, `drawSeed`: made once, kept
 * by Reset, replaced only by "new fault"; the host starts the variant it draws. The field is optional
 * in version 2: a record without it was built with seed 0 (what the host uses when none is sent), so
 * that is its seed, and salvaged journals replay on the variant their record's seed drew.
 */
import type { CheckSummary, HostState, JournalStep } from '../../runtime/protocol';

export const PROGRESS_VERSION = 2;
export const EXPORT_FORMAT = 'packetpath-progress';

export interface LabProgress {
  readonly version: typeof PROGRESS_VERSION;
  readonly labId: string;
  readonly labVersion: number;
  readonly files: Readonly<Record<string, string>>;
  /** The host's state: engine snapshot (opaque to the UI; the host checks it on load) and journal. */
  readonly state: HostState;
  /** The terminal's history (Up/Down), which may hold lines the journal does not (blank, repeats). */
  readonly history: readonly string[];
  readonly checks: CheckSummary | null;
  readonly hintLevel: number;
  readonly openFile?: string | undefined;
  readonly updatedAt: string;
  /** Bumped by every write; the compare-and-swap's witness (see the top of this file). */
  readonly rev: number;
  /** Labs with variants: the learner's draw seed (see the top of this file). */
  readonly drawSeed?: number;
  /** The write-ahead journal's steps this record's state holds: the writer's tail up to `seq` (write-ahead.ts). */
  readonly journal?: JournalCoverage;
}

export interface JournalCoverage {
  readonly writer: string;
  readonly seq: number;
}

/** A draw seed as the hosts take it: a whole number in [0, 2^32). */
export function isDrawSeed(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff;
}

/** The draw seed a stored record was built with (seed 0 when it has none); undefined when nothing is stored. */
export function storedDrawSeed(stored: Stored): number | undefined {
  if (stored.kind === 'ok') return stored.progress.drawSeed ?? 0;
  if (stored.kind === 'old') return stored.drawSeed ?? 0;
  return undefined;
}

/** What a stored record turned out to be. */
export type Stored =
  | { readonly kind: 'none' }
  | { readonly kind: 'ok'; readonly progress: LabProgress }
  /** Readable in part (older record, or a snapshot the engine refuses): its journal can be replayed. */
  | {
      readonly kind: 'old';
      readonly reason: string;
      readonly journal: JournalStep[];
      readonly history: string[];
      readonly drawSeed?: number;
    }
  | { readonly kind: 'corrupt'; readonly reason: string };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringMap = (v: unknown): v is Record<string, string> =>
  isRecord(v) && Object.values(v).every((x) => typeof x === 'string');
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function isStep(v: unknown): v is JournalStep {
  if (!isRecord(v)) return false;
  if (typeof v.run === 'string') return true;
  if (typeof v.write === 'string') return typeof v.content === 'string';
  if (typeof v.remove === 'string') return true;
  return typeof v.wait === 'number';
}

/**
 * A replayable journal salvaged from any record shape (or a damaged one): the record's own journal
 * when it has one, otherwise its files written over the start files and its command lines run again.
 */
export function salvage(
  raw: Record<string, unknown>,
): { journal: JournalStep[]; history: string[]; drawSeed?: number } | undefined {
  const state = isRecord(raw.state) ? raw.state : undefined;
  const history = isStringList(raw.history) ? raw.history : isStringList(raw.commands) ? raw.commands : [];
  const seed = isDrawSeed(raw.drawSeed) ? { drawSeed: raw.drawSeed } : {};
  if (state && Array.isArray(state.journal) && state.journal.every(isStep)) {
    return { journal: state.journal, history, ...seed };
  }
  const files = isStringMap(raw.files) ? raw.files : {};
  if (Object.keys(files).length === 0 && history.length === 0) return undefined;
  const journal: JournalStep[] = [
    ...Object.entries(files).map(([write, content]) => ({ write, content })),
    ...history.map((run) => ({ run })),
  ];
  return { journal, history, ...seed };
}

/** Classifies a record read from storage for `labId`. */
export function classify(raw: unknown, labId: string): Stored {
  if (raw === undefined || raw === null) return { kind: 'none' };
  if (!isRecord(raw)) return { kind: 'corrupt', reason: 'not an object' };
  const version = raw.version;
  if (typeof version !== 'number') {
    const s = salvage(raw);
    return s
      ? { kind: 'old', reason: 'record without a version', ...s }
      : { kind: 'corrupt', reason: 'no version' };
  }
  if (version > PROGRESS_VERSION) return { kind: 'corrupt', reason: `saved by a newer version (${version})` };
  // Version 1 differs only by the missing `rev`: it migrates as it is, checked like a current record.
  if (version === 1) return classify({ ...raw, version: PROGRESS_VERSION, rev: 0 }, labId);
  if (version < PROGRESS_VERSION) {
    const s = salvage(raw);
    return s
      ? { kind: 'old', reason: `version ${version}`, ...s }
      : { kind: 'corrupt', reason: `version ${version}` };
  }
  const problems: string[] = [];
  if (raw.labId !== labId) problems.push('labId');
  if (typeof raw.labVersion !== 'number') problems.push('labVersion');
  if (!isStringMap(raw.files)) problems.push('files');
  if (!isStringList(raw.history)) problems.push('history');
  if (!isRecord(raw.state) || !isRecord(raw.state.snapshot) || !Array.isArray(raw.state.journal))
    problems.push('state');
  if (typeof raw.hintLevel !== 'number') problems.push('hintLevel');
  if (typeof raw.rev !== 'number' || !Number.isInteger(raw.rev) || raw.rev < 0) problems.push('rev');
  if (raw.drawSeed !== undefined && !isDrawSeed(raw.drawSeed)) problems.push('drawSeed');
  if (problems.length > 0) {
    const s = salvage(raw);
    const reason = `damaged fields: ${problems.join(', ')}`;
    return s ? { kind: 'old', reason, ...s } : { kind: 'corrupt', reason };
  }
  return { kind: 'ok', progress: raw as unknown as LabProgress };
}

export interface ExportFile {
  readonly format: typeof EXPORT_FORMAT;
  readonly version: typeof PROGRESS_VERSION;
  readonly exportedAt: string;
  readonly labs: readonly unknown[];
}

export function buildExport(records: readonly unknown[], now = new Date()): ExportFile {
  return { format: EXPORT_FORMAT, version: PROGRESS_VERSION, exportedAt: now.toISOString(), labs: records };
}

/** Reads an export file; throws a plain message when it is not one. Records are classified on load. */
export function parseExport(text: string): { labId: string; record: unknown }[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error('not JSON');
  }
  if (!isRecord(data) || data.format !== EXPORT_FORMAT || !Array.isArray(data.labs))
    throw new Error('not a progress file');
  if (typeof data.version !== 'number' || data.version > PROGRESS_VERSION)
    throw new Error('made by a newer version');
  return data.labs
    .filter(isRecord)
    .filter((r): r is Record<string, unknown> & { labId: string } => typeof r.labId === 'string')
    .map((record) => ({ labId: record.labId, record }));
}

// ---- IndexedDB ------------------------------------------------------------------------------------

const DB_NAME = 'packet-path';
const STORE = 'progress';

/** Whether an IndexedDB failure is the browser's storage quota (the learner must be told). */
export function isQuotaError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    ((error as { name?: unknown }).name === 'QuotaExceededError' ||
      // Firefox before DOMException names were unified
      (error as { name?: unknown }).name === 'NS_ERROR_DOM_QUOTA_REACHED')
  );
}

export type PutOutcome =
  | { readonly kind: 'saved'; readonly rev: number }
  /** Another tab wrote since `expected`: nothing was written. `current` is what is stored now. */
  | { readonly kind: 'conflict'; readonly current: unknown; readonly rev: number };

/** The rev of a raw stored record (0 for none, or an older record without one). */
export function revOf(raw: unknown): number {
  const rev = isRecord(raw) ? raw.rev : undefined;
  return typeof rev === 'number' && Number.isInteger(rev) && rev >= 0 ? rev : 0;
}

/** An IndexedDB request as a promise (the journal's store shares these). */
export function promised<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

export function completed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    // A full quota aborts the transaction with QuotaExceededError (the request itself may succeed).
    tx.onabort = () => reject(tx.error ?? new DOMException('transaction aborted', 'AbortError'));
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
  });
}

export class ProgressStore {
  private db: Promise<IDBDatabase> | undefined;

  /** `factory` and `name` are for tests (fake-indexeddb); the page uses the browser's. */
  constructor(
    private readonly factory: IDBFactory | undefined = typeof indexedDB === 'undefined'
      ? undefined
      : indexedDB,
    private readonly name = DB_NAME,
  ) {}

  private open(): Promise<IDBDatabase> {
    this.db ??= new Promise<IDBDatabase>((resolve, reject) => {
      const factory = this.factory;
      if (!factory) {
        reject(new Error('IndexedDB is not available'));
        return;
      }
      const request = factory.open(this.name, 1);
      request.onupgradeneeded = () => {
        if (!request.result.objectStoreNames.contains(STORE))
          request.result.createObjectStore(STORE, { keyPath: 'labId' });
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB open failed'));
      request.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'));
    });
    return this.db;
  }

  private async store(mode: IDBTransactionMode): Promise<IDBObjectStore> {
    return (await this.open()).transaction(STORE, mode).objectStore(STORE);
  }

  /** The raw stored record (classify it with `classify`). */
  async get(labId: string): Promise<unknown> {
    return promised((await this.store('readonly')).get(labId));
  }

  async put(record: LabProgress | Record<string, unknown>): Promise<void> {
    const tx = (await this.open()).transaction(STORE, 'readwrite');
    tx.objectStore(STORE).put(record);
    await completed(tx);
  }

  /**
   * Writes `record` with rev `expected + 1` only if the stored record's rev is still `expected`, in one
   * readwrite transaction. Rejects with the IndexedDB error (QuotaExceededError on a full quota).
   */
  async compareAndPut(record: Omit<LabProgress, 'rev'>, expected: number): Promise<PutOutcome> {
    const tx = (await this.open()).transaction(STORE, 'readwrite');
    const store = tx.objectStore(STORE);
    const done = completed(tx);
    const current: unknown = await promised(store.get(record.labId));
    const rev = revOf(current);
    if (current !== undefined && rev !== expected) {
      await done;
      return { kind: 'conflict', current, rev };
    }
    store.put({ ...record, rev: expected + 1 });
    await done;
    return { kind: 'saved', rev: expected + 1 };
  }

  async delete(labId: string): Promise<void> {
    await promised((await this.store('readwrite')).delete(labId));
  }

  async all(): Promise<unknown[]> {
    return promised((await this.store('readonly')).getAll());
  }
}
