/**
 * awk (the subset parsed by `awk-parse.ts`): -F FS, -v NAME=VALUE, program text or -f FILE. Records
 * are lines; fields split on runs of blanks (FS " "), on a single character, or on a regular
 * expression. Numbers print as integers when whole, otherwise with OFMT %.6g; `for (k in a)` visits
 * keys in sorted order so output is deterministic.
 */
import type { CommandHandler } from '../types.ts';
import { linesOf, parseOptions, readInputs, result, withUsage } from './common.ts';
import { AwkSyntaxError, parseAwk, type Expr, type Item, type Stmt } from './awk-parse.ts';
import { posixToJs, RegexSyntaxError } from './regex.ts';
import { formatPrintf } from '../printf-format.ts';
import { LimitError, MAX_LOOP_ITERATIONS } from '../limits.ts';

/** awk values: numbers, strings, and strnums (input that looks numeric compares as a number). */
type Value = { k: 'num'; n: number } | { k: 'str'; s: string } | { k: 'strnum'; s: string };

const NUMERIC = /^\s*[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?)\s*$/;

function strnum(s: string): Value {
  return NUMERIC.test(s) ? { k: 'strnum', s } : { k: 'str', s };
}

function num(v: Value): number {
  if (v.k === 'num') return v.n;
  const m = /^\s*[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+)/.exec(v.s);
  return m ? Number(m[0]) : 0;
}

function fmtNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return formatPrintf('%.6g', [String(n)]).text;
}

function str(v: Value): string {
  return v.k === 'num' ? fmtNumber(v.n) : v.s;
}

function truthy(v: Value): boolean {
  if (v.k === 'num') return v.n !== 0;
  if (v.k === 'strnum') return num(v) !== 0;
  return v.s !== '';
}

class NextSignal {}
class ExitAwk {
  readonly code: number;
  constructor(code: number) {
    this.code = code;
  }
}

class AwkRuntime {
  readonly vars = new Map<string, Value>();
  readonly arrays = new Map<string, Map<string, Value>>();
  fields: string[] = [''];
  out = '';
  private readonly regexCache = new Map<string, RegExp>();

  constructor(fs: string) {
    this.vars.set('FS', { k: 'str', s: fs });
    this.vars.set('OFS', { k: 'str', s: ' ' });
    this.vars.set('ORS', { k: 'str', s: '\n' });
    this.vars.set('NR', { k: 'num', n: 0 });
    this.vars.set('NF', { k: 'num', n: 0 });
    this.vars.set('SUBSEP', { k: 'str', s: '\x1c' });
  }

  regex(src: string): RegExp {
    let re = this.regexCache.get(src);
    if (!re) {
      re = new RegExp(posixToJs(src, true));
      this.regexCache.set(src, re);
    }
    return re;
  }

  setRecord(line: string): void {
    this.fields = [line, ...this.split(line, str(this.vars.get('FS')!))];
    this.vars.set('NF', { k: 'num', n: this.fields.length - 1 });
  }

  split(text: string, fs: string): string[] {
    if (fs === ' ') return text.split(/[ \t\n]+/).filter((f) => f !== '');
    if (text === '') return [];
    if (fs.length === 1 && fs !== '\\') return text.split(fs);
    return text.split(new RegExp(posixToJs(fs, true)));
  }

  getField(i: number): Value {
    if (i < 0) throw new AwkRuntimeError(`trying to access out of range field ${i}`);
    return strnum(this.fields[i] ?? '');
  }

  setField(i: number, v: string): void {
    if (i === 0) {
      this.setRecord(v);
      return;
    }
    while (this.fields.length <= i) this.fields.push('');
    this.fields[i] = v;
    this.vars.set('NF', { k: 'num', n: this.fields.length - 1 });
    this.fields[0] = this.fields.slice(1).join(str(this.vars.get('OFS')!));
  }

  array(name: string): Map<string, Value> {
    let a = this.arrays.get(name);
    if (!a) this.arrays.set(name, (a = new Map()));
    return a;
  }

  run(items: readonly Item[], lines: readonly string[]): number {
    try {
      for (const item of items) if (item.pattern === 'BEGIN') this.block(item.action ?? []);
      let nr = 0;
      for (const line of lines) {
        this.vars.set('NR', { k: 'num', n: ++nr });
        this.setRecord(line);
        try {
          for (const item of items) {
            if (item.pattern === 'BEGIN' || item.pattern === 'END') continue;
            if (item.pattern !== undefined && !this.matchPattern(item.pattern)) continue;
            if (item.action) this.block(item.action);
            else this.emit(`${this.fields[0]}${str(this.vars.get('ORS')!)}`);
          }
        } catch (e) {
          if (!(e instanceof NextSignal)) throw e;
        }
      }
      for (const item of items) if (item.pattern === 'END') this.block(item.action ?? []);
      return 0;
    } catch (e) {
      if (e instanceof ExitAwk) return e.code;
      throw e;
    }
  }

  private matchPattern(p: Expr): boolean {
    if (p.t === 're') return this.regex(p.v).test(this.fields[0]!);
    return truthy(this.eval(p));
  }

  private emit(text: string): void {
    this.out += text;
    if (this.out.length > 16 * 1024 * 1024) throw new LimitError('stopped: awk printed more than 16 MiB');
  }

  private block(stmts: readonly Stmt[]): void {
    for (const s of stmts) this.exec(s);
  }

  private exec(s: Stmt): void {
    switch (s.t) {
      case 'print': {
        const parts =
          s.args.length === 0 ? [this.fields[0]!] : s.args.map((a) => this.outputString(this.eval(a)));
        this.emit(parts.join(str(this.vars.get('OFS')!)) + str(this.vars.get('ORS')!));
        return;
      }
      case 'printf': {
        if (s.args.length === 0) throw new AwkRuntimeError('printf: no format');
        const [fmt, ...rest] = s.args.map((a) => this.eval(a));
        this.emit(
          formatPrintf(
            str(fmt!),
            rest.map((v) => str(v)),
          ).text,
        );
        return;
      }
      case 'expr':
        this.eval(s.e);
        return;
      case 'if':
        if (truthy(this.eval(s.c))) this.exec(s.then);
        else if (s.else) this.exec(s.else);
        return;
      case 'while': {
        let n = 0;
        while (truthy(this.eval(s.c))) {
          if (++n > MAX_LOOP_ITERATIONS)
            throw new LimitError(`stopped: an awk loop ran more than ${MAX_LOOP_ITERATIONS} times`);
          this.exec(s.body);
        }
        return;
      }
      case 'for': {
        if (s.init) this.eval(s.init);
        let n = 0;
        while (!s.c || truthy(this.eval(s.c))) {
          if (++n > MAX_LOOP_ITERATIONS)
            throw new LimitError(`stopped: an awk loop ran more than ${MAX_LOOP_ITERATIONS} times`);
          this.exec(s.body);
          if (s.step) this.eval(s.step);
        }
        return;
      }
      case 'forin':
        for (const key of [...this.array(s.name).keys()].sort()) {
          this.vars.set(s.key, strnum(key));
          this.exec(s.body);
        }
        return;
      case 'block':
        this.block(s.body);
        return;
      case 'next':
        throw new NextSignal();
      case 'exit':
        throw new ExitAwk(s.e ? Math.trunc(num(this.eval(s.e))) : 0);
    }
  }

  private outputString(v: Value): string {
    return v.k === 'num' ? fmtNumber(v.n) : v.s;
  }

  private assign(target: Expr, v: Value): Value {
    if (target.t === 'var') {
      if (target.name === 'NF') {
        const n = Math.max(0, Math.trunc(num(v)));
        this.fields = this.fields.slice(0, n + 1);
        while (this.fields.length < n + 1) this.fields.push('');
        this.fields[0] = this.fields.slice(1).join(str(this.vars.get('OFS')!));
      }
      this.vars.set(target.name, v);
    } else if (target.t === 'field') this.setField(Math.trunc(num(this.eval(target.e))), str(v));
    else if (target.t === 'index') this.array(target.name).set(str(this.eval(target.key)), v);
    return v;
  }

  eval(e: Expr): Value {
    switch (e.t) {
      case 'num':
        return { k: 'num', n: e.v };
      case 'str':
        return { k: 'str', s: e.v };
      case 're':
        return { k: 'num', n: this.regex(e.v).test(this.fields[0]!) ? 1 : 0 };
      case 'var':
        return this.vars.get(e.name) ?? { k: 'strnum', s: '' };
      case 'index':
        return this.array(e.name).get(str(this.eval(e.key))) ?? { k: 'strnum', s: '' };
      case 'field':
        return this.getField(Math.trunc(num(this.eval(e.e))));
      case 'in':
        return { k: 'num', n: this.array(e.name).has(str(this.eval(e.key))) ? 1 : 0 };
      case 'match': {
        const re = e.re.t === 're' ? this.regex(e.re.v) : this.regex(str(this.eval(e.re)));
        const hit = re.test(str(this.eval(e.e)));
        return { k: 'num', n: hit !== e.negate ? 1 : 0 };
      }
      case 'cond':
        return truthy(this.eval(e.c)) ? this.eval(e.a) : this.eval(e.b);
      case 'un': {
        const v = this.eval(e.e);
        return { k: 'num', n: e.op === '!' ? (truthy(v) ? 0 : 1) : e.op === '-' ? -num(v) : num(v) };
      }
      case 'assign': {
        if (e.op === '=') return this.assign(e.target, this.copy(this.eval(e.e)));
        const cur = num(this.eval(e.target));
        const rhs = num(this.eval(e.e));
        return this.assign(e.target, { k: 'num', n: arith(e.op.slice(0, 1), cur, rhs) });
      }
      case 'incdec': {
        const cur = num(this.eval(e.target));
        const next = e.op === '++' ? cur + 1 : cur - 1;
        this.assign(e.target, { k: 'num', n: next });
        return { k: 'num', n: e.prefix ? next : cur };
      }
      case 'bin':
        return this.binary(e.op, e.a, e.b);
      case 'call':
        return this.call(e.name, e.args);
    }
  }

  private copy(v: Value): Value {
    return { ...v };
  }

  private binary(op: string, a: Expr, b: Expr): Value {
    if (op === '&&') return { k: 'num', n: truthy(this.eval(a)) && truthy(this.eval(b)) ? 1 : 0 };
    if (op === '||') return { k: 'num', n: truthy(this.eval(a)) || truthy(this.eval(b)) ? 1 : 0 };
    const x = this.eval(a);
    const y = this.eval(b);
    if (op === 'concat') return { k: 'str', s: str(x) + str(y) };
    if (['<', '<=', '==', '!=', '>', '>='].includes(op)) {
      const numeric = x.k !== 'str' && y.k !== 'str';
      const c = numeric ? num(x) - num(y) : str(x) < str(y) ? -1 : str(x) > str(y) ? 1 : 0;
      const r =
        op === '<'
          ? c < 0
          : op === '<='
            ? c <= 0
            : op === '=='
              ? c === 0
              : op === '!='
                ? c !== 0
                : op === '>'
                  ? c > 0
                  : c >= 0;
      return { k: 'num', n: r ? 1 : 0 };
    }
    return { k: 'num', n: arith(op, num(x), num(y)) };
  }

  private call(name: string, args: readonly Expr[]): Value {
    const arg = (i: number) => (args[i] ? this.eval(args[i]!) : undefined);
    switch (name) {
      case 'length':
        return {
          k: 'num',
          n:
            args.length === 0
              ? this.fields[0]!.length
              : args[0]!.t === 'var' && this.arrays.has((args[0] as { name: string }).name)
                ? this.array((args[0] as { name: string }).name).size
                : str(arg(0)!).length,
        };
      case 'substr': {
        const s = str(arg(0) ?? { k: 'str', s: '' });
        const m = Math.round(num(arg(1) ?? { k: 'num', n: 1 }));
        const n = args[2] ? Math.round(num(arg(2)!)) : Infinity;
        const start = Math.max(m, 1);
        const end = n === Infinity ? s.length + 1 : m + n;
        return { k: 'str', s: end <= start ? '' : s.slice(start - 1, end - 1) };
      }
      case 'index':
        return { k: 'num', n: str(arg(0)!).indexOf(str(arg(1) ?? { k: 'str', s: '' })) + 1 };
      case 'split': {
        const target = args[1];
        if (!target || target.t !== 'var')
          throw new AwkRuntimeError('split: second argument must be an array name');
        const parts = this.split(str(arg(0)!), args[2] ? str(arg(2)!) : str(this.vars.get('FS')!));
        const a = this.array(target.name);
        a.clear();
        parts.forEach((p, i) => a.set(String(i + 1), strnum(p)));
        return { k: 'num', n: parts.length };
      }
      case 'sub':
      case 'gsub': {
        const reExpr = args[0];
        if (!reExpr) throw new AwkRuntimeError(`${name}: missing arguments`);
        const re = reExpr.t === 're' ? this.regex(reExpr.v) : this.regex(str(this.eval(reExpr)));
        const repl = str(arg(1) ?? { k: 'str', s: '' });
        const target = args[2] ?? ({ t: 'field', e: { t: 'num', v: 0 } } as Expr);
        const text = str(this.eval(target));
        let count = 0;
        const out = text.replace(new RegExp(re.source, 'g'), (m) => {
          if (name === 'sub' && count > 0) return m;
          count++;
          return repl.replace(/\\&|&/g, (x) => (x === '&' ? m : '&'));
        });
        if (count > 0) this.assign(target, { k: 'str', s: out });
        return { k: 'num', n: count };
      }
      case 'toupper':
        return { k: 'str', s: str(arg(0) ?? { k: 'str', s: '' }).toUpperCase() };
      case 'tolower':
        return { k: 'str', s: str(arg(0) ?? { k: 'str', s: '' }).toLowerCase() };
      case 'sprintf': {
        const [fmt, ...rest] = args.map((a) => this.eval(a));
        return { k: 'str', s: formatPrintf(str(fmt ?? { k: 'str', s: '' }), rest.map(str)).text };
      }
      case 'int':
        return { k: 'num', n: Math.trunc(num(arg(0) ?? { k: 'num', n: 0 })) };
      case 'match': {
        const reExpr = args[1];
        const re = reExpr?.t === 're' ? this.regex(reExpr.v) : this.regex(str(arg(1) ?? { k: 'str', s: '' }));
        const m = re.exec(str(arg(0)!));
        this.vars.set('RSTART', { k: 'num', n: m ? m.index + 1 : 0 });
        this.vars.set('RLENGTH', { k: 'num', n: m ? m[0].length : -1 });
        return { k: 'num', n: m ? m.index + 1 : 0 };
      }
    }
    throw new AwkRuntimeError(`function ${name} never defined`);
  }
}

class AwkRuntimeError extends Error {}

function arith(op: string, a: number, b: number): number {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '^':
      return a ** b;
    case '/':
      if (b === 0) throw new AwkRuntimeError('division by zero');
      return a / b;
    default:
      if (b === 0) throw new AwkRuntimeError('division by zero in %');
      return a % b;
  }
}

function unescapeFs(fs: string): string {
  if (fs === 't' || fs === '\\t') return '\t';
  return fs.replace(/\\t/g, '\t').replace(/\\n/g, '\n').replace(/\\\\/g, '\\');
}

export const awk: CommandHandler = (argv, io) =>
  withUsage('awk', '', 2, () => {
    const { opts, operands } = parseOptions(argv.slice(1), { values: 'Fvf', stopAtOperand: true });
    let program = operands.shift();
    const progFile = opts.get('f')?.[0];
    if (progFile !== undefined) {
      if (program !== undefined) operands.unshift(program);
      const read = io.files?.read(progFile);
      if (!read || 'error' in read) return result('', `awk: couldn't open file ${progFile}\n`, 2);
      program = read.content;
    }
    if (program === undefined)
      return result('', "usage: awk [-F value] [-v var=value] [--] 'program text' [file ...]\n", 2);
    let items: Item[];
    try {
      items = parseAwk(program);
    } catch (e) {
      if (e instanceof AwkSyntaxError) return result('', `awk: line 1: ${e.message}\n`, 2);
      if (e instanceof RegexSyntaxError)
        return result('', `awk: line 1: regular expression compile failed (${e.message})\n`, 2);
      throw e;
    }
    const rt = new AwkRuntime(unescapeFs(opts.get('F')?.at(-1) ?? ' '));
    for (const assignment of opts.get('v') ?? []) {
      const eq = assignment.indexOf('=');
      if (eq <= 0) return result('', `awk: improper assignment: -v ${assignment}\n`, 2);
      rt.vars.set(
        assignment.slice(0, eq),
        strnum(
          assignment
            .slice(eq + 1)
            .replace(/\\n/g, '\n')
            .replace(/\\t/g, '\t'),
        ),
      );
    }
    const onlyBegin = items.every((i) => i.pattern === 'BEGIN');
    const { inputs, errors } = onlyBegin ? { inputs: [], errors: '' } : readInputs('awk', io, operands);
    if (errors)
      return result(
        '',
        errors.replace(
          /^awk: (.*): No such file or directory$/gm,
          'awk: cannot open $1 (No such file or directory)',
        ),
        2,
      );
    const lines = inputs.flatMap((i) => linesOf(i.text));
    try {
      const code = rt.run(items, lines);
      return result(rt.out, '', code);
    } catch (e) {
      if (e instanceof AwkRuntimeError) return result(rt.out, `awk: run time error: ${e.message}\n`, 2);
      if (e instanceof RegexSyntaxError)
        return result(rt.out, `awk: run time error: regular expression compile failed (${e.message})\n`, 2);
      throw e;
    }
  });
