/**
 * `test` / `[`: the POSIX operand forms (XCU test: 0–4 arguments decide the grammar) plus bash's
 * `-a`/`-o` and parentheses. Files are checked in the session's filesystem.
 */
import type { Filesystem } from './vfs.ts';

export class TestError extends Error {}

export function evaluateTest(
  args: readonly string[],
  fs: Filesystem,
  resolve: (p: string) => string,
): boolean {
  const p = new TestParser(args, fs, resolve);
  const v = p.or();
  if (p.pos < args.length)
    throw new TestError(args.length > 3 ? 'too many arguments' : `${args[p.pos]}: unary operator expected`);
  return v;
}

const UNARY = new Set(['-n', '-z', '-e', '-f', '-d', '-s', '-r', '-w', '-x', '-L', '-h', '-a']);
const BINARY = new Set(['=', '==', '!=', '<', '>', '-eq', '-ne', '-lt', '-le', '-gt', '-ge']);

class TestParser {
  pos = 0;
  private readonly args: readonly string[];
  private readonly fs: Filesystem;
  private readonly resolve: (p: string) => string;

  constructor(args: readonly string[], fs: Filesystem, resolve: (p: string) => string) {
    this.args = args;
    this.fs = fs;
    this.resolve = resolve;
  }

  or(): boolean {
    let v = this.and();
    while (this.args[this.pos] === '-o' && this.pos + 1 < this.args.length) {
      this.pos++;
      const r = this.and();
      v = v || r;
    }
    return v;
  }

  private and(): boolean {
    let v = this.not();
    while (this.args[this.pos] === '-a' && this.pos + 1 < this.args.length) {
      this.pos++;
      const r = this.not();
      v = v && r;
    }
    return v;
  }

  private not(): boolean {
    const remaining = this.args.length - this.pos;
    if (this.args[this.pos] === '!' && remaining > 1) {
      this.pos++;
      return !this.not();
    }
    return this.primary();
  }

  private primary(): boolean {
    const a = this.args[this.pos];
    if (a === undefined) return false;
    const b = this.args[this.pos + 1];
    const c = this.args[this.pos + 2];
    if (a === '(' && this.args.length - this.pos > 2) {
      this.pos++;
      const v = this.or();
      if (this.args[this.pos] !== ')') throw new TestError("`)' expected");
      this.pos++;
      return v;
    }
    if (b !== undefined && BINARY.has(b) && c !== undefined) {
      this.pos += 3;
      return binary(a, b, c);
    }
    if (UNARY.has(a) && b !== undefined) {
      this.pos += 2;
      return this.unary(a, b);
    }
    if (b !== undefined && b !== '-a' && b !== '-o' && b !== ')') {
      if (c === undefined || (a.startsWith('-') && !UNARY.has(a)))
        throw new TestError(`${a}: unary operator expected`);
      throw new TestError(c === undefined ? `${b}: binary operator expected` : 'too many arguments');
    }
    this.pos++;
    return a !== '';
  }

  private unary(op: string, arg: string): boolean {
    switch (op) {
      case '-n':
        return arg !== '';
      case '-z':
        return arg === '';
      case '-L':
      case '-h':
        return false;
    }
    const path = this.resolve(arg);
    const kind = this.fs.stat(path);
    switch (op) {
      case '-d':
        return kind === 'dir';
      case '-f':
        return kind === 'file';
      case '-s': {
        if (kind === 'dir') return true;
        const r = this.fs.read(path);
        return 'content' in r && r.content.length > 0;
      }
      default:
        return kind !== undefined;
    }
  }
}

function integer(s: string): number {
  if (!/^\s*[-+]?\d+\s*$/.test(s)) throw new TestError(`${s}: integer expression expected`);
  return Number(s.trim());
}

function binary(a: string, op: string, b: string): boolean {
  switch (op) {
    case '=':
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '>':
      return a > b;
  }
  const x = integer(a);
  const y = integer(b);
  switch (op) {
    case '-eq':
      return x === y;
    case '-ne':
      return x !== y;
    case '-lt':
      return x < y;
    case '-le':
      return x <= y;
    case '-gt':
      return x > y;
    default:
      return x >= y;
  }
}
