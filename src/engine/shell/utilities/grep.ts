/**
 * GNU grep: -E -F -G, -i -v -w -x, -c -l -L -n -o -q -s -H -h, -r, -m NUM, -e PATTERN (several), and context
 * -A/-B/-C NUM (context lines marked `-` where matches have `:`, `--` between groups that are not
 * adjacent, as soon as any context option is given, even 0). Exit status 0 when something matched, 1
 * when nothing did, 2 on error.
 */
import type { CommandHandler } from '../types.ts';
import { fileErrorText } from '../vfs.ts';
import { linesOf, parseOptions, result, withUsage, type InputText } from './common.ts';
import { posixToJs, RegexSyntaxError } from './regex.ts';

const USAGE = '[OPTION]... PATTERNS [FILE]...';

export const grep: CommandHandler = (argv, io) =>
  withUsage('grep', USAGE, 2, () => {
    const { opts, operands } = parseOptions(argv.slice(1), {
      flags: 'EFGivwxclLnoqsHhrRIaz',
      values: 'efmABC',
      long: {
        'extended-regexp': 'E',
        'fixed-strings': 'F',
        'ignore-case': 'i',
        'invert-match': 'v',
        'word-regexp': 'w',
        'line-regexp': 'x',
        count: 'c',
        'files-with-matches': 'l',
        'line-number': 'n',
        'only-matching': 'o',
        quiet: 'q',
        silent: 'q',
        'no-messages': 's',
        recursive: 'r',
        'regexp=': 'e',
        'color=': 'I',
        'colour=': 'I',
        color: 'I',
        'after-context=': 'A',
        'before-context=': 'B',
        'context=': 'C',
        'max-count=': 'm',
      },
      numericShort: 'C',
    });
    const patterns = [...(opts.get('e') ?? [])];
    const files = [...operands];
    if (patterns.length === 0) {
      const p = files.shift();
      if (p === undefined)
        return result('', `Usage: grep ${USAGE}\nTry 'grep --help' for more information.\n`, 2);
      patterns.push(p);
    }
    let re: RegExp;
    try {
      re = buildRegex(
        patterns.flatMap((p) => p.split('\n')),
        opts,
      );
    } catch (e) {
      if (e instanceof RegexSyntaxError) return result('', `grep: ${e.message}\n`, 2);
      throw e;
    }
    let errors = '';
    const inputs: InputText[] = [];
    const recursive = opts.has('r') || opts.has('R');
    const targets = files.length === 0 ? (recursive ? ['.'] : ['-']) : files;
    for (const f of targets) {
      if (f === '-') {
        inputs.push({ name: '(standard input)', text: io.stdin });
        continue;
      }
      const kind = io.files?.stat(f);
      if (kind === 'dir') {
        if (recursive) inputs.push(...walk(io.files!, f, files.length === 0));
        else if (!opts.has('s')) errors += `grep: ${f}: Is a directory\n`;
        continue;
      }
      const read = io.files?.read(f) ?? { error: 'ENOENT' as const };
      if ('error' in read) {
        if (!opts.has('s')) errors += `grep: ${f}: ${fileErrorText(read.error)}\n`;
        continue;
      }
      inputs.push({ name: f, text: read.content });
    }
    const withName = opts.has('H') || (!opts.has('h') && (targets.length > 1 || recursive));
    const invert = opts.has('v');
    // -A/-B given explicitly win over -C whatever their order; any of them turns on `--` separators.
    const context = (k: string): number | undefined => {
      const v = opts.get(k)?.at(-1);
      if (v === undefined) return undefined;
      if (!/^\d+$/.test(v)) throw new ContextError(v);
      return Number(v);
    };
    let before: number;
    let after: number;
    let separators: boolean;
    try {
      const c = context('C');
      before = context('B') ?? c ?? 0;
      after = context('A') ?? c ?? 0;
      separators = opts.has('A') || opts.has('B') || opts.has('C');
    } catch (e) {
      if (e instanceof ContextError)
        return result('', `grep: ${e.value}: invalid context length argument\n`, 2);
      throw e;
    }
    // -m NUM: stop after NUM selected lines per file (their trailing context still prints; a
    // negative NUM means no limit).
    const maxText = opts.get('m')?.at(-1);
    if (maxText !== undefined && !/^-?\d+$/.test(maxText)) return result('', 'grep: invalid max count\n', 2);
    const maxCount = maxText === undefined || Number(maxText) < 0 ? Infinity : Number(maxText);
    const listing = opts.has('q') || opts.has('c') || opts.has('l') || opts.has('L');
    let out = '';
    let matchedAny = false;
    let printedAny = false;
    for (const input of inputs) {
      let count = 0;
      const lines = linesOf(input.text);
      let lastShown = -1;
      let afterLeft = 0;
      const show = (i: number, sep: ':' | '-', text: string | undefined): void => {
        if (separators && printedAny && (lastShown < 0 || i > lastShown + 1)) out += '--\n';
        printedAny = true;
        lastShown = i;
        // -o prints no context lines, but they still count as shown for the separators.
        if (text !== undefined)
          out += `${withName ? `${input.name}${sep}` : ''}${opts.has('n') ? `${i + 1}${sep}` : ''}${text}\n`;
      };
      lines.forEach((line, i) => {
        if (count >= maxCount) {
          // Past the last allowed match only its trailing context is printed, matching lines included.
          if (afterLeft > 0 && !listing) {
            afterLeft--;
            show(i, '-', opts.has('o') ? undefined : line);
          }
          return;
        }
        re.lastIndex = 0;
        const hit = re.test(line) !== invert;
        if (!hit) {
          if (afterLeft > 0 && !listing) {
            afterLeft--;
            show(i, '-', opts.has('o') ? undefined : line);
          }
          return;
        }
        count++;
        matchedAny = true;
        if (listing) return;
        for (let j = Math.max(lastShown + 1, i - before); j < i; j++)
          show(j, '-', opts.has('o') ? undefined : lines[j]!);
        afterLeft = after;
        show(i, ':', undefined);
        const prefix = `${withName ? `${input.name}:` : ''}${opts.has('n') ? `${i + 1}:` : ''}`;
        if (opts.has('o') && !invert) {
          re.lastIndex = 0;
          for (const m of line.matchAll(
            new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`),
          )) {
            if (m[0] !== '') out += `${prefix}${m[0]}\n`;
          }
        } else if (!opts.has('o')) out += `${prefix}${line}\n`;
      });
      if (opts.has('c')) out += `${withName ? `${input.name}:` : ''}${count}\n`;
      if (opts.has('l') && count > 0) out += `${input.name}\n`;
      if (opts.has('L') && count === 0) out += `${input.name}\n`;
    }
    if (opts.has('q')) return result('', matchedAny ? '' : errors, matchedAny ? 0 : errors ? 2 : 1);
    return result(out, errors, errors ? 2 : matchedAny ? 0 : 1);
  });

function buildRegex(patterns: string[], opts: Map<string, string[]>): RegExp {
  const extended = opts.has('E');
  const sources = patterns.map((p) =>
    opts.has('F') ? p.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&') : posixToJs(p, extended),
  );
  let src = sources.map((s) => `(?:${s})`).join('|');
  if (opts.has('x')) src = `^(?:${src})$`;
  else if (opts.has('w')) src = `(?<![A-Za-z0-9_])(?:${src})(?![A-Za-z0-9_])`;
  return new RegExp(src, opts.has('i') ? 'i' : '');
}

function walk(
  files: NonNullable<Parameters<CommandHandler>[1]['files']>,
  dir: string,
  implicit: boolean,
): InputText[] {
  const out: InputText[] = [];
  const listed = files.list(dir);
  if (typeof listed === 'string') return out;
  for (const name of listed) {
    const path = implicit && dir === '.' ? name : `${dir.replace(/\/$/, '')}/${name}`;
    if (files.stat(path) === 'dir') out.push(...walk(files, path, false));
    else {
      const read = files.read(path);
      if ('content' in read) out.push({ name: path, text: read.content });
    }
  }
  return out;
}

class ContextError extends Error {
  readonly value: string;
  constructor(value: string) {
    super(value);
    this.value = value;
  }
}
