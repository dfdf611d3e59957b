/**
 * `$(( … ))`: bash's integer arithmetic for the operators scripts actually use (+ - * / % **, the
 * comparisons, && || !, unary minus, parentheses, variables by name, `=` and `+=`/`-=`). Values are
 * 64-bit in bash; we use JavaScript integers and truncate division like C.
 */

export class ArithError extends Error {}

export interface ArithScope {
  get(name: string): string | undefined;
  set(name: string, value: string): void;
}

type Tok = { t: 'num'; v: number } | { t: 'name'; v: string } | { t: 'op'; v: string };

const OPS = [
  '**',
  '<=',
  '>=',
  '==',
  '!=',
  '&&',
  '||',
  '+=',
  '-=',
  '*=',
  '/=',
  '<<',
  '>>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '<',
  '>',
  '!',
  '(',
  ')',
  '=',
  '&',
  '|',
  '^',
  '~',
  '?',
  ':',
];

export function evaluateArithmetic(expr: string, scope: ArithScope): number {
  const toks = tokenize(expr);
  if (toks.length === 0) return 0;
  const p = new ArithParser(toks, scope, expr);
  const v = p.expr();
  if (p.pos < toks.length)
    throw new ArithError(
      `${expr.trim()}: syntax error in expression (error token is "${rest(toks, p.pos)}")`,
    );
  return v;
}

function tokenize(s: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const num = /^(0[xX][0-9a-fA-F]+|[0-9]+)/.exec(s.slice(i));
    if (num && /^0[0-9]*[89]/.test(num[0])) {
      throw new ArithError(`${num[0]}: value too great for base (error token is "${num[0]}")`);
    }
    if (num) {
      out.push({
        t: 'num',
        v: Number(
          num[0].startsWith('0') && num[0].length > 1 && !/[xX]/.test(num[0])
            ? parseInt(num[0], 8)
            : Number(num[0]),
        ),
      });
      i += num[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(i));
    if (name) {
      out.push({ t: 'name', v: name[0] });
      i += name[0].length;
      continue;
    }
    const op = OPS.find((o) => s.startsWith(o, i));
    if (!op)
      throw new ArithError(`${s.trim()}: syntax error: operand expected (error token is "${s.slice(i)}")`);
    out.push({ t: 'op', v: op });
    i += op.length;
  }
  return out;
}

function rest(toks: Tok[], from: number): string {
  return toks
    .slice(from)
    .map((t) => String(t.v))
    .join(' ');
}

const BINARY: readonly (readonly string[])[] = [
  ['||'],
  ['&&'],
  ['|'],
  ['^'],
  ['&'],
  ['==', '!='],
  ['<', '<=', '>', '>='],
  ['<<', '>>'],
  ['+', '-'],
  ['*', '/', '%'],
];

class ArithParser {
  pos = 0;
  private readonly toks: Tok[];
  private readonly scope: ArithScope;
  private readonly src: string;
  private depth = 0;

  constructor(toks: Tok[], scope: ArithScope, src: string) {
    this.toks = toks;
    this.scope = scope;
    this.src = src;
  }

  expr(): number {
    const t = this.toks[this.pos];
    const n = this.toks[this.pos + 1];
    if (t?.t === 'name' && n?.t === 'op' && ['=', '+=', '-=', '*=', '/='].includes(n.v)) {
      this.pos += 2;
      const rhs = this.expr();
      const cur = this.value(t.v);
      const v =
        n.v === '='
          ? rhs
          : n.v === '+='
            ? cur + rhs
            : n.v === '-='
              ? cur - rhs
              : n.v === '*='
                ? cur * rhs
                : this.div(cur, rhs, '/');
      this.scope.set(t.v, String(v));
      return v;
    }
    const cond = this.binary(0);
    if (this.peekOp('?')) {
      this.pos++;
      const a = this.expr();
      if (!this.peekOp(':')) throw this.syntax();
      this.pos++;
      const b = this.expr();
      return cond !== 0 ? a : b;
    }
    return cond;
  }

  private binary(level: number): number {
    if (level >= BINARY.length) return this.unary();
    let left = this.binary(level + 1);
    for (;;) {
      const t = this.toks[this.pos];
      if (t?.t !== 'op' || !BINARY[level]!.includes(t.v)) return left;
      this.pos++;
      const right = this.binary(level + 1);
      left = this.apply(t.v, left, right);
    }
  }

  private apply(op: string, a: number, b: number): number {
    switch (op) {
      case '||':
        return a !== 0 || b !== 0 ? 1 : 0;
      case '&&':
        return a !== 0 && b !== 0 ? 1 : 0;
      case '|':
        return a | b;
      case '^':
        return a ^ b;
      case '&':
        return a & b;
      case '==':
        return a === b ? 1 : 0;
      case '!=':
        return a !== b ? 1 : 0;
      case '<':
        return a < b ? 1 : 0;
      case '<=':
        return a <= b ? 1 : 0;
      case '>':
        return a > b ? 1 : 0;
      case '>=':
        return a >= b ? 1 : 0;
      case '<<':
        return a << b;
      case '>>':
        return a >> b;
      case '+':
        return a + b;
      case '-':
        return a - b;
      case '*':
        return a * b;
      default:
        return this.div(a, b, op);
    }
  }

  private div(a: number, b: number, op: string): number {
    if (b === 0)
      throw new ArithError(
        `${this.src.trim()}: division by 0 (error token is "${rest(this.toks, this.pos - 1)}")`,
      );
    return op === '%' ? a % b : Math.trunc(a / b);
  }

  private unary(): number {
    const t = this.toks[this.pos];
    if (t?.t === 'op' && ['-', '+', '!', '~'].includes(t.v)) {
      this.pos++;
      if (++this.depth > 200) throw this.syntax();
      const v = this.unary();
      this.depth--;
      return t.v === '-' ? -v : t.v === '+' ? v : t.v === '!' ? (v === 0 ? 1 : 0) : ~v;
    }
    const base = this.primary();
    if (this.peekOp('**')) {
      this.pos++;
      const e = this.unary();
      if (e < 0) throw new ArithError(`${this.src.trim()}: exponent less than 0 (error token is "${e}")`);
      return Math.trunc(base ** e);
    }
    return base;
  }

  private primary(): number {
    const t = this.toks[this.pos];
    if (!t)
      throw new ArithError(
        `${this.src.trim()}: syntax error: operand expected (error token is "${this.src.trim()}")`,
      );
    this.pos++;
    if (t.t === 'num') return t.v;
    if (t.t === 'name') return this.value(t.v);
    if (t.v === '(') {
      if (++this.depth > 200) throw this.syntax();
      const v = this.expr();
      this.depth--;
      if (!this.peekOp(')')) throw this.syntax();
      this.pos++;
      return v;
    }
    this.pos--;
    throw this.syntax();
  }

  private value(name: string): number {
    const raw = (this.scope.get(name) ?? '').trim();
    if (raw === '') return 0;
    const n = Number(raw);
    return Number.isFinite(n) ? Math.trunc(n) : 0;
  }

  private peekOp(op: string): boolean {
    const t = this.toks[this.pos];
    return t?.t === 'op' && t.v === op;
  }

  private syntax(): ArithError {
    return new ArithError(
      `${this.src.trim()}: syntax error: operand expected (error token is "${rest(this.toks, this.pos)}")`,
    );
  }
}
