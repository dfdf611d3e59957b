/**
 * sed (GNU sed 4.9): `s/regex/replacement/flags` (g, p, N, i/I, m/M, w FILE) with any delimiter, `&`,
 * `\1`–`\9`, `\n` and the case conversions `\U \L \u \l \E` in the replacement; `y/abc/xyz/`; the
 * hold space (`h H g G x`), multi-line commands (`n N P D`), `a`/`i`/`c` TEXT, `r FILE`, `w FILE`
 * (`/dev/stdout`, `/dev/stderr`), `=`, `l [N]`, `q`/`Q [EXIT]`, `z`, labels and branches (`: b t T`)
 * and `{ … }` groups; addresses N, $, /regex/ (or \%regex%, flags I and M), first~step and GNU
 * ranges `A1,A2` (A2 a line, $, /regex/, +N or ~N; `0,/re/`), negated with `!`; `F`. Options -n,
 * -E/-r, -i (edit in place), -s, -z, -l N, -u, --posix (accepted, GNU extensions stay on), repeated -e
 * (joined into one script), --help, --version. Not modelled: -f FILE, `e`, `R`, `W`, `v`, --debug,
 * --sandbox. The script compiler is sed-parse.ts.
 */
import { LimitError, MAX_PIPE_BYTES } from '../limits.ts';
import type { CommandHandler, CommandIO, CommandResult } from '../types.ts';
import { fileErrorText } from '../vfs.ts';
import { parseOptions, readInputs, result, UsageError } from './common.ts';
import { utf8Encode } from '../../util/encoding.ts';
import {
  compileSed,
  SedError,
  type Address,
  type SedCommand,
  type SedProgram,
  type Selector,
} from './sed-parse.ts';

/** Branches and `D` restarts one sed run may take: `:a;ba` or `G;D` loops forever in GNU sed. */
const MAX_SED_JUMPS = 1_000_000;
/** Characters one run may scan with regexes: `:a;s/^/x/;ta` ends no sooner than memory does. */
const MAX_SED_SCAN = 100_000_000;

/** GNU sed 4.9's `usage()`: on stderr after a bad option; --help adds the bug-report address. */
const USAGE_TEXT =
  'Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n' +
  '\n' +
  '  -n, --quiet, --silent\n' +
  '                 suppress automatic printing of pattern space\n' +
  '      --debug\n' +
  '                 annotate program execution\n' +
  '  -e script, --expression=script\n' +
  '                 add the script to the commands to be executed\n' +
  '  -f script-file, --file=script-file\n' +
  '                 add the contents of script-file to the commands to be executed\n' +
  '  --follow-symlinks\n' +
  '                 follow symlinks when processing in place\n' +
  '  -i[SUFFIX], --in-place[=SUFFIX]\n' +
  '                 edit files in place (makes backup if SUFFIX supplied)\n' +
  '  -l N, --line-length=N\n' +
  "                 specify the desired line-wrap length for the `l' command\n" +
  '  --posix\n' +
  '                 disable all GNU extensions.\n' +
  '  -E, -r, --regexp-extended\n' +
  '                 use extended regular expressions in the script\n' +
  '                 (for portability use POSIX -E).\n' +
  '  -s, --separate\n' +
  '                 consider files as separate rather than as a single,\n' +
  '                 continuous long stream.\n' +
  '      --sandbox\n' +
  '                 operate in sandbox mode (disable e/r/w commands).\n' +
  '  -u, --unbuffered\n' +
  '                 load minimal amounts of data from the input files and flush\n' +
  '                 the output buffers more often\n' +
  '  -z, --null-data\n' +
  '                 separate lines by NUL characters\n' +
  '      --help     display this help and exit\n' +
  '      --version  output version information and exit\n' +
  '\n' +
  'If no -e, --expression, -f, or --file option is given, then the first\n' +
  'non-option argument is taken as the sed script to interpret.  All\n' +
  'remaining arguments are names of input files; if no input files are\n' +
  'specified, then the standard input is read.\n' +
  '\n' +
  'GNU sed home page: <https://www.gnu.org/software/sed/>.\n' +
  'General help using GNU software: <https://www.gnu.org/gethelp/>.\n';

/** `sed --version` as Debian 12's sed 4.9 prints it (the kind node image). */
const VERSION_TEXT =
  'sed (GNU sed) 4.9\n' +
  'Packaged by Debian\n' +
  'Copyright (C) 2022 Free Software Foundation, Inc.\n' +
  'License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\n' +
  'This is free software: you are free to change and redistribute it.\n' +
  'There is NO WARRANTY, to the extent permitted by law.\n' +
  '\n' +
  'Written by Jay Fenlason, Tom Lord, Ken Pizzini,\n' +
  'Paolo Bonzini, Jim Meyering, and Assaf Gordon.\n' +
  '\n' +
  'This sed program was built with SELinux support.\n' +
  'SELinux is disabled on this system.\n' +
  '\n' +
  'GNU sed home page: <https://www.gnu.org/software/sed/>.\n' +
  'General help using GNU software: <https://www.gnu.org/gethelp/>.\n' +
  'E-mail bug reports to: <bug-sed@gnu.org>.\n';

/** GNU sed's usage(EXIT_BAD_USAGE) after getopt's complaint. */
class SedUsageError extends Error {}

/** A range's progress (GNU `match_address_p`): open, and the line it ends on when that is known. */
interface RangeState {
  active: boolean;
  endLine?: number;
}

/**
 * One input line; `chomped` false: the input's last line had no newline (with -z: no NUL), so neither
 * does its output. `file`: what `F` prints, `-` for stdin.
 */
interface InputLine {
  readonly text: string;
  readonly chomped: boolean;
  readonly file: string;
}

/** An output stream with GNU's `output_missing_newline`: a line printed without its newline gets one
 * as soon as anything else is printed after it. */
class Output {
  text = '';
  private missing = false;
  /** The line delimiter: a newline, or NUL with -z. */
  private readonly delim: string;
  constructor(delim: string) {
    this.delim = delim;
  }
  write(s: string): void {
    if (this.missing) this.text += this.delim;
    this.missing = false;
    this.text += s;
  }
  pattern(s: string, chomped: boolean): void {
    this.write(s);
    if (chomped) this.text += this.delim;
    else this.missing = true;
  }
}

export const sed: CommandHandler = (argv, io) => {
  try {
    return runSed(argv, io);
  } catch (e) {
    if (e instanceof UsageError || e instanceof SedUsageError)
      return result('', `${e.message ? `sed: ${e.message}\n` : ''}${USAGE_TEXT}`, 1);
    throw e;
  }
};

function runSed(argv: readonly string[], io: CommandIO): CommandResult {
  const { opts, operands } = parseOptions(argv.slice(1), {
    flags: 'nErsiuz',
    values: 'el',
    long: {
      quiet: 'n',
      silent: 'n',
      'regexp-extended': 'E',
      'in-place': 'i',
      separate: 's',
      unbuffered: 'u',
      'null-data': 'z',
      // GNU extensions stay on: what learners type is what GNU sed accepts anyway.
      posix: 'u',
      // Letters no short option uses: only the long spellings reach them.
      help: 'H',
      version: 'V',
      'expression=': 'e',
      'line-length=': 'l',
    },
  });
  if (opts.has('H')) return result(`${USAGE_TEXT}E-mail bug reports to: <bug-sed@gnu.org>.\n`);
  if (opts.has('V')) return result(VERSION_TEXT);
  const scripts = [...(opts.get('e') ?? [])];
  const files = [...operands];
  if (scripts.length === 0) {
    const s = files.shift();
    if (s === undefined) throw new SedUsageError();
    scripts.push(s);
  }
  // GNU reads -l with atoi: `-l 3x` is 3, `-l x` is 0 (no wrapping).
  const lineLength = opts.get('l')?.at(-1);
  let program: SedProgram;
  try {
    program = compileSed(scripts, opts.has('E') || opts.has('r'));
  } catch (e) {
    if (e instanceof SedError) return result('', `sed: ${e.message}\n`, e.exitCode);
    throw e;
  }
  // GNU opens (truncates) every `w` file before reading any input.
  const delim = opts.has('z') ? '\0' : '\n';
  const outputs = new Map<string, Output>();
  for (const f of program.writeFiles) {
    if (f === '/dev/stdout' || f === '/dev/stderr' || outputs.has(f)) continue;
    const err = io.files?.write(f, '');
    if (err) return result('', `sed: couldn't open file ${f}: ${fileErrorText(err)}\n`, 4);
    outputs.set(f, new Output(delim));
  }
  const runner = new SedRun(program, io, {
    quiet: opts.has('n') || program.quiet,
    width: lineLength === undefined ? 70 : parseInt(lineLength, 10) || 0,
    outputs,
    delim,
    inPlace: opts.has('i'),
  });
  let stdout = '';
  let stderr = '';
  let exitCode = 0;
  if (opts.has('i')) {
    if (files.length === 0) return result('', 'sed: no input files\n', 1);
    for (const f of files) {
      if (runner.quit !== undefined) break;
      const read = io.files?.read(f) ?? { error: 'ENOENT' as const };
      if ('error' in read) {
        stderr += `sed: can't read ${f}: ${fileErrorText(read.error)}\n`;
        exitCode = 2;
        continue;
      }
      const out = runner.run([linesOfInput(read.content, f, delim)]);
      const e = io.files!.write(f, out);
      if (e) {
        stderr += `sed: couldn't edit ${f}: ${fileErrorText(e)}\n`;
        exitCode = 4;
      }
    }
  } else {
    const { inputs, errors } = readInputs('sed', io, files);
    const sources = inputs.map((i) => linesOfInput(i.text, i.name, delim));
    stdout = opts.has('s')
      ? sources.map((s) => (runner.quit === undefined ? runner.run([s]) : '')).join('')
      : runner.run(sources);
    if (errors) {
      stderr += errors.replace(/^sed: (.*): /gm, "sed: can't read $1: ");
      exitCode = 2;
    }
  }
  for (const [f, o] of outputs) io.files?.write(f, o.text);
  return {
    stdout: stdout + runner.stdout.text,
    stderr: stderr + runner.stderr.text,
    exitCode: runner.quit ?? exitCode,
  };
}

function linesOfInput(text: string, file: string, delim: string): InputLine[] {
  if (text === '') return [];
  const lines = text.split(delim);
  if (lines.at(-1) === '') lines.pop();
  return lines.map((l, k) => ({ text: l, chomped: k < lines.length - 1 || text.endsWith(delim), file }));
}

interface RunOptions {
  readonly quiet: boolean;
  readonly width: number;
  readonly outputs: ReadonlyMap<string, Output>;
  readonly delim: string;
  /** -i: the main output is the file; `w /dev/stdout` still reaches stdout. */
  readonly inPlace: boolean;
}

/** The state that lives across input files: hold space, ranges, last regex, `w` files, quitting. */
class SedRun {
  private hold = '';
  /** GNU keeps `chomped` with each buffer: `x`, `g`, `G`, `h`, `H` carry it between them. */
  private holdChomped = true;
  private lastRe: RegExp | undefined;
  private jumps = 0;
  private scanned = 0;
  private readonly ranges = new Map<SedCommand, RangeState>();
  /** `w /dev/stdout` output, in -i mode the only stdout there is. */
  readonly stdout: Output;
  readonly stderr: Output;
  /** Set by `q`/`Q`: the exit code. */
  quit: number | undefined;

  private readonly program: SedProgram;
  private readonly io: CommandIO;
  private readonly opts: RunOptions;

  constructor(program: SedProgram, io: CommandIO, opts: RunOptions) {
    this.program = program;
    this.io = io;
    this.opts = opts;
    this.stdout = new Output(opts.delim);
    this.stderr = new Output(opts.delim);
  }

  private outputFor(file: string, main: Output): Output {
    if (file === '/dev/stdout') return this.opts.inPlace ? this.stdout : main;
    if (file === '/dev/stderr') return this.stderr;
    return this.opts.outputs.get(file)!;
  }

  private grow(s: string): string {
    if (s.length > MAX_PIPE_BYTES)
      throw new LimitError('stopped: the sed pattern or hold space grew too large');
    return s;
  }

  private scan(text: string): void {
    this.scanned += text.length + 1;
    if (this.scanned > MAX_SED_SCAN)
      throw new LimitError(`stopped: a sed script scanned more than ${MAX_SED_SCAN} characters`);
  }

  private jumped(): void {
    if (++this.jumps > MAX_SED_JUMPS)
      throw new LimitError(`stopped: a sed loop ran more than ${MAX_SED_JUMPS} times`);
  }

  /** Runs the script over the lines of `sources` (one stream: line numbers and `$` span them all). */
  run(sources: readonly InputLine[][]): string {
    const lines = sources.flat();
    const out = new Output(this.opts.delim);
    const nl = this.opts.delim;
    let file = '-';
    const cmds = this.program.commands;
    const total = lines.length;
    let next = 0;
    let ps = '';
    let chomped = true;
    let appended: { text?: string; file?: string }[] = [];
    let substituted = false;
    const dumpAppended = () => {
      for (const a of appended) {
        if (a.text !== undefined) out.write(a.text);
        else {
          const read = this.io.files?.read(a.file!);
          if (read && 'content' in read && read.content !== '') out.write(read.content);
        }
      }
      appended = [];
    };
    /** GNU `read_pattern_space`: the queued `a`/`r` text goes out before a line is read. */
    const readLine = (append: boolean): boolean => {
      dumpAppended();
      substituted = false;
      if (next >= total) return false;
      const l = lines[next++]!;
      ps = append ? this.grow(`${ps}${nl}${l.text}`) : l.text;
      chomped = l.chomped;
      file = l.file;
      return true;
    };
    // -s and -i: each file starts afresh (GNU `reset_at_next_file`).
    this.hold = '';
    this.ranges.clear();
    while (this.quit === undefined) {
      if (!readLine(false)) break;
      let autoprint = !this.opts.quiet;
      let pc = 0;
      cycle: while (pc < cmds.length) {
        const c = cmds[pc]!;
        pc++;
        let rangeEnded = true;
        if (c.address) {
          let st = this.ranges.get(c);
          if (!st) this.ranges.set(c, (st = { active: c.address.a1.kind === 'zero' }));
          if (this.selects(c.address, st, ps, next, total) === c.address.negate) {
            if (c.op === '{') pc = c.jump!;
            continue;
          }
          rangeEnded = !c.address.a2 || c.address.negate || !st.active;
        }
        switch (c.op) {
          case '{':
          case '}':
            break;
          case 'd':
            autoprint = false;
            break cycle;
          case 'D': {
            const at = ps.indexOf(nl);
            if (at < 0) {
              autoprint = false;
              break cycle;
            }
            // The cycle restarts on what is left, without reading a line or printing the queue.
            ps = ps.slice(at + 1);
            this.jumped();
            pc = 0;
            break;
          }
          case 'p':
            out.pattern(ps, chomped);
            break;
          case 'P': {
            const at = ps.indexOf(nl);
            if (at >= 0) out.write(ps.slice(0, at + 1));
            else out.pattern(ps, chomped);
            break;
          }
          case 'q':
            this.quit = c.exitCode ?? 0;
            break cycle;
          case 'Q':
            this.quit = c.exitCode ?? 0;
            return out.text;
          case 'n':
            // No next line: GNU ends here (printing the pattern space, unless -n) without running the rest.
            if (next >= total) break cycle;
            if (!this.opts.quiet) out.pattern(ps, chomped);
            readLine(false);
            break;
          case 'N':
            if (next >= total) break cycle;
            readLine(true);
            break;
          case '=':
            out.write(`${next}\n`);
            break;
          case 'F':
            out.write(`${file}\n`);
            break;
          case 'l':
            out.write(listText(ps, c.width ?? this.opts.width));
            break;
          case 'i':
            out.write(c.text!);
            break;
          case 'a':
            appended.push({ text: c.text! });
            break;
          case 'r':
            appended.push({ file: c.file! });
            break;
          case 'w':
            this.outputFor(c.file!, out).pattern(ps, chomped);
            break;
          case 'c':
            // A range is changed as a whole: its text prints once, at the range's last line.
            if (rangeEnded) out.write(c.text!);
            autoprint = false;
            break cycle;
          case 'h':
            this.hold = ps;
            this.holdChomped = chomped;
            break;
          case 'H':
            this.hold = this.grow(`${this.hold}${nl}${ps}`);
            this.holdChomped = chomped;
            break;
          case 'g':
            ps = this.hold;
            chomped = this.holdChomped;
            break;
          case 'G':
            ps = this.grow(`${ps}${nl}${this.hold}`);
            chomped = this.holdChomped;
            break;
          case 'x':
            [ps, this.hold] = [this.hold, ps];
            [chomped, this.holdChomped] = [this.holdChomped, chomped];
            break;
          case 'z':
            ps = '';
            break;
          case 'y':
            ps = [...ps].map((ch) => c.map!.get(ch) ?? ch).join('');
            break;
          case 's': {
            const re = c.re ?? this.lastRe;
            this.lastRe = re;
            this.scan(ps);
            const replaced = re ? substitute(ps, re, c) : undefined;
            if (replaced !== undefined) {
              ps = this.grow(replaced);
              substituted = true;
              if (c.print) out.pattern(ps, chomped);
              if (c.file !== undefined) this.outputFor(c.file, out).pattern(ps, chomped);
            }
            break;
          }
          case 'b':
          case 't':
          case 'T': {
            const take = c.op === 'b' || (c.op === 't') === substituted;
            if (c.op !== 'b') substituted = false;
            if (take) {
              if (c.jump! <= pc) this.jumped();
              pc = c.jump!;
            }
            break;
          }
          case ':':
            break;
        }
      }
      if (autoprint) out.pattern(ps, chomped);
      if (this.quit !== undefined) dumpAppended();
    }
    dumpAppended();
    return out.text;
  }

  private matches(a: Address, line: string, n: number, total: number): boolean {
    switch (a.kind) {
      case 'line':
        return n === a.n;
      case 'last':
        return n === total;
      case 'regex': {
        const re = a.re ?? this.lastRe;
        this.lastRe = re;
        if (!re) return false;
        this.scan(line);
        re.lastIndex = 0;
        return re.test(line);
      }
      case 'step':
        return a.step <= 0 ? n === a.first : n >= a.first && (n - a.first) % a.step === 0;
      default:
        return false;
    }
  }

  /** GNU sed's `match_address_p`: whether the selector picks line `n` (before `!`), advancing its range. */
  private selects(sel: Selector, st: RangeState, line: string, n: number, total: number): boolean {
    const end = sel.a2;
    if (!end) return this.matches(sel.a1, line, n, total);
    if (st.active) {
      // Inside the range: this line is selected; does it close the range?
      if (end.kind === 'regex' || end.kind === 'last') {
        if (this.matches(end, line, n, total)) st.active = false;
      } else if (st.endLine === undefined || n >= st.endLine) st.active = false;
      return true;
    }
    if (!this.matches(sel.a1, line, n, total)) return false;
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
}

const LIST_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
};

/** GNU `do_list`: escapes, other unprintable bytes as `\ooo` (UTF-8 bytes), wrapped before `width`. */
function listText(ps: string, width: number): string {
  let out = '';
  let col = 0;
  for (const ch of ps) {
    let unit = LIST_ESCAPES[ch];
    if (unit === undefined) {
      const code = ch.codePointAt(0)!;
      if (code >= 0x20 && code < 0x7f) unit = ch;
      else
        // A lone surrogate has no UTF-8 form; GNU would see the bytes of U+FFFD, as utf8Encode writes.
        unit = Array.from(utf8Encode(ch), (b) => `\\${b.toString(8).padStart(3, '0')}`).join('');
    }
    if (width > 1 && col + unit.length > width - 1) {
      out += '\\\n';
      col = 0;
    } else if (width === 1) out += '\\\n';
    out += unit;
    col += unit.length;
  }
  return `${out}$\n`;
}

/** GNU sed's matching loop: an empty match right after the previous match is skipped. */
function substitute(line: string, regex: RegExp, c: SedCommand): string | undefined {
  const re = new RegExp(regex.source, `${regex.flags.replace('g', '')}g`);
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

/** The replacement with `&`, `\N` and GNU's case conversions: `\U`/`\L` until `\E`, `\u`/`\l` one letter. */
function expandReplacement(repl: string, m: RegExpExecArray): string {
  let out = '';
  let mode: 'U' | 'L' | undefined;
  let once: 'u' | 'l' | undefined;
  const add = (s: string) => {
    for (const ch of s) {
      let c = mode === 'U' ? ch.toUpperCase() : mode === 'L' ? ch.toLowerCase() : ch;
      if (once) {
        c = once === 'u' ? c.toUpperCase() : c.toLowerCase();
        once = undefined;
      }
      out += c;
    }
  };
  for (let i = 0; i < repl.length; i++) {
    const ch = repl[i]!;
    if (ch === '&') add(m[0]);
    else if (ch === '\\' && i + 1 < repl.length) {
      const n = repl[++i]!;
      if (/[0-9]/.test(n)) add(m[Number(n)] ?? '');
      else if (n === 'n') add('\n');
      else if (n === 't') add('\t');
      else if (n === 'U' || n === 'L') {
        mode = n;
        once = undefined;
      } else if (n === 'E') {
        mode = undefined;
        once = undefined;
      } else if (n === 'u' || n === 'l') once = n;
      else add(n);
    } else add(ch);
  }
  return out;
}
