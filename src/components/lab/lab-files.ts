/**
 * The lab's files as the page holds them: the learner's edits land here first and reach the host a
 * moment later (debounced), so typing does not send a write per key. Anything that reads the host's
 * view of the files (a command, a check, a save, validation) calls `flush` first. A write the host never
 * took is not lost: the file is in `files`, which a watchdog restart writes over the new worker.
 */
import { Debounce } from './debounce';
import type { HostSession } from './host-session';

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
  private readonly pending = new Map<string, string>();
  private readonly timers = new Debounce();

  constructor(
    private readonly host: Pick<HostSession, 'request'>,
    private readonly onChange: (change: FileChange) => void,
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
    this.pending.set(path, content);
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

  /** Sends the edits the host has not seen yet. */
  async flush(): Promise<void> {
    const writes = [...this.pending];
    this.pending.clear();
    this.timers.cancel('writes');
    await Promise.all(writes.map(([path, content]) => this.host.request('writeFile', { path, content })));
  }

  /** Drops the edits not yet sent (a Reset replaces every file). */
  dropPending(): void {
    this.pending.clear();
    this.timers.cancelAll();
  }
}
