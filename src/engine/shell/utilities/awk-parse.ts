/**
 * The awk subset's parser (POSIX awk grammar, reduced): `pattern { action }` items with BEGIN, END,
 * /regex/ and expression patterns; statements print, printf, if/else, while, for (;;), for (k in a),
 * next, exit, blocks and expressions; expressions with fields ($N, $NF), variables, arrays, string
 * concatenation, arithmetic, comparisons, ~ !~, && || !, ?:, assignments and ++/--, and the builtins
 * length substr index split sub gsub toupper tolower sprintf int. Errors read like mawk's.
 */

export type Expr =
  | { t: 'num'; v: number }
  | { t: 'str'; v: string }
  | { t: 're'; v: string }
  | { t: 'var'; name: string }
  | { t: 'index'; name: string; key: Expr }
  | { t: 'field'; e: Expr }
  | { t: 'bin'; op: string; a: Expr; b: Expr }
  | { t: 'un'; op: string; e: Expr }
  | { t: 'cond'; c: Expr; a: Expr; b: Expr }
  | { t: 'assign'; op: string; target: Expr; e: Expr }
  | { t: 'incdec'; op: '++' | '--'; prefix: boolean; target: Expr }
  | { t: 'call'; name: string; args: Expr[] }
  | { t: 'in'; key: Expr; name: string }
  | { t: 'match'; negate: boolean; e: Expr; re: Expr };

export type Stmt =
  | { t: 'print'; args: Expr[] }
  | { t: 'printf'; args: Expr[] }
  | { t: 'expr'; e: Expr }
  | { t: 'if'; c: Expr; then: Stmt; else?: Stmt }
  | { t: 'while'; c: Expr; body: Stmt }
  | { t: 'for'; init?: Expr; c?: Expr; step?: Expr; body: Stmt }
  | { t: 'forin'; key: string; name: string; body: Stmt }
  | { t: 'block'; body: Stmt[] }
  | { t: 'next' }
  | { t: 'exit'; e?: Expr };

export interface Item {
  readonly pattern: 'BEGIN' | 'END' | Expr | undefined;
  readonly action: Stmt[] | undefined;
}

export class AwkSyntaxError extends Error {}

type Tok =
  | { k: 'num'; v: number }
  | { k: 'str'; v: string }
  | { k: 're'; v: string }
  | { k: 'name'; v: string }
  | { k: 'op'; v: string }
  | { k: 'nl' }
  | { k: 'eof' };

const BUILTINS = new Set([
  'length',
  'substr',
  'index',
  'split',
  'sub',
  'gsub',
  'toupper',
  'tolower',
  'sprintf',
  'int',
  'match',
]);
const OPS = [
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '^=',
  '==',
  '<=',
  '>=',
  '!=',
  '!~',
  '&&',
  '||',
  '++',
  '--',
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  ';',
  ',',
  '+',
  '-',
  '*',
  '/',
  '%',
  '^',
  '!',
  '>',
  '<',
  '|',
  '?',
  ':',
  '~',
  '$',
  '=',
];

function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  const regexAllowed = () => {
    const last = out[out.length - 1];
    if (!last || last.k === 'nl') return true;
    if (last.k === 'op')
      return !([')', ']', '$'] as string[]).includes(last.v) && last.v !== '++' && last.v !== '--';
    return false;
  };
  while (i < src.length) {
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '\\' && src[i + 1] === '\n') {
      i += 2;
      continue;
    }
    if (c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (c === '\n') {
      out.push({ k: 'nl' });
      i++;
      continue;
    }
    if (c === '"') {
      let s = '';
      i++;
      while (i < src.length && src[i] !== '"') {
        if (src[i] === '\\' && i + 1 < src.length) {
          const e = src[i + 1]!;
          s +=
            ({ n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', '/': '/' } as Record<string, string>)[e] ??
            `\\${e}`;
          i += 2;
          continue;
        }
        s += src[i];
        i++;
      }
      if (i >= src.length) throw new AwkSyntaxError('runaway string constant "' + s.slice(0, 10) + ' ...');
      i++;
      out.push({ k: 'str', v: s });
      continue;
    }
    if (c === '/' && regexAllowed()) {
      let s = '';
      i++;
      while (i < src.length && src[i] !== '/') {
        if (src[i] === '\\' && src[i + 1] === '/') {
          s += '/';
          i += 2;
          continue;
        }
        if (src[i] === '\n') break;
        s += src[i];
        i++;
      }
      if (src[i] !== '/') throw new AwkSyntaxError('runaway regular expression /' + s.slice(0, 10) + ' ...');
      i++;
      out.push({ k: 're', v: s });
      continue;
    }
    const num = /^(\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+)/.exec(src.slice(i));
    if (num) {
      out.push({ k: 'num', v: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
    if (name) {
      out.push({ k: 'name', v: name[0] });
      i += name[0].length;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new AwkSyntaxError(`syntax error at or near ${c}`);
    out.push({ k: 'op', v: op });
    i += op.length;
  }
  out.push({ k: 'eof' });
  return out;
}

export function parseAwk(src: string): Item[] {
  return new AwkParser(tokenize(src)).program();
}

class AwkParser {
  private pos = 0;
  private readonly toks: Tok[];
  private depth = 0;

  constructor(toks: Tok[]) {
    this.toks = toks;
  }

  private peek(): Tok {
    return this.toks[this.pos]!;
  }

  private isOp(v: string): boolean {
    const t = this.peek();
    return t.k === 'op' && t.v === v;
  }

  private eatOp(v: string): boolean {
    if (!this.isOp(v)) return false;
    this.pos++;
    return true;
  }

  private expectOp(v: string): void {
    if (!this.eatOp(v)) throw this.error();
  }

  private error(): AwkSyntaxError {
    const t = this.peek();
    const near =
      t.k === 'eof'
        ? 'end of file'
        : t.k === 'nl'
          ? 'end of line'
          : t.k === 'str'
            ? `"${t.v}"`
            : t.k === 're'
              ? `/${t.v}/`
              : String(t.v);
    return new AwkSyntaxError(`syntax error at or near ${near}`);
  }

  private skipNewlines(): void {
    while (this.peek().k === 'nl' || this.isOp(';')) this.pos++;
  }

  program(): Item[] {
    const items: Item[] = [];
    this.skipNewlines();
    while (this.peek().k !== 'eof') {
      let pattern: Item['pattern'];
      const t = this.peek();
      if (t.k === 'name' && (t.v === 'BEGIN' || t.v === 'END')) {
        this.pos++;
        pattern = t.v;
      } else if (!this.isOp('{')) pattern = this.expr(true);
      let action: Stmt[] | undefined;
      if (this.isOp('{')) action = this.block();
      else if (pattern === 'BEGIN' || pattern === 'END') throw this.error();
      items.push({ pattern, action });
      this.skipNewlines();
    }
    return items;
  }

  private block(): Stmt[] {
    this.expectOp('{');
    const body: Stmt[] = [];
    this.skipNewlines();
    while (!this.isOp('}')) {
      if (this.peek().k === 'eof') throw this.error();
      body.push(this.statement());
      this.skipNewlines();
    }
    this.pos++;
    return body;
  }

  private simpleEnd(): void {
    if (this.isOp(';') || this.peek().k === 'nl') {
      this.pos++;
      return;
    }
    if (this.isOp('}') || this.peek().k === 'eof') return;
    throw this.error();
  }

  private statement(): Stmt {
    if (++this.depth > 100) throw new AwkSyntaxError('program too deeply nested');
    try {
      return this.statementInner();
    } finally {
      this.depth--;
    }
  }

  private statementInner(): Stmt {
    if (this.isOp('{')) return { t: 'block', body: this.block() };
    const t = this.peek();
    if (t.k === 'name') {
      switch (t.v) {
        case 'print':
        case 'printf': {
          this.pos++;
          const args: Expr[] = [];
          const paren = this.isOp('(') && this.printParenList();
          if (paren) args.push(...paren);
          else if (!this.isOp(';') && !this.isOp('}') && this.peek().k !== 'nl' && this.peek().k !== 'eof') {
            args.push(this.expr(false));
            while (this.eatOp(',')) args.push(this.expr(false));
          }
          if (this.isOp('>') || this.isOp('|'))
            throw new AwkSyntaxError('output redirection is not supported by the lab shell');
          this.simpleEnd();
          return { t: t.v, args };
        }
        case 'if': {
          this.pos++;
          this.expectOp('(');
          const c = this.expr(true);
          this.expectOp(')');
          this.skipNl();
          const then = this.statement();
          const save = this.pos;
          this.skipNewlines();
          if (this.peek().k === 'name' && (this.peek() as { v: string }).v === 'else') {
            this.pos++;
            this.skipNl();
            return { t: 'if', c, then, else: this.statement() };
          }
          this.pos = save;
          return { t: 'if', c, then };
        }
        case 'while': {
          this.pos++;
          this.expectOp('(');
          const c = this.expr(true);
          this.expectOp(')');
          this.skipNl();
          return { t: 'while', c, body: this.statement() };
        }
        case 'for': {
          this.pos++;
          this.expectOp('(');
          const a = this.toks[this.pos];
          const b = this.toks[this.pos + 1];
          const c2 = this.toks[this.pos + 2];
          if (a?.k === 'name' && b?.k === 'name' && b.v === 'in' && c2?.k === 'name') {
            this.pos += 3;
            this.expectOp(')');
            this.skipNl();
            return { t: 'forin', key: a.v, name: c2.v, body: this.statement() };
          }
          const init = this.isOp(';') ? undefined : this.expr(true);
          this.expectOp(';');
          const c = this.isOp(';') ? undefined : this.expr(true);
          this.expectOp(';');
          const step = this.isOp(')') ? undefined : this.expr(true);
          this.expectOp(')');
          this.skipNl();
          return { t: 'for', init, c, step, body: this.statement() };
        }
        case 'next':
          this.pos++;
          this.simpleEnd();
          return { t: 'next' };
        case 'exit': {
          this.pos++;
          const e =
            this.isOp(';') || this.isOp('}') || this.peek().k === 'nl' || this.peek().k === 'eof'
              ? undefined
              : this.expr(true);
          this.simpleEnd();
          return { t: 'exit', e };
        }
        case 'getline':
        case 'function':
        case 'delete':
        case 'do':
          throw new AwkSyntaxError(`${t.v} is not supported by the lab shell`);
      }
    }
    if (this.isOp(';')) {
      this.pos++;
      return { t: 'block', body: [] };
    }
    const e = this.expr(true);
    this.simpleEnd();
    return { t: 'expr', e };
  }

  private skipNl(): void {
    while (this.peek().k === 'nl') this.pos++;
  }

  /** `print (a, b)`: a parenthesised list is the argument list, unless more expression follows. */
  private printParenList(): Expr[] | undefined {
    const save = this.pos;
    this.pos++;
    const args = [this.expr(true)];
    while (this.eatOp(',')) args.push(this.expr(true));
    if (
      this.eatOp(')') &&
      (this.isOp(';') || this.isOp('}') || this.peek().k === 'nl' || this.peek().k === 'eof')
    )
      return args;
    this.pos = save;
    return undefined;
  }

  expr(allowGt: boolean): Expr {
    if (++this.depth > 200) throw new AwkSyntaxError('expression too deeply nested');
    try {
      return this.assignment(allowGt);
    } finally {
      this.depth--;
    }
  }

  private assignment(allowGt: boolean): Expr {
    const left = this.ternary(allowGt);
    const t = this.peek();
    if (
      t.k === 'op' &&
      ['=', '+=', '-=', '*=', '/=', '%=', '^='].includes(t.v) &&
      (left.t === 'var' || left.t === 'field' || left.t === 'index')
    ) {
      this.pos++;
      return { t: 'assign', op: t.v, target: left, e: this.assignment(allowGt) };
    }
    return left;
  }

  private ternary(allowGt: boolean): Expr {
    const c = this.or(allowGt);
    if (!this.eatOp('?')) return c;
    const a = this.ternary(allowGt);
    this.expectOp(':');
    return { t: 'cond', c, a, b: this.ternary(allowGt) };
  }

  private or(allowGt: boolean): Expr {
    let e = this.and(allowGt);
    while (this.isOp('||')) {
      this.pos++;
      this.skipNl();
      e = { t: 'bin', op: '||', a: e, b: this.and(allowGt) };
    }
    return e;
  }

  private and(allowGt: boolean): Expr {
    let e = this.inExpr(allowGt);
    while (this.isOp('&&')) {
      this.pos++;
      this.skipNl();
      e = { t: 'bin', op: '&&', a: e, b: this.inExpr(allowGt) };
    }
    return e;
  }

  private inExpr(allowGt: boolean): Expr {
    const e = this.matchExpr(allowGt);
    const t = this.peek();
    if (t.k === 'name' && t.v === 'in') {
      this.pos++;
      const n = this.peek();
      if (n.k !== 'name') throw this.error();
      this.pos++;
      return { t: 'in', key: e, name: n.v };
    }
    return e;
  }

  private matchExpr(allowGt: boolean): Expr {
    let e = this.comparison(allowGt);
    while (this.isOp('~') || this.isOp('!~')) {
      const negate = (this.peek() as { v: string }).v === '!~';
      this.pos++;
      e = { t: 'match', negate, e, re: this.comparison(allowGt) };
    }
    return e;
  }

  private comparison(allowGt: boolean): Expr {
    const a = this.concat();
    const t = this.peek();
    if (t.k === 'op' && ['<', '<=', '==', '!=', '>=', ...(allowGt ? ['>'] : [])].includes(t.v)) {
      this.pos++;
      return { t: 'bin', op: t.v, a, b: this.concat() };
    }
    return a;
  }

  private concat(): Expr {
    let e = this.additive();
    for (;;) {
      const t = this.peek();
      const starts =
        t.k === 'num' ||
        t.k === 'str' ||
        t.k === 're' ||
        (t.k === 'name' && t.v !== 'in') ||
        (t.k === 'op' && ['$', '(', '++', '--'].includes(t.v));
      if (!starts) return e;
      e = { t: 'bin', op: 'concat', a: e, b: this.additive() };
    }
  }

  private additive(): Expr {
    let e = this.multiplicative();
    while (this.isOp('+') || this.isOp('-')) {
      const op = (this.peek() as { v: string }).v;
      this.pos++;
      e = { t: 'bin', op, a: e, b: this.multiplicative() };
    }
    return e;
  }

  private multiplicative(): Expr {
    let e = this.unary();
    while (this.isOp('*') || this.isOp('/') || this.isOp('%')) {
      const op = (this.peek() as { v: string }).v;
      this.pos++;
      e = { t: 'bin', op, a: e, b: this.unary() };
    }
    return e;
  }

  private unary(): Expr {
    if (this.isOp('!') || this.isOp('-') || this.isOp('+')) {
      const op = (this.peek() as { v: string }).v;
      this.pos++;
      return { t: 'un', op, e: this.unary() };
    }
    return this.power();
  }

  private power(): Expr {
    const base = this.postfix();
    if (this.eatOp('^')) return { t: 'bin', op: '^', a: base, b: this.unary() };
    return base;
  }

  private postfix(): Expr {
    if (this.isOp('++') || this.isOp('--')) {
      const op = (this.peek() as { v: string }).v as '++' | '--';
      this.pos++;
      return { t: 'incdec', op, prefix: true, target: this.postfix() };
    }
    const e = this.primary();
    if ((this.isOp('++') || this.isOp('--')) && (e.t === 'var' || e.t === 'field' || e.t === 'index')) {
      const op = (this.peek() as { v: string }).v as '++' | '--';
      this.pos++;
      return { t: 'incdec', op, prefix: false, target: e };
    }
    return e;
  }

  private primary(): Expr {
    const t = this.peek();
    this.pos++;
    switch (t.k) {
      case 'num':
        return { t: 'num', v: t.v };
      case 'str':
        return { t: 'str', v: t.v };
      case 're':
        return { t: 're', v: t.v };
      case 'name': {
        if (BUILTINS.has(t.v)) {
          const args: Expr[] = [];
          if (this.eatOp('(')) {
            if (!this.isOp(')')) {
              args.push(this.expr(true));
              while (this.eatOp(',')) args.push(this.expr(true));
            }
            this.expectOp(')');
          }
          return { t: 'call', name: t.v, args };
        }
        if (this.eatOp('[')) {
          const key = this.expr(true);
          this.expectOp(']');
          return { t: 'index', name: t.v, key };
        }
        return { t: 'var', name: t.v };
      }
      case 'op':
        if (t.v === '$') return { t: 'field', e: this.postfixField() };
        if (t.v === '(') {
          const e = this.expr(true);
          this.expectOp(')');
          return e;
        }
    }
    this.pos--;
    throw this.error();
  }

  /** `$NF`, `$(i+1)`, `$2`: the field operator binds tighter than arithmetic. */
  private postfixField(): Expr {
    if (this.isOp('-')) {
      this.pos++;
      return { t: 'un', op: '-', e: this.primary() };
    }
    if (this.isOp('++') || this.isOp('--')) return this.postfix();
    return this.primary();
  }
}
