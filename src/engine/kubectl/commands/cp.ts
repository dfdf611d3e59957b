/**
 * `kubectl cp` (pkg/cmd/cp): a tar stream through exec, as the real one does. From a pod it runs
 * `tar cf - PATH` in the container and unpacks the stream into the local path (untarAll: member names
 * must start with the source's prefix, which is stripped); to a pod it packs the local file and runs
 * `tar -xmf - -C DIR` there. The container's tar reports on kubectl's stdout (TarPipe hands it
 * `o.Out` as ErrOut: BusyBox's "tar: removing leading '/' from member names" shows there), and a tar
 * that fails ends kubectl with `command terminated with exit code N`. An image without tar fails the
 * way containerd fails any exec of a missing binary.
 */
import type { Pod } from '../../api/objects.ts';
import type { SessionFiles } from '../../shell/types.ts';
import { fileErrorText } from '../../shell/vfs.ts';
import { fileBytes, fileContent, fromBinaryString, toBinaryString } from '../../util/encoding.ts';
import { pack, unpack, type TarEntry } from '../../util/tar.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError, KubectlError } from '../errors.ts';
import { notFound } from '../../api/errors.ts';
import { pickContainer } from './pod-target.ts';
import { requireRunningContainer, runInContainer } from './exec.ts';

interface FileSpec {
  readonly namespace?: string;
  readonly pod?: string;
  readonly file: string;
}

const FORMAT_ERROR = 'filespec must match the canonical format: [[namespace/]pod:]file/path';

function extractFileSpec(arg: string): FileSpec {
  const i = arg.indexOf(':');
  if (i === 0) throw cmdError(FORMAT_ERROR);
  if (i < 0) return { file: arg };
  const pieces = arg.slice(0, i).split('/');
  const file = arg.slice(i + 1);
  if (pieces.length === 1) return { pod: pieces[0]!, file };
  if (pieces.length === 2) return { namespace: pieces[0]!, pod: pieces[1]!, file };
  throw cmdError(FORMAT_ERROR);
}

/** path.Clean for a slash path ("" stays ""). */
function clean(p: string): string {
  if (p === '') return '';
  const abs = p.startsWith('/');
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!abs) out.push('..');
    } else out.push(seg);
  }
  const joined = out.join('/');
  return abs ? `/${joined}` : joined || '.';
}

/** cp.go stripPathShortcuts: drops leading `../` and a lone `.` or `..`. */
function stripPathShortcuts(p: string): string {
  let s = clean(p);
  while (s.startsWith('../')) s = s.slice(3);
  return s === '..' || s === '.' ? '' : s;
}

function requireFiles(ctx: KubectlContext): SessionFiles {
  const files = ctx.io.files;
  if (!files) throw cmdError('cp needs a working directory');
  return files;
}

function podOf(ctx: KubectlContext, spec: FileSpec): { pod: Pod; container: string } {
  const name = spec.pod ?? '';
  const pod = ctx.host.api.get('pods', spec.namespace ?? ctx.namespace, name);
  if (!pod) throw notFound('pods', name);
  const container = pickContainer(ctx, pod, ctx.flags.string('container'));
  requireRunningContainer(pod, container);
  return { pod, container };
}

/** The container's tar failed: its exit code ends kubectl, as cmdutil.CheckErr does for an exec. */
function tarFailed(code: number): KubectlError {
  return new KubectlError(`command terminated with exit code ${code}`, code);
}

function copyFromPod(ctx: KubectlContext, src: FileSpec, dest: string): number {
  const { pod, container } = podOf(ctx, src);
  const r = runInContainer(ctx, pod, container, ['tar', 'cf', '-', src.file], '');
  ctx.out(r.stderr);
  if (r.exitCode !== 0) throw tarFailed(r.exitCode);
  const entries = unpack(fromBinaryString(r.stdout));
  if ('error' in entries) throw cmdError(entries.error);
  const prefix = stripPathShortcuts(clean(src.file.replace(/^\/+/, '')));
  const files = requireFiles(ctx);
  for (const e of entries) {
    if (!e.name.startsWith(prefix)) throw cmdError('tar contents corrupted');
    const rest = clean(e.name.slice(prefix.length).replace(/^\/+/, ''));
    const target = rest === '.' || rest === '' ? dest : `${dest.replace(/\/+$/, '')}/${rest}`;
    if (rest.startsWith('..')) {
      ctx.err(`warning: file "${target}" is outside target destination, skipping\n`);
      continue;
    }
    mkdirAll(files, parentOf(target));
    if (e.type === 'dir') {
      mkdirAll(files, target);
      continue;
    }
    const error = files.write(target, fileContent(e.data));
    if (error) throw cmdError(`open ${target}: ${fileErrorText(error).toLowerCase()}`);
  }
  return 0;
}

function parentOf(p: string): string {
  const i = p.replace(/\/+$/, '').lastIndexOf('/');
  return i < 0 ? '.' : i === 0 ? '/' : p.slice(0, i);
}

/** os.MkdirAll on the learner's side. */
function mkdirAll(files: SessionFiles, dir: string): void {
  if (dir === '.' || dir === '' || files.stat(dir) === 'dir') return;
  mkdirAll(files, parentOf(dir));
  files.mkdir(dir);
}

/** makeTar/recursiveTar: the local path's tree, its members named after the remote destination. */
function localEntries(files: SessionFiles, path: string, name: string, mtime: number, out: TarEntry[]): void {
  if (files.stat(path) === 'dir') {
    const children = files.list(path);
    if (typeof children === 'string' || children.length === 0) {
      out.push({ name: `${name}/`, type: 'dir', data: new Uint8Array(0), mtime });
      return;
    }
    for (const c of children) localEntries(files, `${path}/${c}`, `${name}/${c}`, mtime, out);
    return;
  }
  const r = files.read(path);
  if ('content' in r) out.push({ name, type: 'file', data: fileBytes(r.content), mtime });
}

function copyToPod(ctx: KubectlContext, src: string, dest: FileSpec): number {
  const files = requireFiles(ctx);
  if (files.stat(src) === undefined) throw cmdError(`${src} doesn't exist in local filesystem`);
  const { pod, container } = podOf(ctx, dest);
  let destFile = clean(dest.file);
  // checkDestinationIsDir: `test -d DEST` in the container; a directory takes the source's name.
  const isDir = runInContainer(ctx, pod, container, ['test', '-d', dest.file], '');
  const base = clean(src).split('/').pop() ?? src;
  if (isDir.exitCode === 0) destFile = destFile === '/' ? `/${base}` : `${destFile}/${base}`;
  const destDir = parentOf(destFile);
  const memberBase = destFile.slice(destFile.lastIndexOf('/') + 1);
  const entries: TarEntry[] = [];
  localEntries(files, files.resolve(src), memberBase, Math.floor(ctx.now() / 1000), entries);
  const archive = pack(entries);
  if ('error' in archive) throw cmdError(archive.error);
  const command = ctx.flags.bool('no-preserve')
    ? ['tar', '--no-same-permissions', '--no-same-owner', '-xmf', '-']
    : ['tar', '-xmf', '-'];
  if (destDir !== '') command.push('-C', destDir);
  const r = runInContainer(ctx, pod, container, command, toBinaryString(archive));
  ctx.relay(r);
  if (r.exitCode !== 0) throw tarFailed(r.exitCode);
  return 0;
}

export function runCp(ctx: KubectlContext): number {
  const args = ctx.flags.args;
  if (args.length !== 2) throw cmdError('source and destination are required');
  const src = extractFileSpec(args[0]!);
  const dest = extractFileSpec(args[1]!);
  if (src.pod !== undefined && dest.pod !== undefined)
    throw cmdError('one of src or dest must be a local file specification');
  if (src.file === '' || dest.file === '') throw cmdError('filepath can not be empty');
  if (src.pod !== undefined) return copyFromPod(ctx, src, dest.file);
  if (dest.pod !== undefined) return copyToPod(ctx, src.file, dest);
  throw cmdError('one of src or dest must be a remote file specification');
}
