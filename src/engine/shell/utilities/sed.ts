/**
 * sed, the part learners use: `s/regex/replacement/flags` (flags g, p, i/I, N, Ng), with any delimiter,
 * `&`, `\1`–`\9` and `\n` in the replacement; `y/abc/xyz/`; addresses in front of `s`, `y`, `d`, `p`,
 * `q`, `=`, `n`, `N`, `a`/`i`/`c` TEXT and `{ … }` groups: N, $, /regex/, first~step, and GNU ranges `A1,A2`
 * (A2 a line, $, /regex/, +N or ~N; `0,/re/`), negated with `!`; several commands via `;`, newlines
 * or repeated -e; -n, -E/-r, -i (edit in place).
 */
import type { CommandHandler } from '../types.ts';
import { fileErrorText } from '../vfs.ts';
import { linesOf, parseOptions, readInputs, result, withUsage } from './common.ts';
import { posixToJs, RegexSyntaxError } from './regex.ts';

type Address =
  | { kind: 'line'; n: number }
  | { kind: 'last' }
  | { kind: 'regex'; re: RegExp }
  | { kind: 'step'; first: number; step: number }
  /** `0,/re/`: the range is open before line 1, so the regex may end it on line 1. */
  | { kind: 'zero' }
  /** Only as the end of a range: `A1,+N`, `A1,~N`. */
  | { kind: 'plus'; n: number }
  | { kind: 'multiple'; n: number };

interface Selector {
  readonly a1: Address;
  readonly a2?: Address;
  readonly negate: boolean;
}

/** A range's progress (GNU `match_address_p`): open, and the line it ends on when that is known. */
interface RangeState {
  active: boolean;
  endLine?: number;
}

interface SedCommand {
  readonly address?: Selector;
  readonly op: 's' | 'd' | 'p' | 'q' | 'y' | '=' | 'a' | 'i' | 'c' | '{' | 'n' | 'N';
  /** `a`, `i`, `c`: the text. */
  readonly text?: string;
  /** `{ … }`: the grouped commands. */
  readonly children?: readonly SedCommand[];
  readonly re?: RegExp;
  readonly replacement?: string;
  readonly global?: boolean;
  readonly occurrence?: number;
  readonly print?: boolean;
  /** `y/abc/xyz/`: character map. */
  readonly map?: ReadonlyMap<string, string>;
}

class SedError extends Error {}

const MAX_BLOCK_DEPTH = 200;

export const sed: CommandHandler = (argv, io) =>
  withUsage('sed', '[OPTION]... {script-only-if-no-other-script} [input-file]...', 1, () => {
    const { opts, operands } = parseOptions(argv.slice(1), {
      flags: 'nErsi',
      values: 'e',
      long: { quiet: 'n', silent: 'n', 'regexp-extended': 'E', 'in-place': 'i', 'expression=': 'e' },
    });
    const scripts = [...(opts.get('e') ?? [])];
    const files = [...operands];
    if (scripts.length === 0) {
      const s = files.shift();
      if (s === undefined) {
        return result('', 'Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n', 1);
      }
      scripts.push(s);
    }
    const extended = opts.has('E') || opts.has('r');
    let commands: SedCommand[];
    try {
      commands = scripts.flatMap((s, i) => parseScript(s, i + 1, extended));
    } catch (e) {
      if (e instanceof SedError) return result('', `sed: ${e.message}\n`, 1);
      throw e;
    }
    const quiet = opts.has('n');
    if (opts.has('i')) {
      if (files.length === 0) return result('', 'sed: no input files\n', 1);
      let errors = '';
      for (const f of files) {
        const read = io.files?.read(f) ?? { error: 'ENOENT' as const };
        if ('error' in read) {
          errors += `sed: can't read ${f}: ${fileErrorText(read.error)}\n`;
          continue;
        }
        const e = io.files!.write(f, run(commands, read.content, quiet));
        if (e) errors += `sed: couldn't edit ${f}: ${fileErrorText(e)}\n`;
      }
      return result('', errors, errors ? 2 : 0);
    }
    const { inputs, errors } = readInputs('sed', io, files);
    const text = inputs.map((i) => i.text).join('');
    return result(
      run(commands, text, quiet),
      errors.replace(/^sed: (.*): /gm, "sed: can't read $1: "),
      errors ? 2 : 0,
    );
  });

function run(commands: readonly SedCommand[], text: string, quiet: boolean): string {
  const lines = linesOf(text);
  const endsWithNewline = text.endsWith('\n');
  let out = '';
  const ranges = new Map<SedCommand, RangeState>();
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    // `a` text waits for the end of the cycle, even when the line is deleted.
    const appended: string[] = [];
    /** Runs commands on the line: 'delete' ends the cycle without printing, 'quit' after printing. */
    const exec = (cmds: readonly SedCommand[]): 'delete' | 'quit' | 'end' | undefined => {
      for (const c of cmds) {
        let rangeEnded = true;
        if (c.address) {
          let st = ranges.get(c);
          if (!st) ranges.set(c, (st = { active: c.address.a1.kind === 'zero' }));
          if (selects(c.address, st, line, i + 1, lines.length) === c.address.negate) continue;
          rangeEnded = !c.address.a2 || c.address.negate || !st.active;
        }
        switch (c.op) {
          case '{': {
            const r = exec(c.children ?? []);
            if (r) return r;
            break;
          }
          case 'd':
            return 'delete';
          case 'p':
            out += `${line}\n`;
            break;
          case 'q':
            return 'quit';
          case 'n':
          case 'N':
            // No next line: the script ends and the cycle prints as usual (GNU, not POSIX, for N).
            if (i + 1 >= lines.length) return 'end';
            if (c.op === 'n' && !quiet) out += `${line}\n`;
            for (const t of appended.splice(0)) out += `${t}\n`;
            i++;
            line = c.op === 'n' ? lines[i]! : `${line}\n${lines[i]!}`;
            break;
          case '=':
            out += `${i + 1}\n`;
            break;
          case 'i':
            if (c.text) out += `${c.text}\n`;
            break;
          case 'a':
            if (c.text) appended.push(c.text);
            break;
          case 'c':
            // A range is changed as a whole: its text prints once, at the range's last line.
            if (rangeEnded && c.text) out += `${c.text}\n`;
            return 'delete';
          case 'y':
            line = [...line].map((ch) => c.map!.get(ch) ?? ch).join('');
            break;
          case 's': {
            const replaced = substitute(line, c);
            if (replaced !== undefined) {
              line = replaced;
              if (c.print) out += `${line}\n`;
            }
            break;
          }
        }
      }
      return undefined;
    };
    const outcome = exec(commands);
    const last = i === lines.length - 1;
    if (outcome !== 'delete' && !quiet) out += line + (last && !endsWithNewline ? '' : '\n');
    for (const t of appended) out += `${t}\n`;
    if (outcome === 'quit') break;
  }
  return out;
}

function matches(a: Address, line: string, n: number, total: number): boolean {
  switch (a.kind) {
    case 'line':
      return n === a.n;
    case 'last':
      return n === total;
    case 'regex':
      a.re.lastIndex = 0;
      return a.re.test(line);
    case 'step':
      return a.step <= 0 ? n === a.first : n >= a.first && (n - a.first) % a.step === 0;
    default:
      return false;
  }
}

/** GNU sed's `match_address_p`: whether the selector picks line `n` (before `!`), advancing its range. */
function selects(sel: Selector, st: RangeState, line: string, n: number, total: number): boolean {
  const end = sel.a2;
  if (!end) return matches(sel.a1, line, n, total);
  if (st.active) {
    // Inside the range: this line is selected; does it close the range?
    if (end.kind === 'regex' || end.kind === 'last') {
      if (matches(end, line, n, total)) st.active = false;
    } else if (st.endLine === undefined || n >= st.endLine) st.active = false;
    return true;
  }
  if (!matches(sel.a1, line, n, total)) return false;
  // The first line of a range: a line-number end at or before it makes a one-line range.
  switch (end.kind) {
    case 'line':
      st.active = end.n > n;
      st.endLine = end.n;
      break;
    case 'plus':
      st.active = end.n > 0;
      st.endLine = n + end.n;
      break;
    case 'multiple':
      st.active = end.n > 0 && n % end.n !== 0;
      st.endLine = end.n > 0 ? Math.ceil(n / end.n) * end.n : n;
      break;
    case 'last':
      st.active = n !== total;
      break;
    default:
      st.active = true;
  }
  return true;
}

/** GNU sed's matching loop: an empty match right after the previous match is skipped. */
function substitute(line: string, c: SedCommand): string | undefined {
  const re = new RegExp(c.re!.source, `${c.re!.flags.replace('g', '')}g`);
  let out = '';
  let pos = 0;
  let count = 0;
  let lastEnd = -1;
  let changed = false;
  while (pos <= line.length) {
    re.lastIndex = pos;
    const m = re.exec(line);
    if (!m) break;
    const start = m.index;
    const end = start + m[0].length;
    if (m[0] === '' && start === lastEnd) {
      if (start >= line.length) break;
      out += line.slice(pos, start + 1);
      pos = start + 1;
      continue;
    }
    count++;
    const wanted =
      c.occurrence !== undefined
        ? c.global
          ? count >= c.occurrence
          : count === c.occurrence
        : c.global || count === 1;
    out += line.slice(pos, start) + (wanted ? expandReplacement(c.replacement!, m) : m[0]);
    changed ||= wanted;
    lastEnd = end;
    if (m[0] === '') {
      out += line.slice(start, start + 1);
      pos = start + 1;
    } else pos = end;
    if (!c.global && count >= (c.occurrence ?? 1)) break;
  }
  if (pos < line.length) out += line.slice(pos);
  return changed ? out : undefined;
}

function expandReplacement(repl: string, m: unknown[]): string {
  let out = '';
  for (let i = 0; i < repl.length; i++) {
    const ch = repl[i]!;
    if (ch === '&') out += m[0] as string;
    else if (ch === '\\' && i + 1 < repl.length) {
      const n = repl[++i]!;
      if (/[0-9]/.test(n)) out += (m[Number(n)] as string | undefined) ?? '';
      else if (n === 'n') out += '\n';
      else if (n === 't') out += '\t';
      else out += n;
    } else out += ch;
  }
  return out;
}

function parseScript(script: string, exprIndex: number, extended: boolean): SedCommand[] {
  let i = 0;
  const fail = (msg: string) => new SedError(`-e expression #${exprIndex}, char ${i}: ${msg}`);
  const regex = (src: string, flags: string) => {
    try {
      return new RegExp(posixToJs(gnuEscapes(src), extended), flags);
    } catch (e) {
      if (e instanceof RegexSyntaxError) throw fail(e.message);
      throw e;
    }
  };
  const readDelimited = (delim: string): string => {
    let s = '';
    while (i < script.length && script[i] !== delim) {
      if (script[i] === '\\' && i + 1 < script.length) {
        s += script[i + 1] === delim ? delim : script.slice(i, i + 2);
        i += 2;
        continue;
      }
      if (script[i] === '\n') break;
      s += script[i];
      i++;
    }
    return s;
  };
  /** GNU `read_text`: `a\` newline TEXT, or the one-liner `a TEXT` (leading blanks skipped). */
  const readText = (): string => {
    while (script[i] === ' ' || script[i] === '\t') i++;
    if (script[i] === '\\') {
      i++;
      if (script[i] === '\n') i++;
    }
    let text = '';
    while (i < script.length && script[i] !== '\n') {
      if (script[i] === '\\' && i + 1 < script.length) {
        text += script[i + 1];
        i += 2;
        continue;
      }
      text += script[i];
      i++;
    }
    return text;
  };
  let depth = 0;
  const parseCommands = (inBlock: boolean): SedCommand[] => {
    // Blocks nest by recursion (here and when they run): a learner's `{{{{…` must not blow the stack.
    if (++depth > MAX_BLOCK_DEPTH) throw new SedError('memory exhausted');
    const out: SedCommand[] = [];
    while (i < script.length) {
      while (i < script.length && /[\s;]/.test(script[i]!)) i++;
      if (i >= script.length) break;
      if (script[i] === '}') {
        i++;
        if (!inBlock) throw fail("unexpected `}'");
        return out;
      }
      const readAddress = (second: boolean): Address | undefined => {
        const rest = script.slice(i);
        const rel = second ? /^([+~])(\d+)/.exec(rest) : null;
        if (rel) {
          i += rel[0].length;
          return rel[1] === '+'
            ? { kind: 'plus', n: Number(rel[2]) }
            : { kind: 'multiple', n: Number(rel[2]) };
        }
        const step = second ? null : /^(\d+)~(\d+)/.exec(rest);
        if (step) {
          i += step[0].length;
          return { kind: 'step', first: Number(step[1]), step: Number(step[2]) };
        }
        const num = /^\d+/.exec(rest);
        if (num) {
          i += num[0].length;
          return { kind: 'line', n: Number(num[0]) };
        }
        if (script[i] === '$') {
          i++;
          return { kind: 'last' };
        }
        if (script[i] === '/') {
          i++;
          const src = readDelimited('/');
          if (script[i] !== '/') throw fail('unterminated address regex');
          i++;
          return { kind: 'regex', re: regex(src, '') };
        }
        return undefined;
      };
      let address: Selector | undefined;
      const a1 = readAddress(false);
      if (a1) {
        let a2: Address | undefined;
        if (script[i] === ',') {
          i++;
          a2 = readAddress(true);
          if (!a2) throw fail("unexpected `,'");
        }
        while (script[i] === ' ') i++;
        let negate = false;
        while (script[i] === '!' || (negate && script[i] === ' ')) {
          if (script[i] === '!' && negate) throw fail("multiple `!'s");
          negate = true;
          i++;
        }
        const zero = a1.kind === 'line' && a1.n === 0;
        address = { a1: zero ? { kind: 'zero' } : a1, ...(a2 ? { a2 } : {}), negate };
        if (zero && a2?.kind !== 'regex') {
          i++;
          throw fail('invalid usage of line address 0');
        }
      }
      while (script[i] === ' ') i++;
      const op = script[i];
      i++;
      if (op === 'd' || op === 'p' || op === 'q' || op === '=' || op === 'n' || op === 'N') {
        out.push({ address, op });
        continue;
      }
      if (op === 'a' || op === 'i' || op === 'c') {
        out.push({ address, op, text: readText() });
        continue;
      }
      if (op === '{') {
        out.push({ address, op, children: parseCommands(true) });
        continue;
      }
      if (op === 'y') {
        const delim = script[i];
        if (delim === undefined || delim === '\n' || delim === '\\') throw fail("unterminated `y' command");
        i++;
        const from = readDelimited(delim);
        if (script[i] !== delim) throw fail("unterminated `y' command");
        i++;
        const to = readDelimited(delim);
        if (script[i] !== delim) throw fail("unterminated `y' command");
        i++;
        const f = [...from.replace(/\\n/g, '\n')];
        const t = [...to.replace(/\\n/g, '\n')];
        if (f.length !== t.length) throw fail("strings for `y' command are different lengths");
        out.push({ address, op: 'y', map: new Map(f.map((ch, k) => [ch, t[k]!])) });
        continue;
      }
      if (op !== 's') throw fail(op === undefined ? 'missing command' : `unknown command: \`${op}'`);
      const delim = script[i];
      if (delim === undefined || delim === '\n' || delim === '\\') throw fail("unterminated `s' command");
      i++;
      const pattern = readDelimited(delim);
      if (script[i] !== delim) throw fail("unterminated `s' command");
      i++;
      const replacement = readDelimited(delim);
      if (script[i] !== delim) throw fail("unterminated `s' command");
      i++;
      let global = false;
      let print = false;
      let insensitive = false;
      let occurrence: number | undefined;
      while (i < script.length && !/[\s;}]/.test(script[i]!)) {
        const f = script[i]!;
        if (f === 'g') global = true;
        else if (f === 'p') print = true;
        else if (f === 'i' || f === 'I') insensitive = true;
        else if (/[0-9]/.test(f)) {
          const n = /^\d+/.exec(script.slice(i))![0];
          occurrence = Number(n);
          i += n.length - 1;
        } else throw fail("unknown option to `s'");
        i++;
      }
      out.push({
        address,
        op: 's',
        re: regex(pattern, insensitive ? 'i' : ''),
        replacement,
        global,
        print,
        occurrence,
      });
    }
    if (inBlock) {
      i = 0;
      throw fail("unmatched `{'");
    }
    return out;
  };
  return parseCommands(false);
}

/** GNU sed's `\n` and `\t` in a regex: the newline N joins lines with, a tab (grep has neither). */
function gnuEscapes(src: string): string {
  let out = '';
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\' && (src[i + 1] === 'n' || src[i + 1] === 't')) {
      out += src[i + 1] === 'n' ? '\n' : '\t';
      i++;
    } else if (c === '\\' && i + 1 < src.length) {
      out += c + src[i + 1]!;
      i++;
    } else out += c;
  }
  return out;
}
