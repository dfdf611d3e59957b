/**
 * `tar` as the two images' families have it: GNU tar 1.34 (Debian, Ubuntu) and BusyBox's applet
 * (busybox, alpine, netshoot). `c` archives files and directories, `x` extracts, `t` lists; `f -` is
 * stdout/stdin, `-C DIR` changes directory first. That is what `kubectl cp` runs in a container
 * (`tar cf - PATH`, `tar -xmf - -C DIR`) and what a learner types to pack a capture. The two differ
 * in wording, in exit codes, and in padding (GNU fills the last 10240-byte record, BusyBox does not).
 * Compression (`z`, `j`, `J`) is answered honestly as not simulated.
 */
import type { CommandHandler, CommandIO, ExecResult, SessionFiles } from '../types.ts';
import { fileBytes, fileContent, fromBinaryString, toBinaryString } from '../../util/encoding.ts';
import { pack, unpack, type TarEntry } from '../../util/tar.ts';
import { fileErrorText } from '../vfs.ts';

export type TarFlavour = 'gnu' | 'busybox';

/** What BusyBox prints when no mode is given (its usage, as `tar` alone shows it). */
const BUSYBOX_USAGE = `BusyBox v1.37.0 (2024-09-26 21:31:42 UTC) multi-call binary.

Usage: tar c|x|t [-ZzJjahmvokO] [-f TARFILE] [-C DIR] [FILE]...

Create, extract, or list files from a tar file

\tc\tCreate
\tx\tExtract
\tt\tList
\t-f FILE\tName of TARFILE ('-' for stdin/out)
\t-C DIR\tChange to DIR before operation
\t-v\tVerbose
\t-O\tExtract to stdout
\t-m\tDon't restore mtime
\t-o\tDon't restore user:group
\t-k\tDon't replace existing files
\t-Z\t(De)compress using compress
\t-z\t(De)compress using gzip
\t-J\t(De)compress using xz
\t-j\t(De)compress using bzip2
\t--lzma\t(De)compress using lzma
\t-a\t(De)compress based on extension
\t-h\tFollow symlinks
\t--overwrite\t\tReplace existing files
\t--strip-components NUM\tNUM of leading components to strip
\t--no-recursion\t\tDon't descend in directories
\t--numeric-owner\t\tUse numeric user:group
\t--no-same-permissions\tDon't restore access permissions
\t--to-command COMMAND\tPipe files to COMMAND
`;

interface TarOptions {
  mode?: 'c' | 'x' | 't';
  file?: string;
  dir?: string;
  verbose: boolean;
  operands: string[];
}

const IGNORED_LONG = new Set(['--no-same-permissions', '--no-same-owner', '--touch', '--no-same-time']);

function parse(args: readonly string[]): TarOptions | { readonly error: string } {
  const o: TarOptions = { verbose: false, operands: [] };
  const rest = [...args];
  // The first word's letters are options even without a dash (`tar cf -`), as both tars read them.
  if (rest[0] !== undefined && !rest[0].startsWith('-')) rest[0] = `-${rest[0]}`;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a.startsWith('--')) {
      if (IGNORED_LONG.has(a)) continue;
      if (a.startsWith('--directory=')) o.dir = a.slice('--directory='.length);
      else if (a.startsWith('--file=')) o.file = a.slice('--file='.length);
      else return { error: `packetpath: tar ${a} is not simulated` };
      continue;
    }
    if (!a.startsWith('-') || a === '-') {
      o.operands.push(a);
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if (c === 'c' || c === 'x' || c === 't') o.mode = c;
      else if (c === 'v') o.verbose = true;
      else if (c === 'm' || c === 'p' || c === 'o') continue;
      else if (c === 'f' || c === 'C') {
        const value = a.slice(j + 1) || rest[++i];
        if (value === undefined) return { error: `tar: option requires an argument -- '${c}'` };
        if (c === 'f') o.file = value;
        else o.dir = value;
        break;
      } else return { error: `packetpath: tar -${c} is not simulated` };
    }
  }
  return o;
}

function absolute(files: SessionFiles, dir: string | undefined, path: string): string {
  return files.resolve(dir !== undefined && !path.startsWith('/') ? `${files.resolve(dir)}/${path}` : path);
}

/** Members under `path` in archive order: the directory, then what it holds, depth first. */
function collect(files: SessionFiles, abs: string, name: string, mtime: number, out: TarEntry[]): void {
  if (files.stat(abs) === 'dir') {
    out.push({ name: `${name}/`, type: 'dir', data: new Uint8Array(0), mtime });
    const children = files.list(abs);
    if (typeof children === 'string') return;
    for (const child of children)
      collect(files, `${abs === '/' ? '' : abs}/${child}`, `${name}/${child}`, mtime, out);
    return;
  }
  const r = files.read(abs);
  if ('content' in r) out.push({ name, type: 'file', data: fileBytes(r.content), mtime });
}

function create(o: TarOptions, files: SessionFiles, flavour: TarFlavour, now: number): ExecResult {
  let stderr = '';
  let failed = false;
  const entries: TarEntry[] = [];
  if (o.operands.length === 0) {
    return flavour === 'gnu'
      ? {
          stdout: '',
          stderr:
            "tar: Cowardly refusing to create an empty archive\nTry 'tar --help' or 'tar --usage' for more information.\n",
          exitCode: 2,
        }
      : { stdout: '', stderr: 'tar: empty archive\n', exitCode: 1 };
  }
  let warned = false;
  for (const operand of o.operands) {
    const abs = absolute(files, o.dir, operand);
    const name = operand.replace(/^\/+/, '').replace(/\/+$/, '') || '.';
    const leading = operand.startsWith('/');
    // GNU warns once before looking at the file; BusyBox only for a member it archives.
    if (leading && !warned && flavour === 'gnu') {
      stderr += "tar: Removing leading `/' from member names\n";
      warned = true;
    }
    if (files.stat(abs) === undefined) {
      stderr +=
        flavour === 'gnu'
          ? `tar: ${operand}: Cannot stat: No such file or directory\n`
          : `tar: ${operand}: No such file or directory\n`;
      failed = true;
      continue;
    }
    if (leading && !warned) {
      stderr += "tar: removing leading '/' from member names\n";
      warned = true;
    }
    collect(files, abs, name, Math.floor(now / 1000), entries);
  }
  const archive = pack(entries, flavour === 'gnu' ? 10240 : 512);
  if ('error' in archive) return { stdout: '', stderr: `${stderr}tar: ${archive.error}\n`, exitCode: 2 };
  if (failed)
    stderr +=
      flavour === 'gnu'
        ? 'tar: Exiting with failure status due to previous errors\n'
        : 'tar: error exit delayed from previous errors\n';
  const code = failed ? (flavour === 'gnu' ? 2 : 1) : 0;
  const data = toBinaryString(archive);
  if (o.file === undefined || o.file === '-') return { stdout: data, stderr, exitCode: code };
  const error = files.write(o.file, data);
  if (error)
    return {
      stdout: '',
      stderr: `${stderr}tar: ${o.file}: Cannot open: ${fileErrorText(error)}\n`,
      exitCode: 2,
    };
  return { stdout: '', stderr, exitCode: code };
}

function readArchive(o: TarOptions, io: CommandIO, files: SessionFiles): string | ExecResult {
  if (o.file === undefined || o.file === '-') return io.stdin;
  const r = files.read(o.file);
  if ('error' in r)
    return {
      stdout: '',
      stderr: `tar: ${o.file}: Cannot open: ${fileErrorText(r.error)}\ntar: Error is not recoverable: exiting now\n`,
      exitCode: 2,
    };
  return r.content;
}

function extractOrList(o: TarOptions, io: CommandIO, files: SessionFiles, flavour: TarFlavour): ExecResult {
  const raw = readArchive(o, io, files);
  if (typeof raw !== 'string') return raw;
  const entries = unpack(fromBinaryString(raw));
  if ('error' in entries || raw.length === 0)
    return flavour === 'gnu'
      ? {
          stdout: '',
          stderr:
            'tar: This does not look like a tar archive\ntar: Exiting with failure status due to previous errors\n',
          exitCode: 2,
        }
      : { stdout: '', stderr: 'tar: short read\n', exitCode: 1 };
  let stdout = '';
  for (const e of entries) {
    if (o.mode === 't' || o.verbose) stdout += `${e.name}\n`;
    if (o.mode === 't') continue;
    const target = absolute(files, o.dir, e.name.replace(/\/+$/, ''));
    if (e.type === 'dir') {
      if (files.stat(target) !== 'dir') files.mkdir(target);
      continue;
    }
    const error = files.write(target, fileContent(e.data));
    if (error)
      return {
        stdout,
        stderr: `tar: ${e.name}: Cannot open: ${fileErrorText(error)}\ntar: Exiting with failure status due to previous errors\n`,
        exitCode: 2,
      };
  }
  return { stdout, stderr: '', exitCode: 0 };
}

/** The tar an image ships; `now` is the simulated clock (member mtimes). */
export function tarCommand(flavour: TarFlavour, now: () => number): CommandHandler {
  return (argv, io) => {
    const files = io.files;
    if (!files) return { stdout: '', stderr: 'tar: no files in this context\n', exitCode: 2 };
    const o = parse(argv.slice(1));
    if ('error' in o) return { stdout: '', stderr: `${o.error}\n`, exitCode: 2 };
    if (o.mode === undefined)
      return flavour === 'gnu'
        ? {
            stdout: '',
            stderr:
              "tar: You must specify one of the '-Acdtrux', '--delete' or '--test-label' options\nTry 'tar --help' or 'tar --usage' for more information.\n",
            exitCode: 2,
          }
        : { stdout: '', stderr: BUSYBOX_USAGE, exitCode: 1 };
    if (o.mode === 'c') return create(o, files, flavour, now());
    return extractOrList(o, io, files, flavour);
  };
}
