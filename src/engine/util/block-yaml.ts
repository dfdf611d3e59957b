/**
 * A fast reader for the plain block YAML that Kubernetes manifests are written in. `kubectl apply -f`
 * of the scale benchmark's 2,000 documents spent about a tenth of its time in the `yaml` package,
 * which builds a full CST and document model for every document before `toJS` walks it again; this
 * reader turns the common case straight into values, line by line, in linear time.
 *
 * Contract: whenever `readBlockYaml(text)` returns a value, it is exactly (same prototypes, key order
 * and values) what `parseDocument(text, { version: '1.1', uniqueKeys: false }).toJS({ maxAliasCount:
 * 100 })` returns, and that document has no errors; otherwise it returns `undefined`, meaning "not
 * sure: ask the full parser", so every error message still comes from `yaml`. It never throws.
 *
 * The subset, kept strict because a refusal only costs time:
 * - lines of spaces and printable characters (no tabs, `\r`, controls, BOM or document markers);
 *   blank lines and full-line comments anywhere, ` #` comments after a key or value;
 * - block mappings and sequences, nested by indentation (a mapping value may be a sequence at the
 *   key's own indentation), a mapping may open a sequence item (`- name: web`), at most 100 levels;
 * - keys: unquoted `[A-Za-z_][A-Za-z0-9_./-]*` that YAML 1.1 reads as a string, or one-line quoted
 *   keys without escapes; no duplicates, `__proto__` or `<<`;
 * - values: one-line plain scalars that are certainly strings (starting with a letter, `_`, `/` or
 *   `--`, or digits with two dots like `10.0.0.1`), unsigned decimal integers up to 15 digits, exactly
 *   `true`/`false`/`null`, one-line quoted strings without escapes, and one-line flow sequences and
 *   mappings (`[a, 'b']`, `{ app: web }`) of such scalars.
 * Anything else (anchors, tags, block scalars, multi-line scalars, floats, timestamps, `yes`/`on`…,
 * octal or sexagesimal numbers, nested flow collections) returns `undefined`.
 */
import type { Json } from './json.ts';

type JsonObject = { [key: string]: Json };

/** The reader's "not sure" inside the recursion (`undefined` cannot be told apart from a value). */
const UNSURE = Symbol('unsure');
type Read<T> = T | typeof UNSURE;

/** Nesting beyond this is no manifest: leave it (and its recursion) to the full parser. */
const MAX_DEPTH = 100;
/** `yaml` rejects an implicit key whose `:` is more than 1024 characters after its start. */
const MAX_KEY_LENGTH = 1000;

/**
 * Printable ASCII, line feeds and the Basic Multilingual Plane above the C1 controls; not the BOM,
 * the Unicode line and paragraph separators, nor surrogate halves.
 */
const OUTSIDE_ALPHABET = /[^\n\x20-\x7e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]/;

const SAFE_DECIMAL_INTEGER = /^(?:0|[1-9][0-9]{0,14})$/;
/** YAML 1.1 reads these as booleans or null in some capitalisations; any capitalisation is refused. */
const BOOL_OR_NULL_WORDS = new Set(['y', 'n', 'yes', 'no', 'on', 'off', 'true', 'false', 'null']);
/** `e5` is a YAML 1.1 float (NaN, as `parseFloat` reads it). */
const EXPONENT_ONLY_FLOAT = /^[eE][-+]?[0-9]+$/;

const SPACE = 0x20;
const DOUBLE_QUOTE = 0x22;
const HASH = 0x23;
const SINGLE_QUOTE = 0x27;
const COMMA = 0x2c;
const DASH = 0x2d;
const DOT = 0x2e;
const SLASH = 0x2f;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const UNDERSCORE = 0x5f;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** The document's value, or `undefined` when the text is outside the subset (see the module comment). */
export function readBlockYaml(text: string): Json | undefined {
  if (OUTSIDE_ALPHABET.test(text)) return undefined;
  const value = new BlockReader(text).document();
  return value === UNSURE ? undefined : value;
}

function isLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isPlainKeyCharacter(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === UNDERSCORE || c === DOT || c === SLASH || c === DASH;
}

/** Characters a plain scalar may hold inside a flow collection here (not `,[]{}`, `#`, `:` or quotes). */
function isFlowPlainCharacter(c: number): boolean {
  switch (c) {
    case COMMA:
    case OPEN_BRACKET:
    case CLOSE_BRACKET:
    case OPEN_BRACE:
    case CLOSE_BRACE:
    case HASH:
    case COLON:
    case SINGLE_QUOTE:
    case DOUBLE_QUOTE:
      return false;
    default:
      return !Number.isNaN(c);
  }
}

/** A word starting with a letter that YAML 1.1 might not read as a string. */
function mayResolveToNonString(word: string): boolean {
  return (word.length <= 5 && BOOL_OR_NULL_WORDS.has(word.toLowerCase())) || EXPONENT_ONLY_FLOAT.test(word);
}

/** The value of a one-line plain scalar under the YAML 1.1 schema, when it is one of the safe shapes. */
function resolvePlainScalar(text: string): Read<Json> {
  const first = text.charCodeAt(0);
  if (isLetter(first) || first === UNDERSCORE || first === SLASH) {
    if (text === 'true') return true;
    if (text === 'false') return false;
    if (text === 'null') return null;
    return mayResolveToNonString(text) ? UNSURE : text;
  }
  // No YAML 1.1 number starts with two dashes (`--port=80`, a container argument).
  if (first === DASH && text.charCodeAt(1) === DASH) return text;
  if (isDigit(first)) {
    if (SAFE_DECIMAL_INTEGER.test(text)) return Number(text);
    // No YAML 1.1 number or timestamp has two dots: IP addresses, CIDRs, versions.
    if (text.indexOf('.') !== text.lastIndexOf('.')) return text;
  }
  return UNSURE;
}

/**
 * Reads the document line by line. `row` is the current content line (blank and comment lines are
 * skipped), `indent` its indentation (-1 past the last line) and `pos` the reading position in it.
 */
class BlockReader {
  private readonly lines: readonly string[];
  private row = -1;
  private line = '';
  private indent = -1;
  private pos = 0;

  constructor(text: string) {
    this.lines = text.split('\n');
    this.nextLine();
  }

  document(): Read<Json> {
    if (this.indent < 0) return UNSURE;
    const root = this.atSequenceEntry() ? this.sequence(0) : this.mapping(0);
    // Each collection stops at the first line it cannot take (an error, a multi-line scalar, a
    // document marker or directive…), so any line left over means the text is outside the subset.
    return this.indent < 0 ? root : UNSURE;
  }

  private nextLine(): void {
    const lines = this.lines;
    for (let row = this.row + 1; row < lines.length; row++) {
      const line = lines[row]!;
      let indent = 0;
      while (line.charCodeAt(indent) === SPACE) indent++;
      if (indent < line.length && line.charCodeAt(indent) !== HASH) {
        this.row = row;
        this.line = line;
        this.indent = indent;
        this.pos = indent;
        return;
      }
    }
    this.row = lines.length;
    this.line = '';
    this.indent = -1;
    this.pos = 0;
  }

  /** A mapping or sequence starting on the current line, nested one level deeper. */
  private block(depth: number): Read<Json> {
    return this.atSequenceEntry() ? this.sequence(depth + 1) : this.mapping(depth + 1);
  }

  /** A block mapping whose first key is at `pos`; its later keys start lines indented to that column. */
  private mapping(depth: number): Read<JsonObject> {
    if (depth > MAX_DEPTH) return UNSURE;
    const column = this.pos;
    const map: JsonObject = {};
    for (;;) {
      const key = this.key();
      if (key === undefined || Object.hasOwn(map, key)) return UNSURE;
      const value = this.mappingValue(column, depth);
      if (value === UNSURE) return UNSURE;
      map[key] = value;
      if (this.indent !== column) return map;
    }
  }

  /** What follows a block mapping key's `:`: a value on the line, a nested block, or null. */
  private mappingValue(column: number, depth: number): Read<Json> {
    this.skipSpaces();
    if (!this.atLineEnd()) return this.lastValueOnLine();
    this.nextLine();
    if (this.indent > column) return this.block(depth);
    // YAML lets a mapping value's sequence sit at the key's own indentation.
    if (this.indent === column && this.atSequenceEntry()) return this.sequence(depth + 1);
    return null;
  }

  /** A block sequence whose entries start lines at the current line's indentation. */
  private sequence(depth: number): Read<Json[]> {
    if (depth > MAX_DEPTH) return UNSURE;
    const column = this.indent;
    const items: Json[] = [];
    for (;;) {
      const item = this.sequenceItem(column, depth);
      if (item === UNSURE) return UNSURE;
      items.push(item);
      if (this.indent !== column || !this.atSequenceEntry()) return items;
    }
  }

  private sequenceItem(column: number, depth: number): Read<Json> {
    this.pos = column + 1;
    this.skipSpaces();
    if (this.atLineEnd()) {
      this.nextLine();
      return this.indent > column ? this.block(depth) : null;
    }
    return this.atKey() ? this.mapping(depth + 1) : this.lastValueOnLine();
  }

  private atSequenceEntry(): boolean {
    return this.line.charCodeAt(this.pos) === DASH && this.isSpaceOrEnd(this.pos + 1);
  }

  /** At the end of the line or of its content (a comment; callers only stop after a space or a `:`). */
  private atLineEnd(): boolean {
    return this.pos >= this.line.length || this.line.charCodeAt(this.pos) === HASH;
  }

  private isSpaceOrEnd(at: number): boolean {
    return at >= this.line.length || this.line.charCodeAt(at) === SPACE;
  }

  private skipSpaces(): void {
    while (this.line.charCodeAt(this.pos) === SPACE) this.pos++;
  }

  private atKey(): boolean {
    const start = this.pos;
    const key = this.key();
    this.pos = start;
    return key !== undefined;
  }

  /** A mapping key and its `:` (followed by a space or the line end); `pos` moves past the `:`. */
  private key(): string | undefined {
    const start = this.pos;
    const first = this.line.charCodeAt(start);
    const key = first === SINGLE_QUOTE || first === DOUBLE_QUOTE ? this.quoted() : this.plainKey();
    if (key === undefined || key === '__proto__' || key === '<<' || this.pos - start > MAX_KEY_LENGTH)
      return undefined;
    if (this.line.charCodeAt(this.pos) !== COLON || !this.isSpaceOrEnd(this.pos + 1)) return undefined;
    this.pos++;
    return key;
  }

  private plainKey(): string | undefined {
    const start = this.pos;
    const first = this.line.charCodeAt(start);
    if (!isLetter(first) && first !== UNDERSCORE) return undefined;
    let end = start + 1;
    while (isPlainKeyCharacter(this.line.charCodeAt(end))) end++;
    this.pos = end;
    const key = this.line.slice(start, end);
    return mayResolveToNonString(key) ? undefined : key;
  }

  /** A scalar or flow collection followed by nothing but a comment; moves to the next line. */
  private lastValueOnLine(): Read<Json> {
    const value = this.inlineValue();
    if (value === UNSURE) return UNSURE;
    this.skipSpaces();
    const line = this.line;
    // A comment needs a space before its `#` (`"a"#b` is an error).
    if (
      this.pos < line.length &&
      !(line.charCodeAt(this.pos) === HASH && line.charCodeAt(this.pos - 1) === SPACE)
    )
      return UNSURE;
    this.nextLine();
    return value;
  }

  private inlineValue(): Read<Json> {
    switch (this.line.charCodeAt(this.pos)) {
      case SINGLE_QUOTE:
      case DOUBLE_QUOTE:
        return this.quoted() ?? UNSURE;
      case OPEN_BRACKET:
        return this.flowSequence();
      case OPEN_BRACE:
        return this.flowMapping();
      default:
        return this.blockPlainScalar();
    }
  }

  /** A plain scalar running to the line's end or its ` #` comment; it may not hold a `: `. */
  private blockPlainScalar(): Read<Json> {
    const line = this.line;
    const start = this.pos;
    const comment = line.indexOf(' #', start);
    let end = comment < 0 ? line.length : comment;
    this.pos = end;
    while (end > start && line.charCodeAt(end - 1) === SPACE) end--;
    const text = line.slice(start, end);
    // `a: b: c` and `a: b:` are nested mappings (errors, in a mapping's value).
    if (text.includes(': ') || text.charCodeAt(text.length - 1) === COLON) return UNSURE;
    return resolvePlainScalar(text);
  }

  /** A one-line quoted scalar without escapes (but `''`); `pos` moves past the closing quote. */
  private quoted(): string | undefined {
    return this.line.charCodeAt(this.pos) === SINGLE_QUOTE ? this.singleQuoted() : this.doubleQuoted();
  }

  private singleQuoted(): string | undefined {
    const line = this.line;
    let text = '';
    let from = this.pos + 1;
    for (;;) {
      const close = line.indexOf("'", from);
      if (close < 0) return undefined;
      text += line.slice(from, close);
      if (line.charCodeAt(close + 1) !== SINGLE_QUOTE) {
        this.pos = close + 1;
        return text;
      }
      text += "'";
      from = close + 2;
    }
  }

  private doubleQuoted(): string | undefined {
    const close = this.line.indexOf('"', this.pos + 1);
    if (close < 0) return undefined;
    const text = this.line.slice(this.pos + 1, close);
    if (text.includes('\\')) return undefined;
    this.pos = close + 1;
    return text;
  }

  /** `[a, b]` of scalars, on this line. */
  private flowSequence(): Read<Json[]> {
    this.pos++;
    const items: Json[] = [];
    this.skipSpaces();
    if (this.eat(CLOSE_BRACKET)) return items;
    for (;;) {
      const item = this.flowScalar();
      if (item === UNSURE) return UNSURE;
      items.push(item);
      if (this.eat(CLOSE_BRACKET)) return items;
      if (!this.eat(COMMA)) return UNSURE;
    }
  }

  /** `{ a: b, c: d }` of scalars, on this line. */
  private flowMapping(): Read<JsonObject> {
    this.pos++;
    const map: JsonObject = {};
    this.skipSpaces();
    if (this.eat(CLOSE_BRACE)) return map;
    for (;;) {
      const key = this.key();
      if (key === undefined || Object.hasOwn(map, key)) return UNSURE;
      this.skipSpaces();
      const value = this.flowScalar();
      if (value === UNSURE) return UNSURE;
      map[key] = value;
      if (this.eat(CLOSE_BRACE)) return map;
      if (!this.eat(COMMA)) return UNSURE;
    }
  }

  /** A quoted or plain scalar inside a flow collection; `pos` moves past it and the spaces after it. */
  private flowScalar(): Read<Json> {
    const line = this.line;
    const first = line.charCodeAt(this.pos);
    let value: Read<Json>;
    if (first === SINGLE_QUOTE || first === DOUBLE_QUOTE) {
      value = this.quoted() ?? UNSURE;
    } else {
      const start = this.pos;
      let end = start;
      while (isFlowPlainCharacter(line.charCodeAt(end))) end++;
      this.pos = end;
      while (end > start && line.charCodeAt(end - 1) === SPACE) end--;
      value = end > start ? resolvePlainScalar(line.slice(start, end)) : UNSURE;
    }
    this.skipSpaces();
    return value;
  }

  /** Consumes `c` and the spaces after it, if `c` is next. */
  private eat(c: number): boolean {
    if (this.line.charCodeAt(this.pos) !== c) return false;
    this.pos++;
    this.skipSpaces();
    return true;
  }
}
