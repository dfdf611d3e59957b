/**
 * The CLI's files: the real working directory instead of an in-memory lab folder. `kubectl apply -f`,
 * `cat`, `ls` read what is on disk now, `>` writes there, so the CLI works on the learner's own
 * manifests. Paths stay confined to the working directory (`..` cannot climb out), and the cluster
 * snapshot keeps no copy of the files (`toJSON()` is empty): the state file holds the cluster only.
 */
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileBytes, fileContent, LabFiles, MAX_FILE_BYTES, normalisePath } from '../../engine/index.ts';

type FileError = 'ENOENT' | 'EISDIR' | 'ENOTDIR' | 'EACCES' | 'EROFS' | 'EFBIG' | 'ENOTEMPTY' | 'EEXIST';

/** Directory walks (`list()`, `apply -f DIR`) stop here, so a huge tree cannot stall the CLI. */
const MAX_WALK_ENTRIES = 5000;
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

function errno(e: unknown): FileError {
  const code = (e as { code?: string }).code;
  switch (code) {
    case 'ENOENT':
    case 'EISDIR':
    case 'ENOTDIR':
    case 'EACCES':
    case 'EROFS':
    case 'EFBIG':
    case 'ENOTEMPTY':
    case 'EEXIST':
      return code;
    case 'EPERM':
      return 'EACCES';
    default:
      return 'EACCES';
  }
}

const TEXT: Record<FileError, string> = {
  ENOENT: 'No such file or directory',
  EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory',
  EACCES: 'Permission denied',
  EROFS: 'Read-only file system',
  EFBIG: 'File too large',
  ENOTEMPTY: 'Directory not empty',
  EEXIST: 'File exists',
};

export class DiskLabFiles extends LabFiles {
  private readonly root: string;

  constructor(root: string) {
    super({});
    this.root = root;
  }

  private abs(path: string): string | undefined {
    const p = normalisePath(path);
    return p === undefined ? undefined : join(this.root, p);
  }

  private kind(path: string): 'file' | 'dir' | undefined {
    const a = this.abs(path);
    if (a === undefined) return undefined;
    try {
      const st = statSync(a);
      return st.isFile() ? 'file' : st.isDirectory() ? 'dir' : undefined;
    } catch {
      return undefined;
    }
  }

  override read(path: string): string | undefined {
    const a = this.abs(path);
    if (a === undefined || this.kind(path) !== 'file') return undefined;
    try {
      if (statSync(a).size > MAX_FILE_BYTES) return undefined;
      // A file with a NUL byte (a pcap) is binary: the engine holds it as a byte string.
      return fileContent(readFileSync(a));
    } catch {
      return undefined;
    }
  }

  override has(path: string): boolean {
    return this.kind(path) === 'file';
  }

  override write(path: string, content: string): string | undefined {
    const p = normalisePath(path);
    if (p === undefined || p === '') return `${path}: ${TEXT.ENOENT}`;
    if (content.length > MAX_FILE_BYTES) return `${path}: ${TEXT.EFBIG}`;
    try {
      writeFileSync(join(this.root, p), fileBytes(content));
    } catch (e) {
      return `${path}: ${TEXT[errno(e)]}`;
    }
    this.changes.emit('change', { path: p, content });
    return undefined;
  }

  override remove(path: string): boolean {
    const p = normalisePath(path);
    if (p === undefined || this.kind(p) !== 'file') return false;
    try {
      unlinkSync(join(this.root, p));
    } catch {
      return false;
    }
    this.changes.emit('change', { path: p, content: undefined });
    return true;
  }

  override list(): string[] {
    return this.walk('');
  }

  override listDir(dir: string): string[] | undefined {
    const d = normalisePath(dir);
    if (d === undefined) return undefined;
    if (d !== '' && this.kind(d) !== 'dir') return undefined;
    return this.walk(d);
  }

  /** The files live on disk; a snapshot does not carry them. */
  override toJSON(): Record<string, string> {
    return {};
  }

  isDirectory(rel: string): boolean {
    return this.kind(rel) === 'dir';
  }

  entries(rel: string): readonly string[] | undefined {
    const a = this.abs(rel);
    if (a === undefined || this.kind(rel) !== 'dir') return undefined;
    try {
      return readdirSync(a).sort();
    } catch {
      return undefined;
    }
  }

  makeDirectory(rel: string): FileError | undefined {
    const a = this.abs(rel);
    if (a === undefined) return 'EACCES';
    try {
      mkdirSync(a);
      return undefined;
    } catch (e) {
      return errno(e);
    }
  }

  removeDirectory(rel: string): FileError | undefined {
    const a = this.abs(rel);
    if (a === undefined || rel === '') return 'EACCES';
    try {
      rmdirSync(a);
      return undefined;
    } catch (e) {
      return errno(e);
    }
  }

  private walk(start: string): string[] {
    const out: string[] = [];
    const queue = [start];
    while (queue.length > 0 && out.length < MAX_WALK_ENTRIES) {
      const dir = queue.shift()!;
      let names: string[];
      try {
        names = readdirSync(join(this.root, dir)).sort();
      } catch {
        continue;
      }
      for (const name of names) {
        const rel = dir === '' ? name : `${dir}/${name}`;
        const kind = this.kind(rel);
        if (kind === 'file') out.push(rel);
        else if (kind === 'dir' && !SKIPPED_DIRS.has(name)) queue.push(rel);
        if (out.length >= MAX_WALK_ENTRIES) break;
      }
    }
    return out.sort();
  }
}
