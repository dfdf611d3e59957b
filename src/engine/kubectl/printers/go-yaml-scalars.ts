/**
 * Strings and map keys written exactly as kubectl's `-o yaml` writes them. kubectl goes through
 * sigs.k8s.io/yaml, which re-reads the object's JSON with go-yaml v2 (gopkg.in/yaml.v2, since
 * sigs.k8s.io/yaml v1.5 the identical go.yaml.in/yaml/v2) and marshals the result:
 * - encode.go `stringv` asks for a literal block when the string has a newline, plain when the plain
 *   form would read back as a string, double quotes otherwise (ints, floats, YAML 1.1 bools, nulls,
 *   timestamps, base-60 floats);
 * - emitterc.go `analyze_scalar`/`select_scalar_style` fall back to single quotes (indicators, edge
 *   spaces) and then double quotes (control characters, tabs, astral characters, a space before a line
 *   break), and a key longer than 128 bytes or spanning lines becomes an explicit `? key` entry;
 * - the `write_*_scalar` functions fold at a space once the column is past 80 (the yaml library would
 *   break before 80), and literal blocks get `|2`/`-`/`+` hints;
 * - `sorter.go` orders map keys with digit runs compared as numbers and letters after other characters.
 * The yaml library keeps laying out maps and sequences; a custom `str` tag prints the text computed here.
 */
import { Document, isMap, isScalar, isSeq, Scalar } from 'yaml';
import { cmdError } from '../errors.ts';
import { utf8Length } from '../../util/encoding.ts';

type Style = 'PLAIN' | 'QUOTE_SINGLE' | 'QUOTE_DOUBLE' | 'BLOCK_LITERAL';

const BEST_WIDTH = 80;
const BEST_INDENT = 2;
const MAX_SIMPLE_KEY_BYTES = 128;
const STR_TAG = 'tag:yaml.org,2002:str';

/** The string's code points, as its iterator yields them (a lone surrogate stands for itself). */
function codePoints(s: string): number[] {
  // A loop rather than Array.from(s, …): every scalar of every -o yaml goes through here.
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out.push((c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000);
        i++;
        continue;
      }
    }
    out.push(c);
  }
  return out;
}
const isSpace = (c: number | undefined): boolean => c === 0x20;
const isBlank = (c: number | undefined): boolean => c === 0x20 || c === 0x09;
const isBreak = (c: number | undefined): boolean =>
  c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;
const isPrintable = (c: number): boolean =>
  c === 0x0a ||
  (c >= 0x20 && c <= 0x7e) ||
  (c >= 0xa0 && c <= 0xd7ff) ||
  (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff);
/** readerc.go rejects these when sigs.k8s.io/yaml re-reads the JSON (json.Marshal escapes only C0 controls). */
const rejectedByReader = (c: number): boolean =>
  c === 0x7f || (c >= 0x80 && c <= 0x9f && c !== 0x85) || c === 0xfffe || c === 0xffff;

// resolve.go: the plain scalars that would read back as something other than a string.
const RESOLVES_TO_OTHER = new Set(
  [
    'y Y yes Yes YES true True TRUE on On ON n N no No NO false False FALSE off Off OFF',
    '~ null Null NULL .nan .NaN .NAN .inf .Inf .INF +.inf +.Inf +.INF -.inf -.Inf -.INF',
  ]
    .join(' ')
    .split(' ')
    .concat(''),
);
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const BASE_60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
// strconv.ParseInt/ParseUint with base 0 (prefixes, octal by a leading 0), after resolve.go removed every `_`.
const GO_INT = /^([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/;
// strconv.ParseFloat of a string starting with `.`: decimal digits, `_` only between digits.
const DOT_FLOAT = /^\.[0-9](_?[0-9])*([eE][-+]?[0-9](_?[0-9])*)?$/;

function resolvesToOtherType(s: string): boolean {
  if (RESOLVES_TO_OTHER.has(s)) return true;
  const first = s[0]!;
  if (first === '.') return DOT_FLOAT.test(s) && Number.isFinite(Number(s.replaceAll('_', '')));
  if (!/[-+0-9]/.test(first)) return false;
  if (isTimestamp(s)) return true;
  const plain = s.replaceAll('_', '');
  if (isGoInt(plain)) return true;
  // ParseFloat fails (range error) past float64, so `1e999` stays a string.
  return YAML_STYLE_FLOAT.test(plain) && Number.isFinite(Number(plain));
}

/** Fits int64, or uint64 when unsigned (ParseUint takes no sign); out of range it is not an int. */
function isGoInt(plain: string): boolean {
  const m = GO_INT.exec(plain);
  if (!m) return false;
  const digits = m[2]!;
  const n = BigInt(/^0[0-7]+$/.test(digits) ? `0o${digits.slice(1)}` : digits);
  return m[1] === '' ? n < 2n ** 64n : m[1] === '-' ? n <= 2n ** 63n : n < 2n ** 63n;
}

/** resolve.go parseTimestamp: the four time.Parse layouts it tries, with time.Parse's range checks. */
function isTimestamp(s: string): boolean {
  const m =
    /^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:(?:[Tt]|( ))([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2})(?:[.,][0-9]+)?(Z|[-+][0-9]{2}:[0-9]{2})?)?$/.exec(
      s,
    );
  if (!m) return false;
  const [, year, month, day, space, hour, minute, second, zone] = m;
  // `T` layouts need a zone and the space layout has none.
  if (hour !== undefined && (space === undefined) === (zone === undefined)) return false;
  if (zone !== undefined && zone !== 'Z' && (Number(zone.slice(1, 3)) > 24 || Number(zone.slice(4)) > 60))
    return false;
  const y = Number(year);
  const mo = Number(month);
  // Date.UTC would read years 0-99 as 1900-1999; Go's calendar is proleptic Gregorian from year 0.
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const daysInMonth = mo === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(mo) ? 30 : 31;
  if (mo < 1 || mo > 12 || Number(day) < 1 || Number(day) > daysInMonth) return false;
  return hour === undefined || (Number(hour) < 24 && Number(minute) < 60 && Number(second) < 60);
}

function isBase60Float(s: string): boolean {
  return /^[-+0-9]/.test(s) && s.includes(':') && BASE_60_FLOAT.test(s);
}

interface Analysis {
  readonly multiline: boolean;
  readonly plainAllowed: boolean;
  readonly singleQuotedAllowed: boolean;
  readonly blockAllowed: boolean;
}

/** emitterc.go yaml_emitter_analyze_scalar, block context only (kubectl never prints flow collections with items). */
function analyze(cps: readonly number[]): Analysis {
  if (cps.length === 0)
    return { multiline: false, plainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
  const s = String.fromCodePoint(...cps.slice(0, 3));
  let indicators = s === '---' || s === '...';
  let lineBreaks = false;
  let special = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  let precededByWhitespace = true;
  cps.forEach((c, i) => {
    const followedByWhitespace = i + 1 >= cps.length || isBlank(cps[i + 1]);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(String.fromCodePoint(c))) indicators = true;
      else if ((c === 0x3f || c === 0x3a || c === 0x2d) && followedByWhitespace) indicators = true;
    } else if ((c === 0x3a && followedByWhitespace) || (c === 0x23 && precededByWhitespace)) {
      indicators = true;
    }
    if (!isPrintable(c)) special = true;
    if (isSpace(c)) {
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlank(c) || isBreak(c) || c === 0;
  });
  const first = cps[0];
  const last = cps[cps.length - 1];
  const edge = isSpace(first) || isBreak(first) || isSpace(last) || isBreak(last);
  return {
    multiline: lineBreaks,
    plainAllowed: !(edge || breakSpace || spaceBreak || special || lineBreaks || indicators),
    singleQuotedAllowed: !(breakSpace || spaceBreak || special),
    blockAllowed: !(isSpace(last) || spaceBreak || special),
  };
}

/** encode.go stringv's request, then emitterc.go yaml_emitter_select_scalar_style's fallbacks. */
export function goScalarStyle(s: string): Style {
  const a = analyze(codePoints(s));
  if (s.includes('\n')) return a.blockAllowed ? 'BLOCK_LITERAL' : 'QUOTE_DOUBLE';
  if (resolvesToOtherType(s) || isBase60Float(s)) return 'QUOTE_DOUBLE';
  if (a.plainAllowed) return 'PLAIN';
  return a.singleQuotedAllowed ? 'QUOTE_SINGLE' : 'QUOTE_DOUBLE';
}

/** The emitter's cursor while one scalar is written (column counts characters, as emitterc.go's `write`). */
class Cursor {
  out = '';
  column: number;
  whitespace = false;
  indention = false;
  private readonly indent: number;
  constructor(column: number, indent: number) {
    this.column = column;
    this.indent = indent;
  }
  put(text: string): void {
    this.out += text;
    this.column += codePoints(text).length;
  }
  putBreak(): void {
    this.out += '\n';
    this.column = 0;
  }
  /** write_break: a `\n` is a plain line break; LS/PS are copied and still reset the column. */
  writeBreak(c: number): void {
    if (c === 0x0a) this.putBreak();
    else {
      this.out += String.fromCodePoint(c);
      this.column = 0;
    }
  }
  writeIndent(): void {
    if (!this.indention || this.column > this.indent || (this.column === this.indent && !this.whitespace))
      this.putBreak();
    this.out += ' '.repeat(Math.max(0, this.indent - this.column));
    this.column = Math.max(this.column, this.indent);
    this.whitespace = true;
    this.indention = true;
  }
}

const DOUBLE_ESCAPES: Readonly<Record<number, string>> = {
  0x00: '0',
  0x07: 'a',
  0x08: 'b',
  0x09: 't',
  0x0a: 'n',
  0x0b: 'v',
  0x0c: 'f',
  0x0d: 'r',
  0x1b: 'e',
  0x22: '"',
  0x5c: '\\',
  0x85: 'N',
  0xa0: '_',
  0x2028: 'L',
  0x2029: 'P',
};

function doubleEscape(c: number): string {
  const named = DOUBLE_ESCAPES[c];
  if (named !== undefined) return `\\${named}`;
  const [prefix, digits] = c <= 0xff ? ['x', 2] : c <= 0xffff ? ['u', 4] : ['U', 8];
  return `\\${prefix}${c.toString(16).toUpperCase().padStart(digits, '0')}`;
}

function writePlainOrSingle(
  cur: Cursor,
  cps: readonly number[],
  single: boolean,
  allowBreaks: boolean,
): void {
  if (single) cur.put("'");
  let spaces = false;
  let breaks = false;
  cps.forEach((c, i) => {
    if (isSpace(c)) {
      const inside = !single || (i > 0 && i < cps.length - 1);
      if (allowBreaks && !spaces && cur.column > BEST_WIDTH && inside && !isSpace(cps[i + 1]))
        cur.writeIndent();
      else cur.put(' ');
      spaces = true;
    } else if (isBreak(c)) {
      if (!breaks && c === 0x0a) cur.putBreak();
      cur.writeBreak(c);
      cur.indention = true;
      breaks = true;
    } else {
      if (breaks) cur.writeIndent();
      cur.put(single && c === 0x27 ? "''" : String.fromCodePoint(c));
      cur.indention = false;
      spaces = false;
      breaks = false;
    }
  });
  if (single) cur.put("'");
}

function writeDouble(cur: Cursor, cps: readonly number[], allowBreaks: boolean): void {
  cur.put('"');
  let spaces = false;
  cps.forEach((c, i) => {
    if (!isPrintable(c) || isBreak(c) || c === 0x22 || c === 0x5c) {
      cur.put(doubleEscape(c));
      spaces = false;
    } else if (isSpace(c)) {
      if (allowBreaks && !spaces && cur.column > BEST_WIDTH && i !== 0 && i !== cps.length - 1) {
        cur.writeIndent();
        // A space that starts the next line would be eaten by folding, so it is escaped.
        if (isSpace(cps[i + 1])) cur.put('\\');
      } else cur.put(' ');
      spaces = true;
    } else {
      cur.put(String.fromCodePoint(c));
      spaces = false;
    }
  });
  cur.put('"');
}

function writeLiteral(cur: Cursor, cps: readonly number[]): void {
  const first = cps[0];
  const last = cps[cps.length - 1];
  let chomp = '-';
  if (isBreak(last)) chomp = cps.length === 1 || isBreak(cps[cps.length - 2]) ? '+' : '';
  cur.put(`|${isSpace(first) || isBreak(first) ? String(BEST_INDENT) : ''}${chomp}`);
  cur.putBreak();
  cur.indention = true;
  cur.whitespace = true;
  let breaks = true;
  for (const c of cps) {
    if (isBreak(c)) {
      cur.writeBreak(c);
      cur.indention = true;
      breaks = true;
    } else {
      if (breaks) cur.writeIndent();
      cur.put(String.fromCodePoint(c));
      cur.indention = false;
      breaks = false;
    }
  }
}

/**
 * The string go-yaml reads back from the JSON: json.Marshal leaves NEL (U+0085) raw, and a raw line
 * break in a double-quoted scalar folds (scannerc.go scan_flow_scalar) with the spaces around it: one
 * break becomes a space, n breaks become n-1 newlines.
 */
function readBack(s: string): string {
  return s.replace(/ *\u0085[ \u0085]*/g, (run) => {
    const breaks = run.split('\u0085').length - 1;
    return breaks === 1 ? ' ' : '\n'.repeat(breaks - 1);
  });
}

/**
 * The text go-yaml writes for string `s` whose first character lands on `column`, continuation lines
 * indented by `indent`. Simple keys never fold. A literal block's final line break is left to the
 * collection that joins the lines.
 */
export function goScalarText(value: string, column: number, indent: number, simpleKey: boolean): string {
  const s = readBack(value);
  const cps = codePoints(s);
  if (cps.some(rejectedByReader)) throw cmdError('yaml: control characters are not allowed');
  const cur = new Cursor(column, indent);
  const style = goScalarStyle(s);
  if (style === 'BLOCK_LITERAL') {
    writeLiteral(cur, cps);
    return cur.out.endsWith('\n') ? cur.out.slice(0, -1) : cur.out;
  }
  if (style === 'QUOTE_DOUBLE') writeDouble(cur, cps, !simpleKey);
  else writePlainOrSingle(cur, cps, style === 'QUOTE_SINGLE', !simpleKey);
  return cur.out;
}

const isDigit = (c: number): boolean => /\p{Nd}/u.test(String.fromCodePoint(c));
const isLetter = (c: number): boolean => /\p{L}/u.test(String.fromCodePoint(c));

/** sorter.go keyList.Less for two string keys. */
export function goKeyLess(a: string, b: string): boolean {
  const ar = codePoints(a);
  const br = codePoints(b);
  let digits = false;
  for (let i = 0; i < ar.length && i < br.length; i++) {
    const ac = ar[i]!;
    const bc = br[i]!;
    if (ac === bc) {
      digits = isDigit(ac);
      continue;
    }
    const al = isLetter(ac);
    const bl = isLetter(bc);
    if (al && bl) return ac < bc;
    if (al || bl) return digits ? al : bl;
    let an = 0;
    let bn = 0;
    if (ac === 0x30 || bc === 0x30) {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]!); j--) {
        if (ar[j] !== 0x30) {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai]!); ai++) an = an * 10 + (ar[ai]! - 0x30);
    for (; bi < br.length && isDigit(br[bi]!); bi++) bn = bn * 10 + (br[bi]! - 0x30);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ac < bc;
  }
  return ar.length < br.length;
}

/**
 * Walks the document as go-yaml lays it out (maps indent by 2, sequences sit under their key, `- `
 * takes two columns) and records each string's text. `indent` is where the node's lines start.
 */
function layout(node: unknown, indent: number, column: number, texts: WeakMap<Scalar, string>): void {
  if (isScalar(node)) {
    if (typeof node.value === 'string') texts.set(node, goScalarText(node.value, column, indent, false));
  } else if (isSeq(node)) {
    for (const item of node.items) layout(item, indent + 2, indent + 2, texts);
  } else if (isMap(node)) {
    node.items.sort((p, q) => {
      const a = String(isScalar(p.key) ? p.key.value : p.key);
      const b = String(isScalar(q.key) ? q.key.value : q.key);
      return goKeyLess(a, b) ? -1 : goKeyLess(b, a) ? 1 : 0;
    });
    for (const { key, value } of node.items) {
      let valueColumn = indent + 2;
      if (isScalar(key) && typeof key.value === 'string') {
        const read = readBack(key.value);
        const simple = !analyze(codePoints(read)).multiline && utf8Length(read) <= MAX_SIMPLE_KEY_BYTES;
        if (simple) {
          const text = goScalarText(key.value, indent, indent + 2, true);
          texts.set(key, text);
          valueColumn = indent + codePoints(text).length + 2;
        } else {
          // The yaml library writes `? key` / `: value` for block-scalar keys; go-yaml does it for every non-simple key.
          key.type = Scalar.BLOCK_LITERAL;
          texts.set(key, goScalarText(key.value, indent + 2, indent + 2, false));
        }
      }
      layout(value, isSeq(value) ? indent : indent + 2, valueColumn, texts);
    }
  }
}

/** go-yaml v2's output for a JSON-like value (kubectl's `-o yaml`). */
export function goYamlStringify(value: unknown): string {
  const texts = new WeakMap<Scalar, string>();
  const goString = {
    identify: (v: unknown) => typeof v === 'string',
    default: true,
    tag: STR_TAG,
    resolve: (s: string) => s,
    stringify: (item: Scalar) => texts.get(item) ?? String(item.value),
  };
  const doc = new Document(value, {
    version: '1.1',
    customTags: (tags) => tags.map((t) => (typeof t === 'object' && t.tag === STR_TAG ? goString : t)),
  });
  layout(doc.contents, 0, 0, texts);
  return doc.toString({ indentSeq: false, lineWidth: 80, minContentWidth: 20 });
}
