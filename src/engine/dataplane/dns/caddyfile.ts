/**
 * The Caddyfile lexer, server-block parser and token dispenser CoreDNS uses for its Corefile
 * (`coredns/caddy` `caddyfile/lexer.go`, `parse.go`, `dispenser.go`). Error texts are caddy's, prefixed with
 * the file name CoreDNS is started with (kubeadm's Deployment passes `-conf /etc/coredns/Corefile`), or the
 * imported file the token came from:
 * `/etc/coredns/Corefile:5 - Error during parsing: Unknown directive 'forwardd'`.
 */

export const COREFILE_PATH = '/etc/coredns/Corefile';

export interface Token {
  readonly text: string;
  readonly line: number;
  /** The file the token came from (an imported file), when not the Corefile itself. */
  readonly file?: string;
}

/** The files the CoreDNS container sees (its mounted ConfigMaps), for `import`. */
export interface CorefileFiles {
  /** File names directly inside a directory (sorted or not; imports sort them as Go's Glob does). */
  list(dir: string): readonly string[];
  read(path: string): string | undefined;
}

const NO_FILES: CorefileFiles = { list: () => [], read: () => undefined };

export class CorefileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CorefileError';
  }
}

/** Splits on whitespace, honours "quoted strings" with \" escapes and # comments to end of line. */
export function lex(text: string, file?: string): Token[] {
  const out: Token[] = [];
  let line = 1;
  let val = '';
  let tokLine = 1;
  let quoted = false;
  let escaped = false;
  let comment = false;
  let started = false;
  const flush = () => {
    if (started) out.push({ text: val, line: tokLine, ...(file !== undefined ? { file } : {}) });
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
  tokens: readonly Token[];
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
  get file(): string {
    return (this.tokens[this.i] ?? this.tokens[this.tokens.length - 1])?.file ?? COREFILE_PATH;
  }
  /** caddy's isNewLine: a token from another file starts a new line too. */
  isNewLine(): boolean {
    if (this.i < 1) return true;
    const prev = this.tokens[this.i - 1]!;
    const cur = this.tokens[this.i]!;
    return prev.file !== cur.file || prev.line < cur.line;
  }
  err(msg: string): CorefileError {
    return new CorefileError(`${this.file}:${this.line} - Error during parsing: ${msg}`);
  }
  syntaxErr(expected: string): CorefileError {
    return new CorefileError(
      `${this.file}:${this.line} - Syntax error: Unexpected token '${this.val}', expecting '${expected}'`,
    );
  }
}

/** Go's filepath.Match for one path element, with `*` and `?` (the only wildcards caddy lets through). */
function globMatch(pattern: string, name: string): boolean {
  const re = new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '[^/]*')
      .replace(/\?/g, '[^/]')}$`,
  );
  return re.test(name);
}

function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

/** What parsing an imported Corefile left to say without failing (caddy logs them at start-up). */
export interface ParseOptions {
  readonly files?: CorefileFiles;
  readonly warnings?: string[];
}

/**
 * caddy `parser.doImport`: `import PATTERN` is replaced by a snippet's tokens, or by the tokens of every
 * file the glob matches (relative patterns against the importing file's directory). One wildcard at
 * most; a glob that matches nothing only warns, a plain path that is missing fails. Leaves the cursor
 * on the first spliced token (or the token after the import); returns false at end of input.
 */
function doImport(
  c: Cursor,
  snippets: ReadonlyMap<string, readonly Token[]>,
  files: CorefileFiles,
  warnings: string[] | undefined,
  budget: { n: number },
): boolean {
  const at = c.i;
  const importer = c.file;
  if (!(c.i + 1 < c.tokens.length && !isNewLineAt(c.tokens, c.i + 1)))
    throw c.err(`Wrong argument count or unexpected line ending after 'import'`);
  c.i++;
  const pattern = c.val;
  if (pattern === '') throw c.err('Import requires a non-empty filepath');
  if (c.i + 1 < c.tokens.length && !isNewLineAt(c.tokens, c.i + 1)) {
    c.i++;
    throw c.err('Import takes only one argument (glob pattern or file)');
  }
  let imported: readonly Token[] = [];
  const snippet = snippets.get(pattern);
  if (snippet) imported = snippet;
  else {
    const glob = pattern.startsWith('/') ? pattern : `${dirOf(importer)}/${pattern}`;
    if ((glob.match(/\*/g) ?? []).length > 1 || (glob.match(/\?/g) ?? []).length > 1 || /\[.*\]/.test(glob))
      throw c.err(`Glob pattern may only contain one wildcard (*), but has others: ${glob}`);
    const dir = dirOf(glob);
    const base = glob.slice(dir.length === 1 ? 1 : dir.length + 1);
    const matches = /[*?[]/.test(dir)
      ? []
      : [...files.list(dir)]
          .filter((n) => globMatch(base, n))
          .sort()
          .map((n) => `${dir === '/' ? '' : dir}/${n}`);
    if (matches.length === 0) {
      if (/[*?[\]]/.test(glob)) warnings?.push(`[WARNING] No files matching import glob pattern: ${pattern}`);
      else throw c.err(`File to import not found: ${pattern}`);
    }
    const out: Token[] = [];
    for (const file of matches) {
      if (--budget.n < 0) throw c.err(`a cycle of imports exists between ${importer} and ${file}`);
      const content = files.read(file);
      if (content === undefined)
        throw c.err(`Could not import ${file}: open ${file}: no such file or directory`);
      const toks = lex(content, file);
      if (toks.length === 0) warnings?.push(`[WARNING] Import file is empty: ${file}`);
      out.push(...toks);
    }
    imported = out;
  }
  c.tokens = [...c.tokens.slice(0, at), ...imported, ...c.tokens.slice(c.i + 1)];
  c.i = at;
  return c.i < c.tokens.length;
}

function isNewLineAt(tokens: readonly Token[], i: number): boolean {
  const prev = tokens[i - 1];
  const cur = tokens[i];
  if (!prev || !cur) return true;
  return prev.file !== cur.file || prev.line < cur.line;
}

/** caddy `parser.parseAll`: server blocks of addresses, then directives in braces (or to EOF). */
export function parseServerBlocks(
  text: string,
  validDirectives: ReadonlySet<string>,
  opts: ParseOptions = {},
): RawServerBlock[] {
  const c = new Cursor(lex(text));
  const files = opts.files ?? NO_FILES;
  const snippets = new Map<string, readonly Token[]>();
  const budget = { n: 1000 };
  const blocks: RawServerBlock[] = [];
  if (!c.next()) return blocks;
  for (;;) {
    // An import where a server block starts brings in whole server blocks (k3s's *.server files).
    let more = true;
    while (more && c.val === 'import' && c.isNewLine())
      more = doImport(c, snippets, files, opts.warnings, budget);
    if (!more) break;
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
    // `(name) { … }` defines a snippet for later imports instead of a server block.
    const snippetName = keys.length === 1 && /^\(.*\)$/.test(keys[0]!) ? keys[0]!.slice(1, -1) : undefined;
    if (snippetName !== undefined && !eof && c.val === '{') {
      const body: Token[] = [];
      let nesting = 1;
      while (c.next()) {
        if (c.val === '{') nesting++;
        else if (c.val === '}' && --nesting === 0) break;
        body.push(c.tokens[c.i]!);
      }
      if (nesting > 0) throw c.syntaxErr('}');
      snippets.set(snippetName, body);
      if (!c.next()) break;
      continue;
    }
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
        if (dir === 'import') {
          // The imported tokens take the import's place; read them as directives.
          if (!doImport(c, snippets, files, opts.warnings, budget)) break;
          c.i--;
          continue;
        }
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

  private get file(): string {
    return this.tokens[Math.max(0, this.i)]?.file ?? COREFILE_PATH;
  }

  private onSameLine(): boolean {
    const cur = this.tokens[this.i];
    const nxt = this.tokens[this.i + 1];
    return cur !== undefined && nxt !== undefined && nxt.line === cur.line && nxt.file === cur.file;
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
    return new CorefileError(`${this.file}:${this.line} - Error during parsing: ${msg}`);
  }

  argErr(): CorefileError {
    if (this.val === '{') return this.err("Unexpected token '{', expecting argument");
    return this.err(`Wrong argument count or unexpected line ending after '${this.val}'`);
  }
}
