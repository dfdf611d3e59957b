/**
 * A recursive-descent parser for the shell subset (POSIX XCU 2.3–2.10 plus the bash forms learners
 * use: `|&`, `&>`, `<<<`, `$'…'`). Here-document bodies are read when the parser consumes the newline
 * that ends their line, as real shells do, so a pasted `cat <<EOF | kubectl apply -f -` block parses
 * in one go. Errors say whether more input would complete the line (the terminal then shows `> `).
 */
import type {
  AndOr,
  Assignment,
  Command,
  HereDoc,
  List,
  ParamOp,
  Pipeline,
  Redirect,
  RedirOp,
  Word,
  WordPart,
} from './syntax.ts';

/** Nesting deeper than this (subshells, `$(…)`, loops) is refused instead of exhausting the stack. */
export const MAX_NESTING = 64;
export const MAX_PIPELINE = 64;

export type SyntaxProblem =
  | { readonly kind: 'eof-quote'; readonly quote: string }
  | { readonly kind: 'eof' }
  | { readonly kind: 'token'; readonly token: string }
  | { readonly kind: 'unsupported'; readonly what: string }
  | { readonly kind: 'too-deep' }
  | { readonly kind: 'identifier'; readonly name: string };

export class ShellSyntaxError extends Error {
  readonly problem: SyntaxProblem;
  constructor(problem: SyntaxProblem) {
    super(problem.kind);
    this.name = 'ShellSyntaxError';
    this.problem = problem;
  }

  /** True when more input could complete the line (the terminal's `> ` continuation prompt). */
  get incomplete(): boolean {
    return this.problem.kind === 'eof' || this.problem.kind === 'eof-quote';
  }
}

export interface ParsedProgram {
  readonly list: List;
  /** Here-documents that ran into the end of input (bash warns and goes on). */
  readonly heredocWarnings: readonly { readonly line: number; readonly delimiter: string }[];
}

export function parseProgram(src: string): ParsedProgram {
  const p = new Parser(src, 0);
  return { list: p.program(), heredocWarnings: p.heredocWarnings };
}

const META = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);
const OPERATORS = [
  ';;',
  '&&',
  '||',
  '|&',
  '&>>',
  '&>',
  '>>',
  '>|',
  '>&',
  '<<<',
  '<<-',
  '<<',
  '<&',
  '<>',
  ';',
  '&',
  '|',
  '(',
  ')',
  '<',
  '>',
];
const REDIRECT_OPS: ReadonlySet<string> = new Set([
  '<',
  '>',
  '>>',
  '>|',
  '<>',
  '>&',
  '<&',
  '&>',
  '&>>',
  '<<',
  '<<-',
  '<<<',
]);
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ASSIGN_RE = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=/;

class Parser {
  private pos = 0;
  private line = 1;
  private readonly src: string;
  private readonly depth: number;
  private nesting = 0;
  private pending: { doc: HereDoc; line: number }[] = [];
  readonly heredocWarnings: { line: number; delimiter: string }[] = [];

  constructor(src: string, depth: number) {
    this.src = src;
    this.depth = depth;
  }

  program(): List {
    const list = this.compoundList(new Set(), false);
    this.skipBlanks();
    if (this.pos < this.src.length) throw new ShellSyntaxError({ kind: 'token', token: this.peekToken() });
    for (const { doc, line } of this.pending) {
      doc.body = { parts: [{ type: 'text', value: '', quoted: true }], raw: '' };
      this.heredocWarnings.push({ line, delimiter: doc.delimiter });
    }
    this.pending = [];
    return list;
  }

  // ---- lists and pipelines -------------------------------------------------------------------

  private compoundList(endWords: ReadonlySet<string>, endParen: boolean): AndOr[] {
    const items: AndOr[] = [];
    for (;;) {
      this.skipSpaceAndNewlines();
      if (this.eof()) break;
      if (endParen && this.src[this.pos] === ')') break;
      if (this.atReserved(endWords)) break;
      const item = this.andOr();
      this.skipBlanks();
      const op = this.peekOperator();
      if (op === ';' || op === '&') {
        this.pos++;
        items.push({ ...item, background: op === '&' });
        continue;
      }
      items.push(item);
      if (this.src[this.pos] !== '\n') break;
    }
    return items;
  }

  private andOr(): AndOr {
    const first = this.pipeline();
    const rest: { op: '&&' | '||'; pipeline: Pipeline }[] = [];
    for (;;) {
      this.skipBlanks();
      const op = this.peekOperator();
      if (op !== '&&' && op !== '||') break;
      this.pos += 2;
      this.skipSpaceAndNewlines();
      rest.push({ op, pipeline: this.pipeline() });
    }
    return { first, rest, background: false };
  }

  private pipeline(): Pipeline {
    this.skipBlanks();
    let negate = false;
    if (this.atReserved(new Set(['!']))) {
      this.pos++;
      negate = true;
    }
    const commands: Command[] = [this.command()];
    const pipeStderr: boolean[] = [];
    for (;;) {
      this.skipBlanks();
      const op = this.peekOperator();
      if (op !== '|' && op !== '|&') break;
      this.pos += op.length;
      pipeStderr.push(op === '|&');
      this.skipSpaceAndNewlines();
      if (commands.length >= MAX_PIPELINE)
        throw new ShellSyntaxError({
          kind: 'unsupported',
          what: `pipelines longer than ${MAX_PIPELINE} commands`,
        });
      commands.push(this.command());
    }
    pipeStderr.push(false);
    return { negate, commands, pipeStderr };
  }

  // ---- commands --------------------------------------------------------------------------------

  private command(): Command {
    this.skipBlanks();
    if (this.eof()) throw new ShellSyntaxError({ kind: 'eof' });
    if (this.nesting + this.depth >= MAX_NESTING) throw new ShellSyntaxError({ kind: 'too-deep' });
    this.nesting++;
    try {
      return this.commandInner();
    } finally {
      this.nesting--;
    }
  }

  private commandInner(): Command {
    if (this.src[this.pos] === '(') {
      this.pos++;
      const body = this.compoundList(new Set(), true);
      this.expectChar(')', body.length === 0);
      return { type: 'group', subshell: true, body, redirects: this.trailingRedirects() };
    }
    const op = this.peekOperator();
    if (op !== undefined && !REDIRECT_OPS.has(op)) throw new ShellSyntaxError({ kind: 'token', token: op });
    if (this.src[this.pos] === '\n') throw new ShellSyntaxError({ kind: 'token', token: 'newline' });
    const word = this.peekBareWord();
    switch (word) {
      case '{': {
        this.pos++;
        const body = this.compoundList(new Set(['}']), false);
        this.expectReserved('}', body.length === 0);
        return { type: 'group', subshell: false, body, redirects: this.trailingRedirects() };
      }
      case 'if':
        return this.ifCommand();
      case 'while':
      case 'until':
        return this.whileCommand(word === 'until');
      case 'for':
        return this.forCommand();
      case 'case':
      case 'select':
      case 'function':
        throw new ShellSyntaxError({ kind: 'unsupported', what: `\`${word}'` });
      case 'then':
      case 'else':
      case 'elif':
      case 'fi':
      case 'do':
      case 'done':
      case '}':
      case 'esac':
        throw new ShellSyntaxError({ kind: 'token', token: word });
    }
    return this.simpleCommand();
  }

  private ifCommand(): Command {
    this.pos += 2;
    const clauses: { cond: List; body: List }[] = [];
    let otherwise: List | undefined;
    for (;;) {
      const cond = this.compoundList(new Set(['then']), false);
      this.expectReserved('then', cond.length === 0);
      const body = this.compoundList(new Set(['elif', 'else', 'fi']), false);
      if (body.length === 0) this.expectReserved('fi', true);
      clauses.push({ cond, body });
      const next = this.peekBareWord();
      if (next === 'elif') {
        this.pos += 4;
        continue;
      }
      if (next === 'else') {
        this.pos += 4;
        otherwise = this.compoundList(new Set(['fi']), false);
        this.expectReserved('fi', otherwise.length === 0);
        break;
      }
      this.expectReserved('fi', false);
      break;
    }
    return { type: 'if', clauses, otherwise, redirects: this.trailingRedirects() };
  }

  private whileCommand(until: boolean): Command {
    this.pos += 5;
    const cond = this.compoundList(new Set(['do']), false);
    this.expectReserved('do', cond.length === 0);
    const body = this.compoundList(new Set(['done']), false);
    this.expectReserved('done', body.length === 0);
    return { type: 'while', until, cond, body, redirects: this.trailingRedirects() };
  }

  private forCommand(): Command {
    this.pos += 3;
    this.skipBlanks();
    if (this.eof()) throw new ShellSyntaxError({ kind: 'eof' });
    const nameWord = this.word();
    if (!NAME_RE.test(nameWord.raw)) throw new ShellSyntaxError({ kind: 'identifier', name: nameWord.raw });
    const items: Word[] = [];
    this.skipBlanks();
    if (this.src[this.pos] === ';') this.pos++;
    this.skipSpaceAndNewlines();
    if (this.peekBareWord() === 'in') {
      this.pos += 2;
      for (;;) {
        this.skipBlanks();
        if (this.eof()) throw new ShellSyntaxError({ kind: 'eof' });
        const c = this.src[this.pos]!;
        if (c === ';' || c === '\n') {
          if (c === ';') this.pos++;
          break;
        }
        if (META.has(c)) throw new ShellSyntaxError({ kind: 'token', token: this.peekToken() });
        items.push(this.word());
      }
    }
    this.skipSpaceAndNewlines();
    this.expectReserved('do', false);
    const body = this.compoundList(new Set(['done']), false);
    this.expectReserved('done', body.length === 0);
    return { type: 'for', name: nameWord.raw, items, body, redirects: this.trailingRedirects() };
  }

  private simpleCommand(): Command {
    const assigns: Assignment[] = [];
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    for (;;) {
      this.skipBlanks();
      if (this.eof()) break;
      const redirect = this.redirect();
      if (redirect) {
        redirects.push(redirect);
        continue;
      }
      if (META.has(this.src[this.pos]!)) break;
      const word = this.word();
      const assign = words.length === 0 ? asAssignment(word) : undefined;
      if (assign) assigns.push(assign);
      else words.push(word);
    }
    if (assigns.length + words.length + redirects.length === 0) {
      throw new ShellSyntaxError({ kind: 'token', token: this.peekToken() });
    }
    return { type: 'simple', assigns, words, redirects };
  }

  private trailingRedirects(): Redirect[] {
    const out: Redirect[] = [];
    for (;;) {
      this.skipBlanks();
      const r = this.redirect();
      if (!r) return out;
      out.push(r);
    }
  }

  private redirect(): Redirect | undefined {
    let p = this.pos;
    while (p < this.src.length && this.src[p]! >= '0' && this.src[p]! <= '9') p++;
    let fd: number | undefined;
    if (p > this.pos && (this.src[p] === '<' || this.src[p] === '>'))
      fd = Number(this.src.slice(this.pos, p));
    else p = this.pos;
    const op = operatorAt(this.src, p);
    if (op === undefined || !REDIRECT_OPS.has(op) || (fd !== undefined && op.startsWith('&')))
      return undefined;
    this.pos = p + op.length;
    this.skipBlanks();
    if (this.eof() || META.has(this.src[this.pos]!)) {
      throw new ShellSyntaxError({ kind: 'token', token: this.eof() ? 'newline' : this.peekToken() });
    }
    const target = this.word();
    if (op === '<<' || op === '<<-') {
      const doc: HereDoc = {
        delimiter: removeQuotes(target.raw),
        expand: !/['"\\]/.test(target.raw),
        stripTabs: op === '<<-',
        body: undefined,
      };
      this.pending.push({ doc, line: this.line });
      return { fd, op, target, heredoc: doc };
    }
    return { fd, op: op as RedirOp, target };
  }

  // ---- words -------------------------------------------------------------------------------------

  word(stopAt?: string): Word {
    const start = this.pos;
    const parts: WordPart[] = [];
    while (this.pos < this.src.length) {
      const c = this.src[this.pos]!;
      if (stopAt === undefined ? META.has(c) : stopAt.includes(c)) break;
      if (c === '\\') {
        const n = this.src[this.pos + 1];
        if (n === undefined) {
          pushText(parts, '\\', false);
          this.pos++;
        } else if (n === '\n') {
          this.pos += 2;
          this.line++;
        } else {
          pushText(parts, n, true);
          this.pos += 2;
        }
      } else if (c === "'") {
        const end = this.src.indexOf("'", this.pos + 1);
        if (end < 0) throw new ShellSyntaxError({ kind: 'eof-quote', quote: "'" });
        const text = this.src.slice(this.pos + 1, end);
        this.line += countNewlines(text);
        pushText(parts, text, true);
        this.pos = end + 1;
      } else if (c === '"') {
        this.doubleQuoted(parts);
      } else if (c === '$') {
        this.dollar(parts, false);
      } else if (c === '`') {
        this.backtick(parts, false);
      } else if (
        c === '~' &&
        this.pos === start &&
        stopAt === undefined &&
        isTildeEnd(this.src[this.pos + 1])
      ) {
        parts.push({ type: 'tilde' });
        this.pos++;
      } else {
        pushText(parts, c, false);
        this.pos++;
      }
    }
    return { parts, raw: this.src.slice(start, this.pos) };
  }

  private doubleQuoted(parts: WordPart[]): void {
    this.pos++;
    pushText(parts, '', true);
    for (;;) {
      if (this.eof()) throw new ShellSyntaxError({ kind: 'eof-quote', quote: '"' });
      const c = this.src[this.pos]!;
      if (c === '"') {
        this.pos++;
        return;
      }
      if (c === '\\') {
        const n = this.src[this.pos + 1];
        if (n !== undefined && '$`"\\'.includes(n)) {
          pushText(parts, n, true);
          this.pos += 2;
        } else if (n === '\n') {
          this.pos += 2;
          this.line++;
        } else {
          pushText(parts, '\\', true);
          this.pos++;
        }
      } else if (c === '$') {
        this.dollar(parts, true);
      } else if (c === '`') {
        this.backtick(parts, true);
      } else {
        if (c === '\n') this.line++;
        pushText(parts, c, true);
        this.pos++;
      }
    }
  }

  /** A here-document body with expansion: like double quotes, but `"` is an ordinary character. */
  heredocBody(): Word {
    const parts: WordPart[] = [];
    pushText(parts, '', true);
    while (!this.eof()) {
      const c = this.src[this.pos]!;
      if (c === '\\') {
        const n = this.src[this.pos + 1];
        if (n !== undefined && '$`\\'.includes(n)) {
          pushText(parts, n, true);
          this.pos += 2;
        } else if (n === '\n') {
          this.pos += 2;
        } else {
          pushText(parts, '\\', true);
          this.pos++;
        }
      } else if (c === '$') {
        this.dollar(parts, true);
      } else if (c === '`') {
        this.backtick(parts, true);
      } else {
        pushText(parts, c, true);
        this.pos++;
      }
    }
    return { parts, raw: this.src };
  }

  private dollar(parts: WordPart[], quoted: boolean): void {
    const n = this.src[this.pos + 1];
    if (n === '(') {
      if (this.src[this.pos + 2] === '(') return this.arithmetic(parts, quoted);
      this.pos += 2;
      if (this.nesting + this.depth >= MAX_NESTING) throw new ShellSyntaxError({ kind: 'too-deep' });
      this.nesting++;
      const body = this.compoundList(new Set(), true);
      this.nesting--;
      this.skipSpaceAndNewlines();
      if (this.eof()) throw new ShellSyntaxError({ kind: 'eof-quote', quote: ')' });
      if (this.src[this.pos] !== ')') throw new ShellSyntaxError({ kind: 'token', token: this.peekToken() });
      this.pos++;
      parts.push({ type: 'command', body, quoted });
      return;
    }
    if (n === '{') return this.braced(parts, quoted);
    if (n === "'" && !quoted) return this.ansiC(parts);
    if (n !== undefined && /[A-Za-z_]/.test(n)) {
      let end = this.pos + 2;
      while (end < this.src.length && /[A-Za-z0-9_]/.test(this.src[end]!)) end++;
      parts.push({ type: 'param', name: this.src.slice(this.pos + 1, end), quoted });
      this.pos = end;
      return;
    }
    if (n !== undefined && /[0-9?$#!@*-]/.test(n)) {
      parts.push({ type: 'param', name: n, quoted });
      this.pos += 2;
      return;
    }
    pushText(parts, '$', quoted);
    this.pos++;
  }

  private arithmetic(parts: WordPart[], quoted: boolean): void {
    let depth = 0;
    let p = this.pos + 3;
    for (; p < this.src.length; p++) {
      const c = this.src[p];
      if (c === '(') depth++;
      else if (c === ')') {
        if (depth === 0) break;
        depth--;
      }
    }
    if (p >= this.src.length || this.src[p + 1] !== ')')
      throw new ShellSyntaxError({ kind: 'eof-quote', quote: ')' });
    const inner = new Parser(this.src.slice(this.pos + 3, p), this.depth + this.nesting + 1);
    parts.push({ type: 'arith', expr: inner.heredocBody(), quoted });
    this.pos = p + 2;
  }

  private braced(parts: WordPart[], quoted: boolean): void {
    const start = this.pos;
    this.pos += 2;
    let length = false;
    if (this.src[this.pos] === '#' && this.src[this.pos + 1] !== '}') {
      length = true;
      this.pos++;
    }
    const nameMatch = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[?$#!@*-])/.exec(
      this.src.slice(this.pos, this.pos + 256),
    );
    const name = nameMatch?.[0];
    if (name !== undefined) {
      this.pos += name.length;
      if (this.src[this.pos] === '}') {
        this.pos++;
        parts.push({ type: 'param', name, quoted, length });
        return;
      }
      const op = (
        ['//', ':-', ':=', ':+', ':?', '##', '%%', '-', '=', '+', '?', '#', '%', '/'] as const
      ).find((o) => this.src.startsWith(o, this.pos)) as ParamOp | undefined;
      if (op !== undefined && !length) {
        this.pos += op.length;
        const slash = op === '/' || op === '//';
        const arg = this.word(slash ? '}/' : '}');
        let arg2: Word | undefined;
        if (slash && this.src[this.pos] === '/') {
          this.pos++;
          arg2 = this.word('}');
        }
        if (this.eof()) throw new ShellSyntaxError({ kind: 'eof-quote', quote: '}' });
        this.pos++;
        parts.push({
          type: 'param',
          name,
          quoted,
          op,
          arg: requote(arg, quoted),
          arg2: arg2 && requote(arg2, quoted),
        });
        return;
      }
    }
    const end = this.src.indexOf('}', this.pos);
    if (end < 0) throw new ShellSyntaxError({ kind: 'eof-quote', quote: '}' });
    this.pos = end + 1;
    parts.push({ type: 'bad', text: this.src.slice(start, end + 1) });
  }

  private ansiC(parts: WordPart[]): void {
    let p = this.pos + 2;
    let out = '';
    for (;;) {
      if (p >= this.src.length) throw new ShellSyntaxError({ kind: 'eof-quote', quote: "'" });
      const c = this.src[p]!;
      if (c === "'") break;
      if (c === '\\' && p + 1 < this.src.length) {
        const e = this.src[p + 1]!;
        const map: Record<string, string> = {
          n: '\n',
          t: '\t',
          r: '\r',
          a: '\x07',
          b: '\b',
          e: '\x1b',
          E: '\x1b',
          f: '\f',
          v: '\v',
          '\\': '\\',
          "'": "'",
          '"': '"',
        };
        out += map[e] ?? `\\${e}`;
        p += 2;
        continue;
      }
      out += c;
      p++;
    }
    pushText(parts, out, true);
    this.pos = p + 1;
  }

  private backtick(parts: WordPart[], quoted: boolean): void {
    let p = this.pos + 1;
    let inner = '';
    for (;;) {
      if (p >= this.src.length) throw new ShellSyntaxError({ kind: 'eof-quote', quote: '`' });
      const c = this.src[p]!;
      if (c === '`') break;
      if (c === '\\' && '$`\\'.includes(this.src[p + 1] ?? '')) {
        inner += this.src[p + 1];
        p += 2;
        continue;
      }
      inner += c;
      p++;
    }
    const sub = new Parser(inner, this.depth + this.nesting + 1);
    parts.push({ type: 'command', body: sub.program(), quoted });
    this.pos = p + 1;
  }

  // ---- low-level scanning ------------------------------------------------------------------------

  private eof(): boolean {
    return this.pos >= this.src.length;
  }

  private skipBlanks(): void {
    for (;;) {
      const c = this.src[this.pos];
      if (c === ' ' || c === '\t') this.pos++;
      else if (c === '\\' && this.src[this.pos + 1] === '\n') {
        this.pos += 2;
        this.line++;
      } else if (c === '#') {
        while (this.pos < this.src.length && this.src[this.pos] !== '\n') this.pos++;
      } else return;
    }
  }

  private skipSpaceAndNewlines(): void {
    for (;;) {
      this.skipBlanks();
      if (this.src[this.pos] !== '\n') return;
      this.pos++;
      this.line++;
      this.readPendingHeredocs();
    }
  }

  private readPendingHeredocs(): void {
    const pending = this.pending;
    this.pending = [];
    for (const { doc, line } of pending) {
      let body = '';
      for (;;) {
        if (this.eof()) {
          this.heredocWarnings.push({ line, delimiter: doc.delimiter });
          break;
        }
        const nl = this.src.indexOf('\n', this.pos);
        const raw = nl < 0 ? this.src.slice(this.pos) : this.src.slice(this.pos, nl);
        this.pos = nl < 0 ? this.src.length : nl + 1;
        this.line++;
        const text = doc.stripTabs ? raw.replace(/^\t+/, '') : raw;
        if (text === doc.delimiter) break;
        body += `${text}\n`;
      }
      doc.body = doc.expand
        ? new Parser(body, this.depth + 1).heredocBody()
        : { parts: [{ type: 'text', value: body, quoted: true }], raw: body };
    }
  }

  private peekOperator(): string | undefined {
    return operatorAt(this.src, this.pos);
  }

  /** The next token as bash names it in `syntax error near unexpected token`. */
  private peekToken(): string {
    if (this.eof() || this.src[this.pos] === '\n') return 'newline';
    const op = this.peekOperator();
    if (op !== undefined) return op;
    let end = this.pos;
    while (end < this.src.length && !META.has(this.src[end]!)) end++;
    return this.src.slice(this.pos, end);
  }

  /** The next word if it is plain (no quotes or expansions) and ends at a metacharacter. */
  private peekBareWord(): string | undefined {
    let end = this.pos;
    while (end < this.src.length && !META.has(this.src[end]!)) {
      if ('\'"\\$`'.includes(this.src[end]!)) return undefined;
      end++;
    }
    return end > this.pos ? this.src.slice(this.pos, end) : undefined;
  }

  private atReserved(words: ReadonlySet<string>): boolean {
    const w = this.peekBareWord();
    return w !== undefined && words.has(w);
  }

  private expectReserved(word: string, emptyBefore: boolean): void {
    this.skipSpaceAndNewlines();
    if (this.eof()) throw new ShellSyntaxError({ kind: 'eof' });
    if (!emptyBefore && this.peekBareWord() === word) {
      this.pos += word.length;
      return;
    }
    throw new ShellSyntaxError({ kind: 'token', token: this.peekToken() });
  }

  private expectChar(c: string, emptyBefore: boolean): void {
    this.skipSpaceAndNewlines();
    if (this.eof()) throw new ShellSyntaxError({ kind: 'eof' });
    if (!emptyBefore && this.src[this.pos] === c) {
      this.pos++;
      return;
    }
    throw new ShellSyntaxError({ kind: 'token', token: this.peekToken() });
  }
}

function operatorAt(src: string, pos: number): string | undefined {
  const c = src[pos];
  if (c === undefined || !';&|()<>'.includes(c)) return undefined;
  return OPERATORS.find((op) => src.startsWith(op, pos));
}

function pushText(parts: WordPart[], value: string, quoted: boolean): void {
  const last = parts[parts.length - 1];
  if (last && last.type === 'text' && last.quoted === quoted)
    parts[parts.length - 1] = { type: 'text', value: last.value + value, quoted };
  else parts.push({ type: 'text', value, quoted });
}

function isTildeEnd(c: string | undefined): boolean {
  return c === undefined || c === '/' || META.has(c);
}

function countNewlines(s: string): number {
  let n = 0;
  for (const c of s) if (c === '\n') n++;
  return n;
}

/** Inside double quotes, the words of `${x:-…}` are quoted too. */
function requote(word: Word, quoted: boolean): Word {
  if (!quoted) return word;
  return { raw: word.raw, parts: word.parts.map((p) => (p.type === 'text' ? { ...p, quoted: true } : p)) };
}

/** Quote removal on a here-document delimiter word (`'EOF'`, `"EOF"`, `\EOF` all mean EOF). */
function removeQuotes(raw: string): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === "'" || c === '"') continue;
    if (c === '\\' && i + 1 < raw.length) {
      out += raw[++i];
      continue;
    }
    out += c;
  }
  return out;
}

function asAssignment(word: Word): Assignment | undefined {
  const first = word.parts[0];
  if (!first || first.type !== 'text' || first.quoted) return undefined;
  const m = ASSIGN_RE.exec(first.value);
  if (!m) return undefined;
  const rest = first.value.slice(m[0].length);
  const parts: WordPart[] = [];
  if (rest.startsWith('~') && isTildeEnd(rest[1])) {
    parts.push({ type: 'tilde' });
    if (rest.length > 1) parts.push({ type: 'text', value: rest.slice(1), quoted: false });
  } else if (rest !== '') parts.push({ type: 'text', value: rest, quoted: false });
  parts.push(...word.parts.slice(1));
  return { name: m[1]!, append: m[2] === '+', value: { parts, raw: word.raw.slice(m[0].length) } };
}
