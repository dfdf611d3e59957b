/**
 * Saved progress for one lab: reading the record at start (and what to do with an old or broken one),
 * saving the page's work (debounced, and at once when the page is hidden), the two-tab protocol of
 * ProgressSync (adopt another tab's save, or settle a conflict), the quota notice, and export/import.
 * It sees the rest of the lab through `LabWork`: what to save and how to show a loaded record.
 */
import { Debounce } from './debounce';
import {
  ProgressStore,
  PROGRESS_VERSION,
  buildExport,
  classify,
  parseExport,
  storedDrawSeed,
  type JournalCoverage,
  type LabProgress,
  type Stored,
} from './progress';
import { ProgressSync, type RemoteChange, type SaveOutcome, type SyncChannel } from './progress-sync';
import type { LabUi } from './lab-ui';
import type { WriteAheadLog } from './write-ahead';
import type { HostSession } from './host-session';
import type {
  CheckSummary,
  HostState,
  JournalStep,
  LabInfo,
  LoadResult,
  LoadStart,
} from '../../runtime/protocol';

export const SAVE_DEBOUNCE_MS = 400;

const validCoverage = (j: unknown): JournalCoverage | undefined =>
  typeof j === 'object' &&
  j !== null &&
  typeof (j as JournalCoverage).writer === 'string' &&
  typeof (j as JournalCoverage).seq === 'number'
    ? (j as JournalCoverage)
    : undefined;

/**
 * The saved history followed by the replayed lines. A line enters the history when it is typed, before
 * it runs, so the last lines of a save can be the first of the tail (typed before the save asked for
 * the state, run after): the longest such overlap is counted once.
 */
export function mergeHistory(saved: readonly string[], replayed: readonly string[]): string[] {
  for (let k = Math.min(saved.length, replayed.length); k > 0; k--) {
    const overlap = saved.slice(saved.length - k).every((line, i) => line === replayed[i]);
    if (overlap) return [...saved, ...replayed.slice(k)];
  }
  return [...saved, ...replayed];
}

/** The page's work, as the rest of the lab holds it. */
export interface LabWork {
  lab(): LabInfo | undefined;
  /** Sends editor text the host has not seen. */
  flush(): Promise<void>;
  fileContents(): Record<string, string>;
  history(): string[];
  checks(): CheckSummary | null;
  hintLevel(): number;
  openFile(): string | undefined;
  /** Shows a loaded lab: files, history, prompt, hints, and the saved record's checks. */
  show(result: LoadResult, progress?: LabProgress): void;
  /** A clean terminal with a fresh prompt (after another record replaced the page's). */
  restartTerminal(): void;
  /** Runs the checks now (after a recovery). */
  checkNow(): Promise<void>;
  /** The cluster may have changed under the Network view. */
  clusterChanged(): void;
}

export type Notices = Pick<LabUi, 'say' | 'showNotice' | 'hideNotice' | 'mark' | 't'>;

export type ExportDownload = (name: string, data: unknown) => void;

/** What start shows: the loaded lab and the saved record, with the journal tail replayed on both. */
export interface Restored {
  readonly result: LoadResult;
  readonly progress?: LabProgress | undefined;
  /** Steps of the write-ahead journal ran again on the saved state. */
  readonly replayed: number;
}

export class LabProgressKeeper {
  private readonly sync: ProgressSync;
  private storageOk = true;
  /** The quota notice is up: saves keep being tried, the work stays in the page. */
  private quotaFull = false;
  /** While the learner decides what to do with an old record, nothing overwrites it. */
  private saveSuspended = false;
  private salvage: { journal: JournalStep[]; history: string[] } | undefined;
  /** The host state last saved (or loaded): where the watchdog restarts a stuck worker from. */
  lastState: HostState | undefined;
  /**
   * Labs with variants: the learner's draw seed, sent with every load so the host starts the variant
   * it draws. Made once (for a learner with nothing saved), then read from the saved record; Reset
   * keeps it, "new fault" replaces it.
   */
  drawSeed: number;
  private readonly timers = new Debounce();

  constructor(
    private readonly labId: string,
    private readonly host: Pick<HostSession, 'request'>,
    private readonly work: LabWork,
    private readonly ui: Notices,
    private readonly wal: WriteAheadLog,
    opts: {
      store: ProgressStore;
      channel: SyncChannel | undefined;
      writer: string;
      seed: number;
      download: ExportDownload;
      now?: () => Date;
    },
  ) {
    this.store = opts.store;
    this.drawSeed = opts.seed;
    this.download = opts.download;
    this.now = opts.now ?? (() => new Date());
    this.sync = new ProgressSync(
      this.store,
      labId,
      opts.writer,
      opts.channel,
      (change) => void this.remote(change),
    );
  }

  private readonly store: ProgressStore;
  private readonly download: ExportDownload;
  private readonly now: () => Date;

  get rev(): number {
    return this.sync.rev;
  }

  /** A change the learner made (file, command, hint, tab…): saved soon. */
  changed(): void {
    this.sync.touch();
    this.scheduleSave();
  }

  /** Something in the record changed that was not the learner's doing (new verdicts). */
  touch(): void {
    this.sync.touch();
  }

  scheduleSave(): void {
    this.timers.run('save', SAVE_DEBOUNCE_MS, () => void this.save());
  }

  cancelSave(): void {
    this.timers.cancelAll();
  }

  /** The load that the page's saved state starts from (the watchdog's restart). */
  loadParams(start: LoadStart) {
    return { labId: this.labId, seed: this.drawSeed, start };
  }

  async readStored(): Promise<Stored> {
    try {
      const raw = await this.store.get(this.labId);
      this.sync.loaded(raw);
      return classify(raw, this.labId);
    } catch {
      this.storageOk = false;
      this.ui.showNotice(this.ui.t('lab.storageOff'));
      return { kind: 'none' };
    }
  }

  /**
   * Loads the lab from what was stored, then replays the write-ahead journal's tail on it (what ran
   * or was edited after the last save). An unreadable record never leaves the lab blank.
   */
  async restore(stored: Stored): Promise<Restored> {
    const result = await this.loadFrom(stored);
    const saved = stored.kind === 'ok' ? stored.progress : undefined;
    // An old or broken record waits for the learner's choice; its journal, if any, is replayed then.
    const usable = stored.kind === 'none' || (saved !== undefined && this.lastState !== undefined);
    if (!usable) return { result, progress: saved, replayed: 0 };
    const tail = await this.wal.recover(this.sync.rev, validCoverage(saved?.journal));
    if (tail.length === 0) return { result, progress: saved, replayed: 0 };
    for (const step of tail) {
      if ('run' in step) await this.host.request('exec', { line: step.run });
      else if ('write' in step)
        await this.host.request('writeFile', { path: step.write, content: step.content });
      else if ('remove' in step) await this.host.request('removeFile', { path: step.remove });
    }
    // Loaded again from the state the replay reached: its files, prompt and history are the host's.
    const state = await this.host.request('state', {});
    const replayed = await this.host.request('load', this.loadParams({ kind: 'state', state }));
    this.lastState = state;
    this.sync.touch();
    const runs = tail.flatMap((step) => ('run' in step ? [step.run] : []));
    const progress = saved && { ...saved, history: mergeHistory(saved.history, runs) };
    return { result: replayed, progress, replayed: tail.length };
  }

  /** Loads the lab from what was stored; an unreadable record never leaves the lab blank. */
  async loadFrom(stored: Stored): Promise<LoadResult> {
    this.drawSeed = storedDrawSeed(stored) ?? this.drawSeed;
    const load = (start: LoadStart) => this.host.request('load', this.loadParams(start));
    if (stored.kind === 'ok') {
      try {
        const result = await load({ kind: 'state', state: stored.progress.state });
        this.lastState = stored.progress.state;
        return result;
      } catch (e) {
        this.offerRecovery(e instanceof Error ? e.message : String(e), {
          journal: [...stored.progress.state.journal],
          history: [...stored.progress.history],
        });
        return load({ kind: 'fresh' });
      }
    }
    if (stored.kind === 'old')
      this.offerRecovery(stored.reason, { journal: stored.journal, history: stored.history });
    if (stored.kind === 'corrupt')
      this.ui.showNotice(this.ui.t('lab.savedCorrupt', { reason: stored.reason }));
    return load({ kind: 'fresh' });
  }

  private offerRecovery(reason: string, salvage: { journal: JournalStep[]; history: string[] }): void {
    this.salvage = salvage;
    this.saveSuspended = true;
    this.ui.showNotice(this.ui.t('lab.savedOld', { reason }), [
      { label: this.ui.t('lab.migrate'), run: () => void this.recover() },
      {
        label: this.ui.t('lab.startOver'),
        run: () => {
          this.saveSuspended = false;
          this.salvage = undefined;
          void this.store.delete(this.labId).catch(() => {});
          this.sync.loaded(undefined);
          this.changed();
        },
      },
    ]);
  }

  /** Replays an old record's journal on the current engine (the learner chose "migrate"). */
  async recover(): Promise<void> {
    const salvage = this.salvage;
    if (!salvage) return;
    const result = await this.host.request(
      'load',
      this.loadParams({ kind: 'replay', journal: salvage.journal }),
    );
    this.work.show(salvage.history.length > 0 ? { ...result, history: salvage.history } : result);
    this.saveSuspended = false;
    this.salvage = undefined;
    this.work.restartTerminal();
    this.ui.say(this.ui.t('lab.migrated'));
    await this.work.checkNow();
    this.sync.touch();
    await this.save();
  }

  /** After a Reset: whatever the learner was deciding about an old record is moot. */
  resumeSaving(): void {
    this.saveSuspended = false;
    this.ui.hideNotice();
  }

  /** This tab's whole progress as a record (without `rev`, which the store assigns). */
  async currentRecord(lab: LabInfo): Promise<Omit<LabProgress, 'rev'>> {
    return (await this.snapshotRecord(lab)).record;
  }

  /** The record, and the last journal step its state holds (everything posted before it was asked). */
  private async snapshotRecord(lab: LabInfo): Promise<{ record: Omit<LabProgress, 'rev'>; covered: number }> {
    await this.work.flush();
    let covered = 0;
    const state = await this.host.request('state', {}, { posted: () => (covered = this.wal.covered()) });
    this.lastState = state;
    const record: Omit<LabProgress, 'rev'> = {
      version: PROGRESS_VERSION,
      labId: this.labId,
      labVersion: lab.version,
      files: this.work.fileContents(),
      state,
      history: this.work.history(),
      checks: this.work.checks(),
      hintLevel: this.work.hintLevel(),
      openFile: this.work.openFile(),
      updatedAt: this.now().toISOString(),
      ...(lab.variant ? { drawSeed: this.drawSeed } : {}),
      journal: this.wal.coverage(covered),
    };
    return { record, covered };
  }

  async save(): Promise<void> {
    const lab = this.work.lab();
    if (!this.storageOk || this.saveSuspended || !lab || !this.sync.dirty || this.sync.inConflict) return;
    try {
      const { record, covered } = await this.snapshotRecord(lab);
      await this.saved(await this.sync.save(record), record.updatedAt, covered);
    } catch {
      // the host did not answer (the watchdog is on it): the next change tries again
    }
  }

  private async saved(outcome: SaveOutcome, at: string, covered: number): Promise<void> {
    if (outcome === 'saved') {
      // The journal steps the record now holds leave the tail; the rest build on the new revision.
      await this.wal.saved(this.sync.rev, covered);
      this.ui.mark('saved', at);
      this.ui.mark('rev', String(this.sync.rev));
      if (this.quotaFull) {
        this.quotaFull = false;
        this.ui.mark('storage', undefined);
        this.ui.hideNotice();
      }
    } else if (outcome === 'quota' && !this.quotaFull) {
      this.quotaFull = true;
      this.ui.mark('storage', 'full');
      this.ui.showNotice(this.ui.t('lab.quotaFull'), [
        { label: this.ui.t('lab.exportNow'), run: () => void this.exportAll() },
      ]);
    } else if (outcome === 'conflict') {
      this.showConflict();
    }
  }

  // ---- other tabs -------------------------------------------------------------------------------

  private async remote(change: RemoteChange): Promise<void> {
    if (change === 'conflict') {
      this.showConflict();
      return;
    }
    await this.adopt(await this.store.get(this.labId));
    this.ui.say(this.ui.t('lab.otherTabUpdated'));
  }

  private showConflict(): void {
    this.ui.mark('conflict', 'true');
    this.ui.showNotice(this.ui.t('lab.conflict'), [
      {
        label: this.ui.t('lab.conflictTheirs'),
        run: () =>
          void this.sync.takeTheirs().then(async (raw) => {
            await this.adopt(raw);
            this.ui.say(this.ui.t('lab.otherTabUpdated'));
          }),
      },
      { label: this.ui.t('lab.conflictMine'), run: () => void this.keepMine() },
    ]);
  }

  private async keepMine(): Promise<void> {
    const lab = this.work.lab();
    if (!lab) return;
    this.ui.mark('conflict', undefined);
    const { record, covered } = await this.snapshotRecord(lab);
    await this.saved(await this.sync.keepMine(record), record.updatedAt, covered);
  }

  /** Shows a record another tab saved: its files, cluster, history, checks and hints. */
  private async adopt(raw: unknown): Promise<void> {
    const stored = classify(raw, this.labId);
    if (stored.kind !== 'ok') return;
    this.drawSeed = storedDrawSeed(stored) ?? this.drawSeed;
    const result = await this.host.request(
      'load',
      this.loadParams({ kind: 'state', state: stored.progress.state }),
    );
    this.work.show(result, stored.progress);
    this.lastState = stored.progress.state;
    this.sync.loaded(raw);
    await this.wal.rebase(this.sync.rev);
    this.ui.mark('conflict', undefined);
    this.ui.hideNotice();
    this.work.restartTerminal();
    this.work.clusterChanged();
    this.ui.mark('rev', String(this.sync.rev));
  }

  // ---- export, import ---------------------------------------------------------------------------

  async exportAll(): Promise<void> {
    await this.save();
    const stored = this.storageOk ? await this.store.all().catch(() => []) : [];
    // With the quota full (or a conflict) the page holds work the store does not: export the page's.
    const lab = this.work.lab();
    const mine =
      lab && (this.quotaFull || this.sync.dirty)
        ? [{ ...(await this.currentRecord(lab)), rev: this.sync.rev }]
        : [];
    const records = [
      ...stored.filter((r) => !(mine.length > 0 && (r as { labId?: unknown }).labId === this.labId)),
      ...mine,
    ];
    this.download(`packetpath-progress-${this.now().toISOString().slice(0, 10)}.json`, buildExport(records));
  }

  async importText(text: string): Promise<void> {
    try {
      const entries = parseExport(text);
      for (const { record } of entries) await this.store.put(record as Record<string, unknown>);
      this.ui.say(this.ui.t('lab.imported', { count: entries.length }));
      const mine = entries.find((e) => e.labId === this.labId);
      if (mine) {
        this.sync.loaded(mine.record);
        const stored = classify(mine.record, this.labId);
        const result = await this.loadFrom(stored);
        await this.wal.rebase(this.sync.rev);
        this.work.show(result, stored.kind === 'ok' ? stored.progress : undefined);
        this.work.restartTerminal();
      }
    } catch (e) {
      this.ui.say(this.ui.t('lab.importFailed', { reason: e instanceof Error ? e.message : String(e) }));
    }
  }
}
