/**
 * The Caddyfile lexer, server-block parser and token dispenser CoreDNS uses for its Corefile
 * (`coredns/caddy` `caddyfile/lexer.go`, `parse.go`, `dispenser.go`). Error texts are caddy's, prefixed with
 * the file name CoreDNS is started with (kubeadm's Deployment passes `-conf /etc/coredns/Corefile`):
 * `/etc/coredns/Corefile:5 - Error during parsing: Unknown directive 'forwardd'`.
 */

export const COREFILE_PATH = '/etc/coredns/Corefile';

export interface Token {
  readonly text: string;
  readonly line: number;
}

export class CorefileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CorefileError';
  }
}

/** Splits on whitespace, honours "quoted strings" with \" escapes and # comments to end of line. */
export function lex(text: string): Token[] {
  const out: Token[] = [];
  let line = 1;
  let val = '';
  let tokLine = 1;
  let quoted = false;
  let escaped = false;
  let comment = false;
  let started = false;
  const flush = () => {
    if (started) out.push({ text: val, line: tokLine });
    val = '';
    started = false;
  };
  for (const ch of text) {
    if (quoted) {
      if (escaped) {
        if (ch !== '"') val += '\\';
        val += ch;
        escaped = false;
        continue;
      }
      if (ch === '\\') {
        escaped = true;
        continue;
      }
      if (ch === '"') {
        quoted = false;
        flush();
        continue;
      }
      if (ch === '\n') line++;
      val += ch;
      continue;
    }
    if (ch === '\r') continue;
    if (ch === '\n' || ch === ' ' || ch === '\t') {
      if (ch === '\n') {
        line++;
        comment = false;
      }
      flush();
      continue;
    }
    if (ch === '#' && !started) comment = true;
    if (comment) continue;
    if (!started) {
      started = true;
      tokLine = line;
      if (ch === '"') {
        quoted = true;
        continue;
      }
    }
    val += ch;
  }
  flush();
  return out;
}

export interface RawServerBlock {
  readonly keys: readonly string[];
  /** Directive name → the token lists of each of its occurrences (directive token first). */
  readonly directives: ReadonlyMap<string, readonly (readonly Token[])[]>;
  /** Directive names in the order they appear. */
  readonly order: readonly string[];
}

class Cursor {
  i = -1;
  readonly tokens: readonly Token[];
  constructor(tokens: readonly Token[]) {
    this.tokens = tokens;
  }
  next(): boolean {
    if (this.i < this.tokens.length - 1) {
      this.i++;
      return true;
    }
    return false;
  }
  get val(): string {
    return this.tokens[this.i]?.text ?? '';
  }
  get line(): number {
    return this.tokens[this.i]?.line ?? this.tokens[this.tokens.length - 1]?.line ?? 1;
  }
  isNewLine(): boolean {
    if (this.i < 1) return true;
    return this.tokens[this.i - 1]!.line < this.tokens[this.i]!.line;
  }
  err(msg: string): CorefileError {
    return new CorefileError(`${COREFILE_PATH}:${this.line} - Error during parsing: ${msg}`);
  }
  syntaxErr(expected: string): CorefileError {
    return new CorefileError(
      `${COREFILE_PATH}:${this.line} - Syntax error: Unexpected token '${this.val}', expecting '${expected}'`,
    );
  }
}

/** caddy `parser.parseAll`: server blocks of addresses, then directives in braces (or to EOF). */
export function parseServerBlocks(text: string, validDirectives: ReadonlySet<string>): RawServerBlock[] {
  const c = new Cursor(lex(text));
  const blocks: RawServerBlock[] = [];
  if (!c.next()) return blocks;
  for (;;) {
    const keys: string[] = [];
    let expectingAnother = false;
    let eof = false;
    for (;;) {
      const tkn = c.val;
      if (tkn === '{') {
        if (expectingAnother)
          throw c.err(`Expected another address but had '${tkn}' - check for extra comma`);
        break;
      }
      if (tkn !== '') {
        if (tkn.endsWith(',')) {
          keys.push(tkn.slice(0, -1));
          expectingAnother = true;
        } else {
          keys.push(tkn);
          expectingAnother = false;
        }
      }
      const hasNext = c.next();
      if (expectingAnother && !hasNext) throw c.err('Unexpected EOF');
      if (!hasNext) {
        eof = true;
        break;
      }
      if (!expectingAnother && c.isNewLine()) break;
    }
    const directives = new Map<string, Token[][]>();
    const order: string[] = [];
    if (!eof) {
      const braced = c.val === '{';
      if (!braced) c.i--;
      let closed = false;
      while (c.next()) {
        if (c.val === '}') {
          closed = true;
          break;
        }
        const dir = c.val;
        if (!validDirectives.has(dir)) throw c.err(`Unknown directive '${dir}'`);
        const toks: Token[] = [c.tokens[c.i]!];
        let nesting = 0;
        while (c.next()) {
          if (c.val === '{') nesting++;
          else if (c.isNewLine() && nesting === 0) {
            c.i--;
            break;
          } else if (c.val === '}' && nesting > 0) nesting--;
          else if (c.val === '}' && nesting === 0)
            throw c.err("Unexpected '}' because no matching opening brace");
          toks.push(c.tokens[c.i]!);
        }
        if (nesting > 0) throw c.err('Unexpected EOF');
        if (!directives.has(dir)) {
          directives.set(dir, []);
          order.push(dir);
        }
        directives.get(dir)!.push(toks);
      }
      if (braced && !closed) throw c.syntaxErr('}');
    }
    blocks.push({ keys, directives, order });
    if (!c.next()) break;
  }
  return blocks;
}

/**
 * caddy's `Dispenser` over one directive's tokens, the API every plugin's setup function uses:
 * `next`, `remainingArgs`, `nextBlock`, `argErr`, `errf`.
 */
export class Dispenser {
  private i = -1;
  private nesting = 0;
  private readonly tokens: readonly Token[];
  constructor(tokens: readonly Token[]) {
    this.tokens = tokens;
  }

  next(): boolean {
    if (this.i < this.tokens.length - 1) {
      this.i++;
      return true;
    }
    return false;
  }

  get val(): string {
    return this.tokens[this.i]?.text ?? '';
  }

  private get line(): number {
    return this.tokens[Math.max(0, this.i)]?.line ?? 1;
  }

  private onSameLine(): boolean {
    const cur = this.tokens[this.i];
    const nxt = this.tokens[this.i + 1];
    return cur !== undefined && nxt !== undefined && nxt.line === cur.line;
  }

  /** Advances only to an argument on the same line (not a `{`). */
  nextArg(): boolean {
    if (this.onSameLine() && this.tokens[this.i + 1]!.text !== '{') {
      this.i++;
      return true;
    }
    return false;
  }

  remainingArgs(): string[] {
    const args: string[] = [];
    while (this.nextArg()) args.push(this.val);
    return args;
  }

  /** Enters the directive's `{ … }` block and moves to each line's first token until `}`. */
  nextBlock(): boolean {
    if (this.nesting > 0) {
      if (!this.next()) return false;
      if (this.val === '}') {
        this.nesting--;
        return false;
      }
      return true;
    }
    if (!this.onSameLine() || this.tokens[this.i + 1]!.text !== '{') return false;
    this.i++;
    if (!this.next()) return false;
    if (this.val === '}') return false;
    this.nesting++;
    return true;
  }

  err(msg: string): CorefileError {
    return new CorefileError(`${COREFILE_PATH}:${this.line} - Error during parsing: ${msg}`);
  }

  argErr(): CorefileError {
    if (this.val === '{') return this.err("Unexpected token '{', expecting argument");
    return this.err(`Wrong argument count or unexpected line ending after '${this.val}'`);
  }
}
