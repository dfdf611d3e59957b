/**
 * The write-ahead journal: every command line and every editor change is written to IndexedDB
 * before the host gets it, beside the saved record (progress.ts) that is only written every few
 * hundred milliseconds. A reload, a crash or a closed tab at any moment then loses nothing the host
 * ever ran: restore loads the saved record's state and replays the journal tail on it.
 *
 * Each tab keeps its own tail (keyed by lab and writer), based on the record revision it last loaded
 * or saved. A save covers every step posted to the host before its `state` request (the transport
 * is ordered), so those steps leave the tail. On restore only a tail based on the stored revision
 * still applies: one based on an older revision was overtaken by another tab's save, which the
 * learner settled (or will) through the conflict notice.
 */
import { HostError, type JournalStep, type Result } from '../../runtime/protocol';
import type { HostSession } from './host-session';
import { completed, promised, type JournalCoverage } from './progress';

const DB_NAME = 'packet-path-journal';
const STORE = 'tails';

interface Entry {
  readonly seq: number;
  readonly step: JournalStep;
}

/** One tab's tail, as stored. */
export interface Tail {
  readonly key: string;
  readonly labId: string;
  readonly writer: string;
  /** The record revision these steps build on (0: nothing saved yet). */
  readonly baseRev: number;
  readonly entries: readonly Entry[];
  readonly updatedAt: string;
}

function isTail(v: unknown, labId: string): v is Tail {
  if (typeof v !== 'object' || v === null) return false;
  const t = v as Record<string, unknown>;
  return (
    t.labId === labId &&
    typeof t.key === 'string' &&
    typeof t.baseRev === 'number' &&
    typeof t.updatedAt === 'string' &&
    Array.isArray(t.entries) &&
    t.entries.every(
      (e: unknown) =>
        typeof e === 'object' &&
        e !== null &&
        typeof (e as Entry).seq === 'number' &&
        typeof (e as Entry).step === 'object' &&
        (e as Entry).step !== null,
    )
  );
}

/** The journal's own database (apart from the progress one, so neither upgrade blocks the other). */
export class JournalStore {
  private db: Promise<IDBDatabase> | undefined;

  constructor(
    private readonly factory: IDBFactory | undefined = typeof indexedDB === 'undefined'
      ? undefined
      : indexedDB,
    private readonly name = DB_NAME,
  ) {}

  private open(): Promise<IDBDatabase> {
    this.db ??= new Promise<IDBDatabase>((resolve, reject) => {
      if (!this.factory) return reject(new Error('IndexedDB is not available'));
      const request = this.factory.open(this.name, 1);
      request.onupgradeneeded = () => {
        if (!request.result.objectStoreNames.contains(STORE))
          request.result.createObjectStore(STORE, { keyPath: 'key' }).createIndex('labId', 'labId');
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB open failed'));
      request.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'));
    });
    return this.db;
  }

  async put(tail: Tail): Promise<void> {
    const tx = (await this.open()).transaction(STORE, 'readwrite');
    tx.objectStore(STORE).put(tail);
    await completed(tx);
  }

  async delete(key: string): Promise<void> {
    const tx = (await this.open()).transaction(STORE, 'readwrite');
    tx.objectStore(STORE).delete(key);
    await completed(tx);
  }

  async forLab(labId: string): Promise<Tail[]> {
    const tx = (await this.open()).transaction(STORE, 'readonly');
    const all: unknown[] = await promised(tx.objectStore(STORE).index('labId').getAll(labId));
    return (Array.isArray(all) ? all : []).filter((t): t is Tail => isTail(t, labId));
  }
}

/**
 * Which tails belong to a tab still open: each tab holds a Web Lock named after its tail for as long
 * as it lives (the browser releases it when the tab goes away, however it goes). A live tab's tail is
 * its own unsaved work, not something to replay in another tab.
 */
export interface Liveness {
  hold(key: string): void;
  isHeld(key: string): Promise<boolean>;
}

const lockName = (key: string) => `packetpath-journal:${key}`;

export const webLocks: Liveness = {
  hold(key) {
    if (!('locks' in navigator)) return;
    void navigator.locks.request(lockName(key), () => new Promise<never>(() => {})).catch(() => {});
  },
  async isHeld(key) {
    if (!('locks' in navigator)) return false;
    const { held = [] } = await navigator.locks.query();
    return held.some((l) => l.name === lockName(key));
  },
};

/** This tab's tail: appended before each step reaches the host, cut when a save covers it. */
export class WriteAheadLog {
  private entries: Entry[] = [];
  private baseRev = 0;
  private nextSeq = 1;
  /** The highest seq handed to the host (posted on the ordered transport). */
  private postedSeq = 0;
  /** Writes to IndexedDB, one after the other, so the stored tail is never older than a finished one. */
  private writing: Promise<void> = Promise.resolve();
  /** A write failed (quota, storage off): the work stays in the page, the saved record's notice says so. */
  failing = false;
  private readonly key: string;

  constructor(
    private readonly store: JournalStore,
    private readonly labId: string,
    private readonly writer: string,
    private readonly liveness: Liveness = webLocks,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.key = `${labId}/${writer}`;
    liveness.hold(this.key);
  }

  /**
   * Journals `step` and resolves once it is stored (or storing failed): then, and only then, the
   * caller may hand it to the host. Consecutive writes of one file not yet posted collapse into one.
   */
  async append(step: JournalStep): Promise<number> {
    const last = this.entries[this.entries.length - 1];
    if (
      'write' in step &&
      last &&
      'write' in last.step &&
      last.step.write === step.write &&
      last.seq > this.postedSeq
    )
      this.entries.pop();
    const seq = this.nextSeq++;
    this.entries.push({ seq, step });
    await this.persist();
    return seq;
  }

  /** Call synchronously just before the step with `seq` is posted to the host. */
  posted(seq: number): void {
    this.postedSeq = Math.max(this.postedSeq, seq);
  }

  /** Drops a step the host never finished (a line the watchdog gave up on): replaying it could hang again. */
  async forget(seq: number): Promise<void> {
    this.entries = this.entries.filter((e) => e.seq !== seq);
    await this.persist();
  }

  /** The steps a save about to ask the host for its state will include. */
  covered(): number {
    return this.postedSeq;
  }

  /** A save of revision `rev` holds every step up to `covered`. */
  async saved(rev: number, covered: number): Promise<void> {
    this.baseRev = rev;
    this.entries = this.entries.filter((e) => e.seq > covered);
    await this.persist();
  }

  /** The page now shows revision `rev` as it is (another tab's save, an import, a reset): no tail. */
  async rebase(rev: number): Promise<void> {
    this.baseRev = rev;
    this.entries = [];
    await this.persist();
  }

  /** This tab's writer name, recorded in each save with the last step it covers. */
  coverage(seq: number): JournalCoverage {
    return { writer: this.writer, seq };
  }

  /**
   * The steps to replay at start on the stored record (revision `rev`, covering `journal`): the tail
   * of the tab that saved it, past what the save covers, or else the newest tail another closed tab
   * built on that revision. The steps become this tab's own tail, stored before the old one is
   * dropped, so a second reload before the next save still finds them.
   */
  async recover(rev: number, journal?: JournalCoverage): Promise<JournalStep[]> {
    let tails: Tail[];
    try {
      tails = await this.store.forLab(this.labId);
    } catch {
      return [];
    }
    const closed: Tail[] = [];
    for (const t of tails) if (t.key !== this.key && !(await this.liveness.isHeld(t.key))) closed.push(t);
    const pending = (t: Tail): readonly Entry[] =>
      journal && t.writer === journal.writer
        ? t.entries.filter((e) => e.seq > journal.seq)
        : t.baseRev === rev
          ? t.entries
          : [];
    const chosen =
      closed.find((t) => journal && t.writer === journal.writer && pending(t).length > 0) ??
      closed.filter((t) => pending(t).length > 0).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0];
    this.baseRev = rev;
    this.entries = (chosen ? pending(chosen) : []).map((e) => ({ seq: this.nextSeq++, step: e.step }));
    // Replayed on the host before anything else is posted.
    this.postedSeq = this.nextSeq - 1;
    await this.persist();
    // The other closed tabs' tails were overtaken by a save, or lost to the newest (two tabs closed
    // with unsaved work on one revision is a conflict nobody was there to settle).
    for (const t of closed) await this.store.delete(t.key).catch(() => {});
    return this.entries.map((e) => e.step);
  }

  private persist(): Promise<void> {
    const tail: Tail = {
      key: this.key,
      labId: this.labId,
      writer: this.writer,
      baseRev: this.baseRev,
      entries: [...this.entries],
      updatedAt: this.now().toISOString(),
    };
    this.writing = this.writing.then(() =>
      this.store.put(tail).then(
        () => {
          this.failing = false;
        },
        () => {
          this.failing = true;
        },
      ),
    );
    return this.writing;
  }
}

/**
 * Runs a command line the way the lab does: the editor's pending edits first (as the host will see
 * them), then the line, journaled before the host gets it. Undefined when the watchdog gave up on the
 * host: the line leaves the journal (it may be what made the engine spin) and is not run again.
 */
export async function execJournaled(
  wal: WriteAheadLog,
  host: Pick<HostSession, 'request'>,
  flush: () => Promise<void>,
  line: string,
  signal?: AbortSignal,
): Promise<Result<'exec'> | undefined> {
  await flush();
  const seq = await wal.append({ run: line });
  try {
    return await host.request(
      'exec',
      { line },
      { ...(signal ? { signal } : {}), posted: () => wal.posted(seq) },
    );
  } catch (e) {
    if (e instanceof HostError && e.code === 'unresponsive') {
      await wal.forget(seq);
      return undefined;
    }
    throw e;
  }
}
