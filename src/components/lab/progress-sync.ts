/**
 * One tab's side of saved progress when several tabs (or windows) have the same lab open: the
 * revision this tab last loaded or wrote, whether it has changes not yet saved, and the conflict
 * rules (see the top of progress.ts for the design and why). Pure logic over a ProgressStore and a
 * message channel, so the property test drives it with fake-indexeddb and an in-memory channel.
 */
import { isQuotaError, revOf, type LabProgress, type ProgressStore } from './progress';

/** What a tab tells the others after a write. */
export interface SyncMessage {
  readonly labId: string;
  readonly rev: number;
  readonly writer: string;
}

export interface SyncChannel {
  post(message: SyncMessage): void;
  listen(receive: (message: SyncMessage) => void): void;
  close(): void;
}

/** The browser's BroadcastChannel (every same-origin tab), or none where it does not exist. */
export function broadcastChannel(name = 'packet-path-progress'): SyncChannel | undefined {
  if (typeof BroadcastChannel === 'undefined') return undefined;
  const channel = new BroadcastChannel(name);
  return {
    post: (message) => channel.postMessage(message),
    listen(receive) {
      channel.onmessage = (event: MessageEvent<unknown>) => {
        const m = event.data as Partial<SyncMessage> | null;
        if (m && typeof m.labId === 'string' && typeof m.rev === 'number' && typeof m.writer === 'string')
          receive({ labId: m.labId, rev: m.rev, writer: m.writer });
      };
    },
    close: () => channel.close(),
  };
}

export type SaveOutcome =
  | 'saved'
  /** Another tab wrote first: nothing written, the learner decides (`keepMine` / `takeTheirs`). */
  | 'conflict'
  /** The browser's storage quota is full: nothing written, the work stays in the page. */
  | 'quota'
  | 'failed'
  /** A conflict is waiting for the learner's choice: no write until then. */
  | 'suspended'
  /** Nothing changed since the last save or load. */
  | 'clean';

/** What another tab's write means here: take it (this tab has nothing unsaved), or ask. */
export type RemoteChange = 'adopt' | 'conflict';

export class ProgressSync {
  /** The rev this tab last loaded or wrote: the compare-and-swap's expected value. */
  private base = 0;
  /** Counts this tab's changes; `savedEdits` is the count its last save or load covered. */
  private edits = 0;
  private savedEdits = 0;
  private conflicted = false;

  constructor(
    private readonly store: ProgressStore,
    private readonly labId: string,
    /** This tab's id, so it ignores its own messages. */
    private readonly writer: string,
    private readonly channel: SyncChannel | undefined,
    private readonly onRemote: (change: RemoteChange) => void,
  ) {
    channel?.listen((m) => this.receive(m));
  }

  get dirty(): boolean {
    return this.edits !== this.savedEdits;
  }

  get inConflict(): boolean {
    return this.conflicted;
  }

  get rev(): number {
    return this.base;
  }

  /** The learner changed something (a file, a command, a hint…): the next save has work to do. */
  touch(): void {
    this.edits++;
  }

  /** This tab now shows `raw` (loaded on start, taken from another tab, imported, or deleted: undefined). */
  loaded(raw: unknown): void {
    this.base = revOf(raw);
    this.savedEdits = this.edits;
    this.conflicted = false;
  }

  async save(record: Omit<LabProgress, 'rev'>): Promise<SaveOutcome> {
    if (this.conflicted) return 'suspended';
    if (!this.dirty) return 'clean';
    const covered = this.edits;
    let outcome;
    try {
      outcome = await this.store.compareAndPut(record, this.base);
    } catch (e) {
      return isQuotaError(e) ? 'quota' : 'failed';
    }
    if (outcome.kind === 'conflict') {
      this.conflicted = true;
      return 'conflict';
    }
    this.base = outcome.rev;
    this.savedEdits = covered;
    this.channel?.post({ labId: this.labId, rev: outcome.rev, writer: this.writer });
    return 'saved';
  }

  /** The learner keeps this tab's version: it is written over the other tab's, knowingly. */
  async keepMine(record: Omit<LabProgress, 'rev'>): Promise<SaveOutcome> {
    this.base = revOf(await this.store.get(this.labId));
    this.conflicted = false;
    this.touch();
    return this.save(record);
  }

  /** The learner takes the other tab's version: the stored record, which the caller loads (then `loaded`). */
  async takeTheirs(): Promise<unknown> {
    return this.store.get(this.labId);
  }

  close(): void {
    this.channel?.close();
  }

  private receive(m: SyncMessage): void {
    if (m.labId !== this.labId || m.writer === this.writer || m.rev <= this.base) return;
    if (this.dirty || this.conflicted) {
      // Unsaved work here: its next save would fail the compare-and-swap anyway; ask now.
      this.conflicted = true;
      this.onRemote('conflict');
    } else {
      this.onRemote('adopt');
    }
  }
}
