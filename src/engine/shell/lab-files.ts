/**
 * The lab's editable files (manifests and notes), shared by the editor, the shell (`cat`, `ls`, `>`)
 * and `kubectl apply -f`. Paths are relative to the lab's working directory; `./` and duplicate
 * slashes are normalised, and `..` may not climb out of it.
 */
import { Emitter } from '../util/emitter.ts';

export interface FileChange {
  readonly path: string;
  /** undefined when the file was removed. */
  readonly content: string | undefined;
}

/** A file bigger than this is refused, so a runaway redirect cannot exhaust the browser's memory. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

export class LabFiles {
  private readonly files = new Map<string, string>();
  readonly changes = new Emitter<{ change: FileChange }>();

  constructor(initial: Record<string, string> = {}) {
    for (const [path, content] of Object.entries(initial))
      this.files.set(normalisePath(path) ?? path, content);
  }

  read(path: string): string | undefined {
    const p = normalisePath(path);
    return p === undefined ? undefined : this.files.get(p);
  }

  has(path: string): boolean {
    return this.read(path) !== undefined;
  }

  /** Writes a file; returns an error text (as a shell would print it) instead of throwing. */
  write(path: string, content: string): string | undefined {
    const p = normalisePath(path);
    if (p === undefined || p === '') return `${path}: No such file or directory`;
    if (content.length > MAX_FILE_BYTES) return `${path}: File too large`;
    this.files.set(p, content);
    this.changes.emit('change', { path: p, content });
    return undefined;
  }

  remove(path: string): boolean {
    const p = normalisePath(path);
    if (p === undefined || !this.files.delete(p)) return false;
    this.changes.emit('change', { path: p, content: undefined });
    return true;
  }

  /** All paths, sorted. */
  list(): string[] {
    return [...this.files.keys()].sort();
  }

  /** Files directly under a directory (`''` is the working directory), for `ls` and `apply -f DIR`. */
  listDir(dir: string): string[] | undefined {
    const d = normalisePath(dir);
    if (d === undefined) return undefined;
    const prefix = d === '' ? '' : `${d}/`;
    const out = this.list().filter((p) => p.startsWith(prefix));
    if (d !== '' && out.length === 0) return undefined;
    return out;
  }

  toJSON(): Record<string, string> {
    return Object.fromEntries(this.list().map((p) => [p, this.files.get(p)!]));
  }
}

/** Normalises a relative path; undefined when it escapes the working directory. */
export function normalisePath(path: string): string | undefined {
  const parts: string[] = [];
  for (const part of path.replace(/^\/+/, '').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}
