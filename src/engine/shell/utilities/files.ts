/**
 * File utilities over the session's files, with GNU coreutils' flags and messages (LANG=C.UTF-8:
 * `mkdir` quotes with ‘…’, `ls`/`rm`/`cp` with '…'). `ls -l` shows fixed owners and a fixed date,
 * since the simulation does not track file metadata.
 */
import type { CommandHandler, CommandIO, SessionFiles } from '../types.ts';
import { baseName, fileErrorText } from '../vfs.ts';
import { linesOf, parseOptions, readInputs, result, withUsage } from './common.ts';
import { fileSize } from '../../util/encoding.ts';

const NO_FILES = (io: CommandIO): SessionFiles | undefined => io.files;

export const cat: CommandHandler = (argv, io) =>
  withUsage('cat', '[OPTION]... [FILE]...', 1, () => {
    const { opts, operands } = parseOptions(argv.slice(1), {
      flags: 'nbEAsuT',
      long: { number: 'n', 'number-nonblank': 'b', 'show-ends': 'E', 'show-all': 'A' },
    });
    const { inputs, errors } = readInputs('cat', io, operands);
    let text = inputs.map((i) => i.text).join('');
    const showEnds = opts.has('E') || opts.has('A');
    if (opts.has('n') || opts.has('b') || showEnds) {
      let n = 0;
      const lines = text.split('\n');
      const last = lines.pop();
      const out = lines.map((l) => {
        const numbered = opts.has('b') ? l !== '' : opts.has('n');
        return `${numbered ? `${String(++n).padStart(6)}\t` : ''}${l}${showEnds ? '$' : ''}\n`;
      });
      if (last) out.push(`${opts.has('n') || opts.has('b') ? `${String(++n).padStart(6)}\t` : ''}${last}`);
      text = out.join('');
    }
    return result(text, errors);
  });

/** GNU ls -C: as many columns as fit in 80 characters, filled top to bottom, two spaces apart. */
function columns(names: readonly string[], width = 80): string {
  if (names.length === 0) return '';
  for (let cols = names.length; cols >= 1; cols--) {
    const rows = Math.ceil(names.length / cols);
    const widths: number[] = [];
    for (let c = 0; c < cols; c++) {
      const col = names.slice(c * rows, (c + 1) * rows);
      if (col.length === 0) break;
      widths.push(Math.max(...col.map((n) => n.length)));
    }
    const total = widths.reduce((a, w) => a + w, 0) + 2 * (widths.length - 1);
    if (total > width && cols > 1) continue;
    const lines: string[] = [];
    for (let r = 0; r < rows; r++) {
      let line = '';
      widths.forEach((w, c) => {
        const name = names[c * rows + r];
        if (name === undefined) return;
        line +=
          c === widths.length - 1 || names[(c + 1) * rows + r] === undefined ? name : name.padEnd(w + 2);
      });
      lines.push(line);
    }
    return `${lines.join('\n')}\n`;
  }
  return '';
}

function longListing(files: SessionFiles, dir: string, names: readonly string[], owner: string): string {
  const rows = names.map((name) => {
    const path = dir === '' ? name : `${dir.replace(/\/$/, '')}/${name}`;
    const isDir = files.stat(path) === 'dir';
    const read = isDir ? undefined : files.read(path);
    const size = isDir ? 4096 : read && 'content' in read ? fileSize(read.content) : 0;
    return { name, isDir, size };
  });
  const sizeWidth = Math.max(1, ...rows.map((r) => String(r.size).length));
  const total = rows.reduce((a, r) => a + Math.ceil(r.size / 4096) * 4, 0);
  const lines = rows.map(
    (r) =>
      `${r.isDir ? 'drwxr-xr-x' : '-rw-r--r--'} ${r.isDir ? 2 : 1} ${owner} ${owner} ${String(r.size).padStart(sizeWidth)} Jan  1 00:00 ${r.name}`,
  );
  return `total ${total}\n${lines.map((l) => `${l}\n`).join('')}`;
}

export const ls: CommandHandler = (argv, io) =>
  withUsage('ls', '', 2, () => {
    const files = NO_FILES(io);
    const { opts, operands } = parseOptions(argv.slice(1), {
      flags: 'l1aAhrtSFdR',
      long: { all: 'a', 'almost-all': 'A' },
    });
    if (!files) return result('', '', 0);
    const owner = io.env.USER ?? 'root';
    const long = opts.has('l');
    const one = opts.has('1') || !io.tty;
    let errors = '';
    const fileOps: string[] = [];
    const dirOps: string[] = [];
    for (const op of operands.length === 0 ? ['.'] : operands) {
      const kind = files.stat(op);
      if (kind === undefined) errors += `ls: cannot access '${op}': ${fileErrorText('ENOENT')}\n`;
      else if (kind === 'file' || opts.has('d')) fileOps.push(op);
      else dirOps.push(op);
    }
    const render = (dir: string, names: string[]) => {
      const sorted = opts.has('r') ? [...names].sort().reverse() : [...names].sort();
      if (long) return longListing(files, dir, sorted, owner);
      return one ? sorted.map((n) => `${n}\n`).join('') : columns(sorted);
    };
    const blocks: string[] = [];
    if (fileOps.length > 0)
      blocks.push(
        long
          ? longListing(files, '', fileOps.sort(), owner).replace(/^total \d+\n/, '')
          : render('', fileOps),
      );
    for (const dir of dirOps.sort()) {
      const listed = files.list(dir);
      if (typeof listed === 'string') {
        errors += `ls: cannot open directory '${dir}': ${fileErrorText(listed)}\n`;
        continue;
      }
      let names = [...listed];
      if (opts.has('a')) names = ['.', '..', ...names];
      else if (!opts.has('A')) names = names.filter((n) => !n.startsWith('.'));
      const body = render(dir, names);
      blocks.push(fileOps.length + dirOps.length > 1 ? `${dir}:\n${body}` : body);
    }
    return result(blocks.join('\n'), errors, errors === '' ? 0 : 2);
  });

export const rm: CommandHandler = (argv, io) =>
  withUsage('rm', '', 1, () => {
    const { opts, operands } = parseOptions(argv.slice(1), {
      flags: 'rRfiv',
      long: { recursive: 'r', force: 'f' },
    });
    const force = opts.has('f');
    if (operands.length === 0) {
      return force ? result('') : result('', "rm: missing operand\nTry 'rm --help' for more information.\n");
    }
    let errors = '';
    const files = io.files;
    for (const op of operands) {
      const kind = files?.stat(op);
      if (!files || kind === undefined) {
        if (!force) errors += `rm: cannot remove '${op}': ${fileErrorText('ENOENT')}\n`;
        continue;
      }
      if (kind === 'dir') {
        if (!opts.has('r') && !opts.has('R')) {
          errors += `rm: cannot remove '${op}': ${fileErrorText('EISDIR')}\n`;
          continue;
        }
        const e = removeTree(files, op);
        if (e) errors += `rm: cannot remove '${op}': ${fileErrorText(e)}\n`;
        continue;
      }
      const e = files.remove(op);
      if (e) errors += `rm: cannot remove '${op}': ${fileErrorText(e)}\n`;
    }
    return result('', errors);
  });

function removeTree(files: SessionFiles, path: string): ReturnType<SessionFiles['remove']> {
  const listed = files.list(path);
  if (typeof listed !== 'string') {
    for (const name of listed) {
      const child = `${path.replace(/\/$/, '')}/${name}`;
      const e = files.stat(child) === 'dir' ? removeTree(files, child) : files.remove(child);
      if (e) return e;
    }
  }
  const e = files.remove(path);
  return e === 'EACCES' ? undefined : e;
}

function copyOrMove(cmd: 'cp' | 'mv'): CommandHandler {
  return (argv, io) =>
    withUsage(cmd, '', 1, () => {
      const { operands } = parseOptions(argv.slice(1), {
        flags: 'fivnrRpa',
        long: { force: 'f', recursive: 'r' },
      });
      const files = io.files;
      if (operands.length === 0)
        return result('', `${cmd}: missing file operand\nTry '${cmd} --help' for more information.\n`);
      if (operands.length === 1) {
        return result(
          '',
          `${cmd}: missing destination file operand after '${operands[0]}'\nTry '${cmd} --help' for more information.\n`,
        );
      }
      const dest = operands[operands.length - 1]!;
      const sources = operands.slice(0, -1);
      const destIsDir = files?.stat(dest) === 'dir';
      if (sources.length > 1 && !destIsDir)
        return result(
          '',
          `${cmd}: target '${dest}': ${fileErrorText(files?.stat(dest) ? 'ENOTDIR' : 'ENOENT')}\n`,
        );
      let errors = '';
      for (const src of sources) {
        const read = files?.read(src) ?? { error: 'ENOENT' as const };
        if ('error' in read) {
          if (read.error === 'EISDIR' && cmd === 'cp')
            errors += `cp: -r not specified; omitting directory '${src}'\n`;
          else if (read.error === 'EISDIR')
            errors += `mv: cannot move directories in the lab shell: '${src}'\n`;
          else errors += `${cmd}: cannot stat '${src}': ${fileErrorText(read.error)}\n`;
          continue;
        }
        const target = destIsDir ? `${dest.replace(/\/$/, '')}/${baseName(src)}` : dest;
        if (files!.resolve(target) === files!.resolve(src)) {
          errors += `${cmd}: '${src}' and '${target}' are the same file\n`;
          continue;
        }
        const e = files!.write(target, read.content);
        if (e) {
          errors += `${cmd}: cannot create regular file '${target}': ${fileErrorText(e)}\n`;
          continue;
        }
        if (cmd === 'mv') files!.remove(src);
      }
      return result('', errors);
    });
}

export const cp = copyOrMove('cp');
export const mv = copyOrMove('mv');

export const touch: CommandHandler = (argv, io) =>
  withUsage('touch', '', 1, () => {
    const { operands } = parseOptions(argv.slice(1), { flags: 'acm' });
    if (operands.length === 0)
      return result('', "touch: missing file operand\nTry 'touch --help' for more information.\n");
    let errors = '';
    for (const op of operands) {
      if (io.files?.stat(op) !== undefined) continue;
      const e = io.files ? io.files.write(op, '') : 'ENOENT';
      if (e) errors += `touch: cannot touch '${op}': ${fileErrorText(e)}\n`;
    }
    return result('', errors);
  });

export const mkdir: CommandHandler = (argv, io) =>
  withUsage('mkdir', '', 1, () => {
    const { opts, operands } = parseOptions(argv.slice(1), {
      flags: 'pv',
      values: 'm',
      long: { parents: 'p' },
    });
    if (operands.length === 0)
      return result('', "mkdir: missing operand\nTry 'mkdir --help' for more information.\n");
    let errors = '';
    for (const op of operands) {
      const files = io.files;
      if (!files) continue;
      if (opts.has('p')) {
        const abs = files.resolve(op);
        let path = '';
        for (const seg of abs.split('/').filter(Boolean)) {
          path += `/${seg}`;
          const kind = files.stat(path);
          if (kind === 'dir') continue;
          const e = kind === 'file' ? 'ENOTDIR' : files.mkdir(path);
          if (e) {
            errors += `mkdir: cannot create directory ‘${op}’: ${fileErrorText(e)}\n`;
            break;
          }
        }
        continue;
      }
      const e = files.mkdir(op);
      if (e) errors += `mkdir: cannot create directory ‘${op}’: ${fileErrorText(e)}\n`;
    }
    return result('', errors);
  });

export const rmdir: CommandHandler = (argv, io) => {
  const operands = argv.slice(1).filter((a) => !a.startsWith('-'));
  if (operands.length === 0)
    return result('', "rmdir: missing operand\nTry 'rmdir --help' for more information.\n");
  let errors = '';
  for (const op of operands) {
    const kind = io.files?.stat(op);
    if (kind !== 'dir') {
      errors += `rmdir: failed to remove '${op}': ${fileErrorText(kind === 'file' ? 'ENOTDIR' : 'ENOENT')}\n`;
      continue;
    }
    const listed = io.files!.list(op);
    if (typeof listed !== 'string' && listed.length > 0) {
      errors += `rmdir: failed to remove '${op}': ${fileErrorText('ENOTEMPTY')}\n`;
      continue;
    }
    const e = io.files!.remove(op);
    if (e) errors += `rmdir: failed to remove '${op}': ${fileErrorText(e)}\n`;
  }
  return result('', errors);
};

export const tee: CommandHandler = (argv, io) =>
  withUsage('tee', '', 1, () => {
    const { opts, operands } = parseOptions(argv.slice(1), { flags: 'ai', long: { append: 'a' } });
    const text = io.stdin;
    let errors = '';
    for (const op of operands) {
      const e = io.files ? io.files.write(op, text, { append: opts.has('a') }) : 'ENOENT';
      if (e) errors += `tee: ${op}: ${fileErrorText(e)}\n`;
    }
    return result(text, errors);
  });

export const basename: CommandHandler = (argv) => {
  const args = argv.slice(1);
  if (args.length === 0)
    return result('', "basename: missing operand\nTry 'basename --help' for more information.\n");
  let name = baseName(args[0]!);
  if (args[1] !== undefined && name !== args[1] && name.endsWith(args[1]))
    name = name.slice(0, -args[1].length);
  return result(`${name}\n`);
};

export const dirname: CommandHandler = (argv) => {
  const args = argv.slice(1);
  if (args.length === 0)
    return result('', "dirname: missing operand\nTry 'dirname --help' for more information.\n");
  return result(
    args
      .map((a) => {
        const t = a.replace(/\/+$/, '');
        const i = t.lastIndexOf('/');
        return `${i < 0 ? '.' : i === 0 ? '/' : t.slice(0, i).replace(/\/+$/, '') || '/'}\n`;
      })
      .join(''),
  );
};

export { linesOf };
