/**
 * The lab's files as the page holds them: the learner's edits land here first and reach the host a
 * moment later (debounced), so typing does not send a write per key. Anything that reads the host's
 * view of the files (a command, a check, a save, validation) calls `flush` first. A write the host never
 * took is not lost: the file is in `files`, which a watchdog restart writes over the new worker.
 */
import { Debounce } from './debounce';
import type { HostSession } from './host-session';
import type { JournalStep } from '../../runtime/protocol';

/** The write-ahead journal as the files use it (write-ahead.ts). */
export interface StepJournal {
  /** Resolves with the step's number once it is stored: only then may the host get it. */
  append(step: JournalStep): Promise<number>;
  posted(seq: number): void;
}

export const WRITE_DEBOUNCE_MS = 150;

export type FileChange =
  | { readonly by: 'learner'; readonly path: string }
  /** A command changed (content) or removed (null) a file; `listChanged`: a file came or went. */
  | {
      readonly by: 'host';
      readonly path: string;
      readonly content: string | null;
      readonly listChanged: boolean;
    };

export class LabFiles {
  private files = new Map<string, string>();
  /** The file open in the editor. */
  current: string | undefined;
  /** Edits the host has not seen, each with its journal entry (stored, or being stored). */
  private readonly pending = new Map<string, { content: string; journaled: Promise<number> }>();
  private readonly timers = new Debounce();

  constructor(
    private readonly host: Pick<HostSession, 'request'>,
    private readonly onChange: (change: FileChange) => void,
    private readonly journal: StepJournal = { append: async () => 0, posted: () => {} },
  ) {}

  /** Replaces every file (a load): the open file is kept when it still exists. */
  setAll(files: Readonly<Record<string, string>>, open?: string): void {
    this.files = new Map(Object.entries(files));
    this.current = open !== undefined && this.files.has(open) ? open : undefined;
  }

  get(path: string): string | undefined {
    return this.files.get(path);
  }

  has(path: string): boolean {
    return this.files.has(path);
  }

  paths(): string[] {
    return [...this.files.keys()].sort();
  }

  /** A read-only view, for the watchdog's restart and saved progress. */
  get map(): ReadonlyMap<string, string> {
    return this.files;
  }

  toRecord(): Record<string, string> {
    return Object.fromEntries(this.files);
  }

  /** The open file, or the first manifest, or the first file. */
  openOrDefault(): string | undefined {
    if (!this.current || !this.files.has(this.current)) {
      const paths = this.paths();
      this.current = paths.find((p) => /\.ya?ml$/.test(p)) ?? paths[0];
    }
    return this.current;
  }

  /** The learner typed in the editor. */
  edited(path: string, content: string): void {
    this.files.set(path, content);
    this.pending.set(path, { content, journaled: this.journal.append({ write: path, content }) });
    this.timers.run('writes', WRITE_DEBOUNCE_MS, () => void this.flush().catch(() => {}));
    this.onChange({ by: 'learner', path });
  }

  /** The host changed a file (`> file`, `rm`, `sed -i`), or wrote one the UI asked for. */
  fromHost(path: string, content: string | null): void {
    const known = this.files.has(path);
    if (content === null) {
      this.files.delete(path);
      if (this.current === path) this.current = undefined;
    } else {
      this.files.set(path, content);
    }
    this.onChange({ by: 'host', path, content, listChanged: known !== (content !== null) });
  }

  /** Sends the edits the host has not seen yet, each once its journal entry is stored. */
  async flush(): Promise<void> {
    const writes = [...this.pending];
    this.pending.clear();
    this.timers.cancel('writes');
    await Promise.all(
      writes.map(async ([path, { content, journaled }]) => {
        const seq = await journaled;
        await this.host.request('writeFile', { path, content }, { posted: () => this.journal.posted(seq) });
      }),
    );
  }

  /** Writes a file on the host at once, journaled first (the solution's files). */
  async write(path: string, content: string): Promise<void> {
    const seq = await this.journal.append({ write: path, content });
    await this.host.request('writeFile', { path, content }, { posted: () => this.journal.posted(seq) });
    this.fromHost(path, content);
  }

  /** Drops the edits not yet sent (a Reset replaces every file). */
  dropPending(): void {
    this.pending.clear();
    this.timers.cancelAll();
  }
}
