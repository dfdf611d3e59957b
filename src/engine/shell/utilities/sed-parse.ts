/**
 * sed's script compiler (GNU sed 4.9 compile.c): the -e fragments are one script joined by newlines
 * (so `-e 'a\' -e 'text'` is one `a` command and `{` may close in a later fragment), compiled into a
 * flat program where `{` jumps past its `}` when its address does not match and `b`/`t`/`T` jump to
 * their label. Error messages and their `char N` positions are GNU's.
 */
import { posixToJs, RegexSyntaxError } from './regex.ts';

export type Address =
  | { kind: 'line'; n: number }
  | { kind: 'last' }
  /** `re` undefined: the empty regex `//`, the last regex used. */
  | { kind: 'regex'; re: RegExp | undefined }
  | { kind: 'step'; first: number; step: number }
  /** `0,/re/`: the range is open before line 1, so the regex may end it on line 1. */
  | { kind: 'zero' }
  /** Only as the end of a range: `A1,+N`, `A1,~N`. */
  | { kind: 'plus'; n: number }
  | { kind: 'multiple'; n: number };

export interface Selector {
  readonly a1: Address;
  readonly a2?: Address;
  readonly negate: boolean;
}

export type SedOp =
  | 's'
  | 'y'
  | 'd'
  | 'D'
  | 'p'
  | 'P'
  | 'q'
  | 'Q'
  | '='
  | 'l'
  | 'a'
  | 'i'
  | 'c'
  | 'r'
  | 'w'
  | 'n'
  | 'N'
  | 'h'
  | 'H'
  | 'g'
  | 'G'
  | 'x'
  | 'z'
  | 'F'
  | 'b'
  | 't'
  | 'T'
  | ':'
  | '{'
  | '}';

export interface SedCommand {
  readonly address?: Selector;
  readonly op: SedOp;
  /** `a`, `i`, `c`: the text, with its final newline. */
  readonly text?: string;
  /** `r`, `w`, and `s///w`: the file. */
  readonly file?: string;
  /** `q`, `Q`: the exit code. */
  readonly exitCode?: number;
  /** `l N`: the wrap width (0: no wrapping). */
  readonly width?: number;
  /** `{`: the index after its `}`; `b`, `t`, `T`: the label's index (the end of the script without one). */
  jump?: number;
  readonly label?: string;
  /** `s`: undefined for the empty regex (the last regex used). */
  readonly re?: RegExp;
  readonly replacement?: string;
  readonly global?: boolean;
  readonly occurrence?: number;
  readonly print?: boolean;
  /** `y/abc/xyz/`: character map. */
  readonly map?: ReadonlyMap<string, string>;
}

export interface SedProgram {
  readonly commands: readonly SedCommand[];
  /** `#n` on the script's first line: as -n. */
  readonly quiet: boolean;
  /** Every file a `w` writes, truncated when the script is compiled. */
  readonly writeFiles: readonly string[];
}

export class SedError extends Error {
  /** 1 for GNU's `bad_prog`, 4 for its `panic` (a missing label). */
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

const ONE_ADDRESS = new Set(['q', 'Q']);
const NO_ADDRESS = new Set([':', '}']);

/** Compiles the -e fragments (`scripts`) as one script; throws SedError with GNU's wording. */
export function compileSed(scripts: readonly string[], extended: boolean): SedProgram {
  const script = scripts.join('\n');
  const starts: number[] = [];
  let at = 0;
  for (const s of scripts) {
    starts.push(at);
    at += s.length + 1;
  }
  let i = 0;
  let regexSeen = false;
  const fail = (msg: string, pos = i) => {
    let k = 0;
    while (k + 1 < starts.length && starts[k + 1]! <= pos - 1) k++;
    return new SedError(`-e expression #${k + 1}, char ${pos - starts[k]!}: ${msg}`);
  };
  const regex = (src: string, flags: string): RegExp | undefined => {
    if (src === '') {
      if (!regexSeen) throw fail('no previous regular expression', 0);
      return undefined;
    }
    regexSeen = true;
    try {
      // sed's `.` matches the newline N puts in the pattern space.
      return new RegExp(posixToJs(gnuEscapes(src), extended), `${flags}s`);
    } catch (e) {
      if (e instanceof RegexSyntaxError) throw fail(e.message);
      throw e;
    }
  };
  const readDelimited = (delim: string): string | undefined => {
    let s = '';
    while (i < script.length && script[i] !== delim) {
      if (script[i] === '\\' && i + 1 < script.length) {
        s += script[i + 1] === delim ? delim : script.slice(i, i + 2);
        i += 2;
        continue;
      }
      if (script[i] === '\n') return undefined;
      s += script[i];
      i++;
    }
    if (script[i] !== delim) return undefined;
    i++;
    return s;
  };
  const skipBlanks = () => {
    while (script[i] === ' ' || script[i] === '\t') i++;
  };
  /** GNU `read_end_of_cmd`: only blanks, then `;`, a newline, `}` or `#` may follow a command. */
  const endOfCommand = () => {
    skipBlanks();
    const ch = script[i];
    if (ch === undefined || ch === '}' || ch === '#') return;
    i++;
    if (ch !== ';' && ch !== '\n') throw fail('extra characters after command');
  };
  /** GNU `read_text`: `a\` newline TEXT (backslash-newline continues it), or the one-liner `a TEXT`. */
  const readText = (): string => {
    skipBlanks();
    if (script[i] === '\\') {
      i++;
      if (script[i] === '\n') i++;
    } else if (i >= script.length || script[i] === '\n') throw fail("expected \\ after `a', `c' or `i'");
    let text = '';
    // `a\` at the very end of the script: GNU queues nothing, not even a newline.
    if (i >= script.length) return '';
    while (i < script.length && script[i] !== '\n') {
      if (script[i] === '\\' && i + 1 < script.length) {
        const n = script[i + 1]!;
        text += n === 't' ? '\t' : n;
        i += 2;
        continue;
      }
      text += script[i];
      i++;
    }
    return `${text}\n`;
  };
  /** GNU `read_filename`: the rest of the line, `;` included. */
  const readFilename = (): string => {
    skipBlanks();
    const start = i;
    while (i < script.length && script[i] !== '\n') i++;
    const name = script.slice(start, i);
    if (name === '') throw fail('missing filename in r/R/w/W commands');
    return name;
  };
  const readLabel = (): string => {
    skipBlanks();
    const start = i;
    while (i < script.length && !/[\s;]/.test(script[i]!)) i++;
    return script.slice(start, i);
  };
  const readNumber = (): number | undefined => {
    skipBlanks();
    const m = /^\d+/.exec(script.slice(i, i + 32));
    if (!m) return undefined;
    i += m[0].length;
    return Number(m[0]);
  };
  const readAddress = (second: boolean): Address | undefined => {
    const rest = script.slice(i, i + 64);
    const rel = second ? /^([+~])(\d+)/.exec(rest) : null;
    if (rel) {
      i += rel[0].length;
      return rel[1] === '+' ? { kind: 'plus', n: Number(rel[2]) } : { kind: 'multiple', n: Number(rel[2]) };
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
    if (script[i] === '/' || script[i] === '\\') {
      if (script[i] === '\\') i++;
      const delim = script[i++];
      if (delim === undefined || delim === '\n' || delim === '\\') throw fail('unterminated address regex');
      const src = readDelimited(delim);
      if (src === undefined) throw fail('unterminated address regex');
      let flags = '';
      while (script[i] === 'I' || script[i] === 'M') flags += script[i++] === 'I' ? 'i' : 'm';
      return { kind: 'regex', re: regex(src, flags) };
    }
    return undefined;
  };

  const out: SedCommand[] = [];
  const blocks: number[] = [];
  const labels = new Map<string, number>();
  const quiet = /^#n(\n|$)/.test(scripts[0] ?? '');
  const writeFiles: string[] = [];
  while (i < script.length) {
    while (i < script.length && /[\s;]/.test(script[i]!)) i++;
    if (i >= script.length) break;
    if (script[i] === '#') {
      while (i < script.length && script[i] !== '\n') i++;
      continue;
    }
    let address: Selector | undefined;
    const a1 = readAddress(false);
    if (a1) {
      let a2: Address | undefined;
      if (script[i] === ',') {
        i++;
        skipBlanks();
        a2 = readAddress(true);
        // GNU has read the character that is not an address by the time it complains.
        if (!a2) throw fail("unexpected `,'", Math.min(i + 1, script.length));
      }
      skipBlanks();
      let negate = false;
      while (script[i] === '!' || (negate && (script[i] === ' ' || script[i] === '\t'))) {
        if (script[i] === '!' && negate) {
          i++;
          throw fail("multiple `!'s");
        }
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
    skipBlanks();
    const op = script[i];
    i++;
    if (op === undefined || op === '\n' || op === ';') throw fail('missing command');
    if (address && NO_ADDRESS.has(op)) {
      if (op === '}') throw fail("unexpected `}'");
      throw fail(": doesn't want any addresses");
    }
    if (address?.a2 && ONE_ADDRESS.has(op)) throw fail('command only uses one address');
    switch (op) {
      case '{':
        blocks.push(out.length);
        out.push({ ...(address ? { address } : {}), op });
        continue;
      case '}': {
        const open = blocks.pop();
        if (open === undefined) throw fail("unexpected `}'");
        out.push({ op });
        out[open]!.jump = out.length;
        endOfCommand();
        continue;
      }
      case ':': {
        const label = readLabel();
        if (label === '') throw fail('":" lacks a label');
        if (!labels.has(label)) labels.set(label, out.length);
        if (script[i] === ';') i++;
        continue;
      }
      case 'b':
      case 't':
      case 'T': {
        const label = readLabel();
        out.push({ ...(address ? { address } : {}), op, ...(label ? { label } : {}) });
        endOfCommand();
        continue;
      }
      case 'a':
      case 'i':
      case 'c':
        out.push({ ...(address ? { address } : {}), op, text: readText() });
        continue;
      case 'r':
      case 'w': {
        const file = readFilename();
        if (op === 'w') writeFiles.push(file);
        out.push({ ...(address ? { address } : {}), op, file });
        continue;
      }
      case 'q':
      case 'Q':
      case 'l': {
        const n = readNumber();
        out.push({
          ...(address ? { address } : {}),
          op,
          ...(n === undefined ? {} : op === 'l' ? { width: n } : { exitCode: n }),
        });
        endOfCommand();
        continue;
      }
      case 'd':
      case 'D':
      case 'p':
      case 'P':
      case '=':
      case 'n':
      case 'N':
      case 'h':
      case 'H':
      case 'g':
      case 'G':
      case 'x':
      case 'z':
      case 'F':
        out.push({ ...(address ? { address } : {}), op });
        endOfCommand();
        continue;
      case 'y': {
        const delim = script[i];
        if (delim === undefined || delim === '\n' || delim === '\\') throw fail("unterminated `y' command");
        i++;
        const from = readDelimited(delim);
        const to = from === undefined ? undefined : readDelimited(delim);
        if (from === undefined || to === undefined) throw fail("unterminated `y' command");
        const f = [...gnuEscapes(from).replace(/\\\\/g, '\\')];
        const t = [...gnuEscapes(to).replace(/\\\\/g, '\\')];
        if (f.length !== t.length) throw fail("strings for `y' command are different lengths");
        out.push({ ...(address ? { address } : {}), op, map: new Map(f.map((ch, k) => [ch, t[k]!])) });
        endOfCommand();
        continue;
      }
      case 's':
        break;
      default:
        throw fail(`unknown command: \`${op}'`);
    }
    const delim = script[i];
    if (delim === undefined || delim === '\n' || delim === '\\') throw fail("unterminated `s' command");
    i++;
    const pattern = readDelimited(delim);
    const replacement = pattern === undefined ? undefined : readDelimited(delim);
    if (pattern === undefined || replacement === undefined) throw fail("unterminated `s' command");
    let global = false;
    let print = false;
    let flags = '';
    let occurrence: number | undefined;
    let file: string | undefined;
    flagLoop: while (i < script.length) {
      const f = script[i]!;
      i++;
      switch (f) {
        case 'g':
          if (global) throw fail("multiple `g' options to `s' command");
          global = true;
          break;
        case 'p':
          if (print) throw fail("multiple `p' options to `s' command");
          print = true;
          break;
        case 'i':
        case 'I':
          flags += 'i';
          break;
        case 'm':
        case 'M':
          flags += 'm';
          break;
        case 'w':
          file = readFilename();
          writeFiles.push(file);
          break flagLoop;
        case ' ':
        case '\t':
          break;
        case ';':
        case '\n':
          break flagLoop;
        case '}':
        case '#':
          i--;
          break flagLoop;
        default: {
          if (!/[0-9]/.test(f)) throw fail("unknown option to `s'");
          if (occurrence !== undefined) throw fail("multiple number options to `s' command");
          i--;
          const n = readNumber()!;
          if (n === 0) throw fail("number option to `s' command may not be zero");
          occurrence = n;
        }
      }
    }
    const re = regex(pattern, [...new Set(flags)].join(''));
    out.push({
      ...(address ? { address } : {}),
      op: 's',
      ...(re ? { re } : {}),
      replacement,
      global,
      print,
      ...(occurrence !== undefined ? { occurrence } : {}),
      ...(file !== undefined ? { file } : {}),
    });
  }
  if (blocks.length > 0) throw fail("unmatched `{'", 0);
  for (const c of out)
    if (c.op === 'b' || c.op === 't' || c.op === 'T') {
      if (c.label === undefined) c.jump = out.length;
      else {
        const to = labels.get(c.label);
        if (to === undefined) throw new SedError(`can't find label for jump to \`${c.label}'`, 4);
        c.jump = to;
      }
    }
  return { commands: out, quiet, writeFiles };
}

/**
 * GNU sed's `\n` and `\t` in a regex (the newline N joins lines with, a tab; grep has neither) and
 * `\xHH`.
 */
export function gnuEscapes(src: string): string {
  let out = '';
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    const hex = c === '\\' ? /^x([0-9a-fA-F]{1,2})/.exec(src.slice(i + 1, i + 4)) : null;
    if (hex) {
      // GNU 4.9 substitutes the character before compiling: `\x2e` is any character, like `.`.
      out += String.fromCharCode(parseInt(hex[1]!, 16));
      i += hex[0].length;
    } else if (c === '\\' && (src[i + 1] === 'n' || src[i + 1] === 't')) {
      out += src[i + 1] === 'n' ? '\n' : '\t';
      i++;
    } else if (c === '\\' && i + 1 < src.length) {
      out += c + src[i + 1]!;
      i++;
    } else out += c;
  }
  return out;
}
