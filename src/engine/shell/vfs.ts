/**
 * The files a session sees. On the host the lab's files (`LabFiles`) appear under the learner's home
 * directory and nothing else exists; in a pod or node the files the kubelet (or the node) provides
 * appear at their real paths, with the session's own writes layered on top. Paths are plain absolute
 * strings; `bindFiles` gives commands a view relative to the shell's working directory.
 */
import type { LabFiles } from './lab-files.ts';
import type { FileError, SessionFiles, WritableLayer } from './types.ts';

/** Absolute-path file operations; `bindFiles` turns one into the `SessionFiles` commands get. */
export interface Filesystem {
  stat(path: string): 'file' | 'dir' | undefined;
  read(path: string): { readonly content: string } | { readonly error: FileError };
  write(path: string, content: string, append: boolean): FileError | undefined;
  remove(path: string): FileError | undefined;
  mkdir(path: string): FileError | undefined;
  list(path: string): readonly string[] | FileError;
}

const ERROR_TEXT: Record<FileError, string> = {
  ENOENT: 'No such file or directory',
  EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory',
  EACCES: 'Permission denied',
  EROFS: 'Read-only file system',
  EFBIG: 'File too large',
  ENOTEMPTY: 'Directory not empty',
  EEXIST: 'File exists',
};

/** strerror() wording, as coreutils and bash print it after `name: path: `. */
export function fileErrorText(error: FileError): string {
  return ERROR_TEXT[error];
}

/** Resolves `path` against `cwd` into a normalised absolute path (`..` stops at `/`). */
export function resolvePath(cwd: string, path: string): string {
  const abs = path.startsWith('/') ? path : `${cwd}/${path}`;
  const parts: string[] = [];
  for (const seg of abs.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return `/${parts.join('/')}`;
}

export function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

export function baseName(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1) || '/';
}

export function bindFiles(fs: Filesystem, cwd: string, home: string): SessionFiles {
  const abs = (p: string) => resolvePath(cwd, p);
  return {
    cwd,
    home,
    resolve: abs,
    stat: (p) => fs.stat(abs(p)),
    read: (p) => fs.read(abs(p)),
    write: (p, content, opts) => fs.write(abs(p), content, opts?.append ?? false),
    remove: (p) => fs.remove(abs(p)),
    mkdir: (p) => fs.mkdir(abs(p)),
    list: (p) => fs.list(abs(p)),
  };
}

/** `/dev/null` (and friends) exist in every session: reads are empty, writes vanish. */
export function withDevices(fs: Filesystem): Filesystem {
  const devices = new Set(['/dev/null', '/dev/zero', '/dev/tty']);
  return {
    stat: (p) => (devices.has(p) ? 'file' : p === '/dev' ? 'dir' : fs.stat(p)),
    read: (p) => (devices.has(p) ? { content: '' } : fs.read(p)),
    write: (p, c, a) => (devices.has(p) ? undefined : fs.write(p, c, a)),
    remove: (p) => (devices.has(p) ? 'EACCES' : fs.remove(p)),
    mkdir: (p) => (devices.has(p) || p === '/dev' ? 'EEXIST' : fs.mkdir(p)),
    list: (p) => (p === '/dev' ? [...devices].map(baseName).sort() : fs.list(p)),
  };
}

function within(path: string, dir: string): boolean {
  return dir === '/' ? path !== '/' : path.startsWith(`${dir}/`);
}

/** Names directly under `dir` among the given absolute paths (files and the directories they imply). */
function childNames(dir: string, paths: Iterable<string>): string[] {
  const names = new Set<string>();
  const prefix = dir === '/' ? '/' : `${dir}/`;
  for (const p of paths) {
    if (!p.startsWith(prefix) || p === prefix) continue;
    const rest = p.slice(prefix.length);
    names.add(rest.split('/')[0]!);
  }
  return [...names].sort();
}

/**
 * A LabFiles that keeps real directories (the Node CLI's working directory on disk). The host
 * filesystem asks it directly instead of deriving directories from file paths. Paths are relative.
 */
export interface DirectoryAwareFiles {
  isDirectory(rel: string): boolean;
  /** Names directly inside a directory, sorted; undefined when it is not a directory. */
  entries(rel: string): readonly string[] | undefined;
  makeDirectory(rel: string): FileError | undefined;
  removeDirectory(rel: string): FileError | undefined;
}

function directoryAware(files: LabFiles): DirectoryAwareFiles | undefined {
  const f = files as Partial<DirectoryAwareFiles>;
  return typeof f.isDirectory === 'function' && typeof f.entries === 'function'
    ? (f as DirectoryAwareFiles)
    : undefined;
}

/**
 * The learner's workstation: LabFiles under `home` (relative LabFiles paths), the directories that
 * lead to it, and the directories `mkdir` made (kept by the shell, since LabFiles stores files only).
 * Everything outside the home directory is out of bounds for writes (`Permission denied`), except
 * `/tmp`: a scratch directory kept in memory for the session (not lab files; gone on reload), where
 * `kubectl edit` puts the file it hands to the editor, as on a real workstation.
 */
export class LabFilesystem implements Filesystem {
  private readonly files: LabFiles;
  private readonly home: string;
  private readonly dirs: Set<string>;
  private readonly disk: DirectoryAwareFiles | undefined;
  private readonly tmp = new Map<string, string>();
  private readonly tmpDirs = new Set<string>([TMP]);

  constructor(files: LabFiles, home: string, dirs: Set<string>) {
    this.files = files;
    this.home = home;
    this.dirs = dirs;
    this.disk = directoryAware(files);
  }

  private rel(path: string): string | undefined {
    if (path === this.home) return '';
    return within(path, this.home) ? path.slice(this.home.length + 1) : undefined;
  }

  stat(path: string): 'file' | 'dir' | undefined {
    if (path === '/' || within(this.home, path)) return 'dir';
    if (isTmp(path)) {
      if (this.tmp.has(path)) return 'file';
      return this.tmpDirs.has(path) ? 'dir' : undefined;
    }
    const rel = this.rel(path);
    if (rel === undefined) return undefined;
    if (rel === '') return 'dir';
    if (this.files.has(rel)) return 'file';
    if (this.disk) return this.disk.isDirectory(rel) ? 'dir' : undefined;
    if (this.dirs.has(rel) || this.files.list().some((f) => f.startsWith(`${rel}/`))) return 'dir';
    return undefined;
  }

  read(path: string): { content: string } | { error: FileError } {
    const kind = this.stat(path);
    if (kind === 'dir') return { error: 'EISDIR' };
    const rel = this.rel(path);
    const content = isTmp(path) ? this.tmp.get(path) : rel === undefined ? undefined : this.files.read(rel);
    return content === undefined ? { error: this.parentError(path) ?? 'ENOENT' } : { content };
  }

  write(path: string, content: string, append: boolean): FileError | undefined {
    const rel = this.rel(path);
    if (this.stat(path) === 'dir') return 'EISDIR';
    if (isTmp(path)) {
      if (this.stat(parentOf(path)) !== 'dir') return this.parentError(path);
      this.tmp.set(path, append ? (this.tmp.get(path) ?? '') + content : content);
      return undefined;
    }
    if (rel === undefined) return this.stat(parentOf(path)) === 'dir' ? 'EACCES' : 'ENOENT';
    const parentErr = this.parentError(path);
    if (parentErr) return parentErr;
    const text = append ? (this.files.read(rel) ?? '') + content : content;
    return this.files.write(rel, text) === undefined ? undefined : 'EFBIG';
  }

  remove(path: string): FileError | undefined {
    const kind = this.stat(path);
    if (isTmp(path) && kind !== undefined && path !== TMP) {
      if (kind === 'file') this.tmp.delete(path);
      else if (this.tmpChildren(path).length > 0) return 'ENOTEMPTY';
      else this.tmpDirs.delete(path);
      return undefined;
    }
    if (kind === 'dir') {
      const rel = this.rel(path);
      if (rel === undefined || rel === '') return 'EACCES';
      if (this.disk) return this.disk.removeDirectory(rel);
      if (this.files.list().some((f) => f.startsWith(`${rel}/`))) return 'ENOTEMPTY';
      this.dirs.delete(rel);
      return undefined;
    }
    if (kind === undefined) return 'ENOENT';
    this.files.remove(this.rel(path)!);
    return undefined;
  }

  mkdir(path: string): FileError | undefined {
    if (this.stat(path) !== undefined) return 'EEXIST';
    const rel = this.rel(path);
    if (this.stat(parentOf(path)) !== 'dir') return 'ENOENT';
    if (isTmp(path)) {
      this.tmpDirs.add(path);
      return undefined;
    }
    if (rel === undefined) return 'EACCES';
    if (this.disk) return this.disk.makeDirectory(rel);
    this.dirs.add(rel);
    return undefined;
  }

  list(path: string): readonly string[] | FileError {
    const kind = this.stat(path);
    if (kind === undefined) return 'ENOENT';
    if (kind === 'file') return 'ENOTDIR';
    if (isTmp(path)) return this.tmpChildren(path);
    const rel = this.rel(path);
    if (rel === undefined) return childNames(path, [this.home, TMP]);
    if (this.disk) return this.disk.entries(rel) ?? 'ENOTDIR';
    const all = [...this.files.list(), ...this.dirs].map((p) => `${this.home}/${p}`);
    return childNames(path, all);
  }

  private parentError(path: string): FileError | undefined {
    const parent = this.stat(parentOf(path));
    return parent === 'dir' ? undefined : parent === 'file' ? 'ENOTDIR' : 'ENOENT';
  }

  private tmpChildren(dir: string): string[] {
    return childNames(dir, [...this.tmp.keys(), ...this.tmpDirs]);
  }
}

const TMP = '/tmp';

/**
 * How a binary's content starts (the ELF magic), so `cat` shows what a real one begins with and the
 * shell knows the file is a program, never a script to read.
 */
export const ELF_MAGIC = '\x7fELF\x02\x01\x01';

export function isElfBinary(content: string): boolean {
  return content.startsWith(ELF_MAGIC);
}

function isTmp(path: string): boolean {
  return path === TMP || within(path, TMP);
}

/** Directories every Linux container image has, whatever its files. */
const STANDARD_DIRS = ['/bin', '/dev', '/etc', '/home', '/proc', '/root', '/sys', '/tmp', '/usr', '/var'];

/**
 * A container's or node's filesystem: generated base files (read fresh on each access, so
 * `/etc/resolv.conf` follows the cluster) with the session's writes on top (`null` = deleted).
 * Paths under `readOnly` prefixes refuse writes, like the kubelet's read-only projected volumes.
 */
export class OverlayFilesystem implements Filesystem {
  private readonly base: () => Readonly<Record<string, string>>;
  private readonly overlay: Map<string, string | null>;
  private readonly dirs: Set<string>;
  private readonly readOnly: readonly string[];
  /** Empty directories of the base (a node's `/boot`, `/srv`): files alone cannot show them. */
  private readonly baseDirs: () => readonly string[];

  constructor(
    base: () => Readonly<Record<string, string>>,
    overlay: Map<string, string | null>,
    dirs: Set<string>,
    readOnly: readonly string[] = [],
    baseDirs: () => readonly string[] = () => [],
  ) {
    this.base = base;
    this.overlay = overlay;
    this.dirs = dirs;
    this.readOnly = readOnly;
    this.baseDirs = baseDirs;
  }

  private fileContent(path: string): string | undefined {
    const o = this.overlay.get(path);
    if (o === null) return undefined;
    return o ?? this.base()[path];
  }

  private allFiles(): string[] {
    const out = new Set(Object.keys(this.base()));
    for (const [p, v] of this.overlay) {
      if (v === null) out.delete(p);
      else out.add(p);
    }
    return [...out];
  }

  stat(path: string): 'file' | 'dir' | undefined {
    if (path === '/' || STANDARD_DIRS.includes(path) || this.dirs.has(path)) return 'dir';
    if (this.fileContent(path) !== undefined) return 'file';
    if (this.baseDirs().includes(path)) return 'dir';
    return this.allFiles().some((f) => within(f, path)) ? 'dir' : undefined;
  }

  read(path: string): { content: string } | { error: FileError } {
    const kind = this.stat(path);
    if (kind === 'dir') return { error: 'EISDIR' };
    const content = this.fileContent(path);
    return content === undefined ? { error: this.parentError(path) ?? 'ENOENT' } : { content };
  }

  write(path: string, content: string, append: boolean): FileError | undefined {
    if (this.stat(path) === 'dir') return 'EISDIR';
    const parentErr = this.parentError(path);
    if (parentErr) return parentErr;
    if (this.readOnly.some((d) => path === d || within(path, d))) return 'EROFS';
    this.overlay.set(path, append ? (this.fileContent(path) ?? '') + content : content);
    return undefined;
  }

  remove(path: string): FileError | undefined {
    const kind = this.stat(path);
    if (kind === undefined) return 'ENOENT';
    if (this.readOnly.some((d) => path === d || within(path, d))) return 'EROFS';
    if (kind === 'dir') {
      if (this.allFiles().some((f) => within(f, path)) || this.childDirs(path).length > 0) return 'ENOTEMPTY';
      if (!this.dirs.delete(path)) return 'EACCES';
      return undefined;
    }
    this.overlay.set(path, null);
    return undefined;
  }

  mkdir(path: string): FileError | undefined {
    if (this.stat(path) !== undefined) return 'EEXIST';
    const parentErr = this.parentError(path);
    if (parentErr) return parentErr;
    this.dirs.add(path);
    return undefined;
  }

  list(path: string): readonly string[] | FileError {
    const kind = this.stat(path);
    if (kind === undefined) return 'ENOENT';
    if (kind === 'file') return 'ENOTDIR';
    return childNames(path, [...this.allFiles(), ...STANDARD_DIRS, ...this.baseDirs(), ...this.dirs]);
  }

  private childDirs(path: string): string[] {
    return [...STANDARD_DIRS, ...this.baseDirs(), ...this.dirs].filter((d) => within(d, path));
  }

  private parentError(path: string): FileError | undefined {
    const parent = this.stat(parentOf(path));
    return parent === 'dir' ? undefined : parent === 'file' ? 'ENOTDIR' : 'ENOENT';
  }
}

/**
 * An OverlayFilesystem whose writes live in a container's writable layer instead of one session:
 * each operation reads the layer as it is now (another exec may have written since) and a change
 * saves it back.
 */
export function layeredFilesystem(
  base: () => Readonly<Record<string, string>>,
  layer: WritableLayer,
  readOnly: readonly string[],
  baseDirs: () => readonly string[] = () => [],
): Filesystem {
  const open = () => {
    const { files, dirs } = layer.read();
    return { overlay: new Map(Object.entries(files)), dirs: new Set(dirs) };
  };
  const view = (s: ReturnType<typeof open>) =>
    new OverlayFilesystem(base, s.overlay, s.dirs, readOnly, baseDirs);
  const change = (op: (fs: OverlayFilesystem) => FileError | undefined): FileError | undefined => {
    const s = open();
    const error = op(view(s));
    if (!error) layer.write({ files: Object.fromEntries(s.overlay), dirs: [...s.dirs] });
    return error;
  };
  return {
    stat: (p) => view(open()).stat(p),
    read: (p) => view(open()).read(p),
    list: (p) => view(open()).list(p),
    write: (p, c, append) => change((fs) => fs.write(p, c, append)),
    remove: (p) => change((fs) => fs.remove(p)),
    mkdir: (p) => change((fs) => fs.mkdir(p)),
  };
}
