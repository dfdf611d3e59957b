/**
 * `kubectl -o go-template=…` / `-o template=…`: a port of the part of Go's text/template that
 * kubectl templates use, with kubectl's function map (cli-runtime printers/template.go in v1.33:
 * text/template's builtins plus `exists` and `base64decode`; no sprig). The object is what
 * kubectl hands the engine after a JSON round trip (k8s.io/apimachinery util/json): maps, slices,
 * strings, bools, nil, and numbers that are int64 when integral, float64 otherwise.
 *
 * Covered: text and actions with `{{-`/`-}}` trimming and comments; fields and chains (`.a.b`,
 * `$x.a`, `(pipe).a`); variables (`$`, `$x := …`, `$x = …`, `range $i, $e := …`); pipelines;
 * `if`/`else if`/`with`/`range` with `else`, `break`, `continue`, `define`/`template`; literals
 * (strings, raw strings, chars, ints, floats, bools, nil); functions and, or, not, len, index, slice,
 * print, printf, println, eq, ne, lt, le, gt, ge, html, js, urlquery, exists, base64decode.
 * Missing map keys are `<no value>` (missingkey=default). Errors are worded as text/template's:
 * `template: output:1: unclosed action` when parsing, `template: output:1:2: executing "output" at
 * <len .x>: error calling len: …` when executing.
 */
import { isPlainObject } from '../../util/json.ts';
import { base64ErrorIndex } from '../../apiserver/json-literals.ts';
import { base64Decode, utf8Decode, utf8Encode } from '../../util/encoding.ts';

/** A parse error: the text after `template: output:` (`1: unclosed action`). */
export class GoTemplateParseError extends Error {
  constructor(line: number, message: string) {
    super(`template: output:${line}: ${message}`);
    this.name = 'GoTemplateParseError';
  }
}

/** An execution error: `template: output:L:C: executing "output" at <node>: message`. */
export class GoTemplateExecError extends Error {
  /** What the template wrote before failing (Go's Execute streams to the writer). */
  readonly partial: string;
  constructor(message: string, partial: string) {
    super(message);
    this.name = 'GoTemplateExecError';
    this.partial = partial;
  }
}

/** A number with its Go type, which decides printing, comparison and printf's `%!d(int64=2)`. */
class GoNum {
  readonly v: number;
  readonly type: 'int' | 'int64' | 'float64';
  constructor(v: number, type: 'int' | 'int64' | 'float64') {
    this.v = v;
    this.type = type;
  }
}

/** The zero reflect.Value of a missing key: prints `<no value>`. */
const MISSING = Symbol('missing');
type Value = unknown;

/** A Go map from the data (GoNum instances are objects too, but never maps). */
function isMap(v: Value): v is Record<string, unknown> {
  return isPlainObject(v) && !(v instanceof GoNum);
}

// ---- lexer ------------------------------------------------------------------------------------

type TokKind =
  | 'field'
  | 'var'
  | 'ident'
  | 'string'
  | 'rawstring'
  | 'char'
  | 'number'
  | 'bool'
  | 'nil'
  | 'dot'
  | 'pipe'
  | 'lparen'
  | 'rparen'
  | 'declare'
  | 'assign'
  | 'comma'
  | 'keyword'
  | 'end';

interface Tok {
  readonly kind: TokKind;
  readonly text: string;
  /** Byte offset in the template. */
  readonly pos: number;
}

const KEYWORDS = new Set([
  'if',
  'else',
  'end',
  'range',
  'with',
  'define',
  'template',
  'block',
  'break',
  'continue',
]);

type Piece = { kind: 'text'; text: string } | { kind: 'action'; toks: Tok[]; pos: number };

function lineOf(src: string, pos: number): number {
  let n = 1;
  for (let i = 0; i < pos && i < src.length; i++) if (src[i] === '\n') n++;
  return n;
}

const SPACE = /[ \t\r\n]/;

/** Splits the template into text and tokenized actions (text/template lex.go). */
function lex(src: string): Piece[] {
  const pieces: Piece[] = [];
  let i = 0;
  let trimNext = false;
  while (i <= src.length) {
    const open = src.indexOf('{{', i);
    let text = open < 0 ? src.slice(i) : src.slice(i, open);
    if (trimNext) text = text.replace(/^[ \t\r\n]+/, '');
    trimNext = false;
    if (open < 0) {
      if (text !== '') pieces.push({ kind: 'text', text });
      break;
    }
    let p = open + 2;
    // `{{- ` trims the text before; the dash needs a space after it (`{{-3}}` is a number).
    if (src[p] === '-' && SPACE.test(src[p + 1] ?? '')) {
      text = text.replace(/[ \t\r\n]+$/, '');
      p += 2;
    }
    if (text !== '') pieces.push({ kind: 'text', text });
    while (SPACE.test(src[p] ?? '')) p++;
    if (src.startsWith('/*', p)) {
      const close = src.indexOf('*/', p + 2);
      if (close < 0) throw new GoTemplateParseError(lineOf(src, open), 'unclosed comment');
      let q = close + 2;
      let trim = false;
      if (src.startsWith(' -}}', q)) {
        trim = true;
        q += 1;
      }
      while (SPACE.test(src[q] ?? '')) q++;
      if (src.startsWith('-}}', q)) {
        trim = true;
        q += 1;
      }
      if (!src.startsWith('}}', q))
        throw new GoTemplateParseError(lineOf(src, open), 'comment ends before closing delimiter');
      trimNext = trim;
      i = q + 2;
      continue;
    }
    const toks: Tok[] = [];
    for (;;) {
      if (p >= src.length) throw new GoTemplateParseError(lineOf(src, p), 'unclosed action');
      const c = src[p]!;
      if (SPACE.test(c)) {
        // ` -}}` closes and trims what follows.
        let q = p;
        while (SPACE.test(src[q] ?? '')) q++;
        if (src.startsWith('-}}', q)) {
          trimNext = true;
          p = q + 3;
          break;
        }
        p = q;
        continue;
      }
      if (src.startsWith('}}', p)) {
        p += 2;
        break;
      }
      const start = p;
      const push = (kind: TokKind, end: number): void => {
        toks.push({ kind, text: src.slice(start, end), pos: start });
        p = end;
      };
      if (c === '|') push('pipe', p + 1);
      else if (c === '(') push('lparen', p + 1);
      else if (c === ')') push('rparen', p + 1);
      else if (c === ',') push('comma', p + 1);
      else if (c === ':' && src[p + 1] === '=') push('declare', p + 2);
      else if (c === '=') push('assign', p + 1);
      else if (c === '"') {
        let q = p + 1;
        while (q < src.length && src[q] !== '"' && src[q] !== '\n') q += src[q] === '\\' ? 2 : 1;
        if (src[q] !== '"') throw new GoTemplateParseError(lineOf(src, p), 'unterminated quoted string');
        push('string', q + 1);
      } else if (c === '`') {
        const q = src.indexOf('`', p + 1);
        if (q < 0) throw new GoTemplateParseError(lineOf(src, p), 'unterminated raw quoted string');
        push('rawstring', q + 1);
      } else if (c === "'") {
        let q = p + 1;
        while (q < src.length && src[q] !== "'" && src[q] !== '\n') q += src[q] === '\\' ? 2 : 1;
        if (src[q] !== "'") throw new GoTemplateParseError(lineOf(src, p), 'unterminated character constant');
        push('char', q + 1);
      } else if (c === '.' && !/[0-9]/.test(src[p + 1] ?? '')) {
        const m = /^\.[\p{L}\p{Nd}_]*/u.exec(src.slice(p))!;
        push(m[0] === '.' ? 'dot' : 'field', p + m[0].length);
      } else if (c === '$') {
        const m = /^\$[\p{L}\p{Nd}_]*/u.exec(src.slice(p))!;
        push('var', p + m[0].length);
      } else if (/[0-9+\-.]/.test(c)) {
        const m = /^[+-]?(0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(\d[\d_]*)?\.?\d*([eE][+-]?\d+)?)/.exec(
          src.slice(p),
        )!;
        if (m[0] === '' || m[0] === '+' || m[0] === '-')
          throw new GoTemplateParseError(lineOf(src, p), `bad number syntax: "${c}"`);
        push('number', p + m[0].length);
      } else if (/[\p{L}_]/u.test(c)) {
        const m = /^[\p{L}\p{Nd}_]*/u.exec(src.slice(p))!;
        const word = m[0];
        push(
          KEYWORDS.has(word)
            ? 'keyword'
            : word === 'true' || word === 'false'
              ? 'bool'
              : word === 'nil'
                ? 'nil'
                : 'ident',
          p + word.length,
        );
      } else {
        throw new GoTemplateParseError(lineOf(src, p), `unexpected ${JSON.stringify(c)} in command`);
      }
      // A field or variable followed directly by `.x` continues the chain.
      while (
        toks.length > 0 &&
        src[p] === '.' &&
        /[\p{L}_]/u.test(src[p + 1] ?? '') &&
        ['field', 'var', 'rparen', 'ident'].includes(toks[toks.length - 1]!.kind)
      ) {
        const m = /^\.[\p{L}\p{Nd}_]*/u.exec(src.slice(p))!;
        toks.push({ kind: 'field', text: m[0], pos: p });
        p += m[0].length;
      }
    }
    pieces.push({ kind: 'action', toks, pos: open });
    i = p;
  }
  return pieces;
}

// ---- parse tree -------------------------------------------------------------------------------

type Arg =
  | { t: 'field'; names: string[]; pos: number; text: string }
  | { t: 'dot'; pos: number }
  | { t: 'var'; name: string; names: string[]; pos: number; text: string }
  | { t: 'ident'; name: string; pos: number }
  | { t: 'string'; v: string; pos: number; text: string }
  | { t: 'number'; v: GoNum; pos: number; text: string }
  | { t: 'bool'; v: boolean; pos: number }
  | { t: 'nil'; pos: number }
  | { t: 'pipe'; pipe: Pipe; names: string[]; pos: number };

interface Command {
  readonly args: Arg[];
  readonly pos: number;
}

interface Pipe {
  readonly decl: string[];
  readonly assign: boolean;
  readonly cmds: Command[];
  readonly pos: number;
}

interface ControlNode {
  readonly n: 'if' | 'with' | 'range';
  readonly pipe: Pipe;
  readonly list: TNode[];
  elseList?: TNode[];
}

type TNode =
  | { n: 'text'; text: string }
  | { n: 'action'; pipe: Pipe }
  | ControlNode
  | { n: 'break' | 'continue' }
  | { n: 'template'; name: string; pipe?: Pipe; pos: number; text: string };

const FUNCS = new Set([
  'and',
  'or',
  'not',
  'len',
  'index',
  'slice',
  'print',
  'printf',
  'println',
  'eq',
  'ne',
  'lt',
  'le',
  'gt',
  'ge',
  'html',
  'js',
  'urlquery',
  'call',
  'exists',
  'base64decode',
]);

export interface GoTemplate {
  readonly src: string;
  readonly root: TNode[];
  readonly defines: ReadonlyMap<string, TNode[]>;
}

/** Parses a template as text/template's parser does; throws GoTemplateParseError. */
export function parseGoTemplate(src: string): GoTemplate {
  const pieces = lex(src);
  let k = 0;
  const defines = new Map<string, TNode[]>();
  const fail = (pos: number, message: string): never => {
    throw new GoTemplateParseError(lineOf(src, pos), message);
  };

  const parsePipe = (toks: Tok[], from: number, context: string, scope: string[][]): Pipe => {
    let i = from;
    const decl: string[] = [];
    let assign = false;
    // `$x :=`, `$x =`, `$i, $e :=`
    if (toks[i]?.kind === 'var') {
      const names = [toks[i]!.text];
      let j = i + 1;
      if (toks[j]?.kind === 'comma' && toks[j + 1]?.kind === 'var') {
        names.push(toks[j + 1]!.text);
        j += 2;
      }
      if (toks[j]?.kind === 'declare' || toks[j]?.kind === 'assign') {
        assign = toks[j]!.kind === 'assign';
        if (assign)
          for (const n of names)
            if (!scope.some((s) => s.includes(n))) fail(toks[i]!.pos, `undefined variable "${n}"`);
        decl.push(...names);
        i = j + 1;
      }
    }
    const cmds: Command[] = [];
    let args: Arg[] = [];
    let cmdPos = toks[i]?.pos ?? 0;
    const endCmd = (): void => {
      if (args.length === 0) fail(cmdPos, 'missing value for command');
      cmds.push({ args, pos: cmdPos });
      args = [];
    };
    const operand = (): Arg => {
      const t = toks[i]!;
      i++;
      const chain = (): string[] => {
        const names: string[] = [];
        while (toks[i]?.kind === 'field' && toks[i]!.pos === toks[i - 1]!.pos + toks[i - 1]!.text.length) {
          names.push(toks[i]!.text.slice(1));
          i++;
        }
        return names;
      };
      switch (t.kind) {
        case 'field': {
          const names = [t.text.slice(1), ...chain()];
          // text/template positions a field chain at its second element (parse.go newChain).
          const second = names.length > 1 ? t.pos + t.text.length : t.pos;
          return { t: 'field', names, pos: second, text: `.${names.join('.')}` };
        }
        case 'dot':
          return { t: 'dot', pos: t.pos };
        case 'var': {
          if (!scope.some((s) => s.includes(t.text))) fail(t.pos, `undefined variable "${t.text}"`);
          const names = chain();
          return { t: 'var', name: t.text, names, pos: t.pos, text: [t.text, ...names].join('.') };
        }
        case 'ident':
          if (!FUNCS.has(t.text)) fail(t.pos, `function "${t.text}" not defined`);
          return { t: 'ident', name: t.text, pos: t.pos };
        case 'string':
          return { t: 'string', v: unquote(t.text, src, t.pos), pos: t.pos, text: t.text };
        case 'rawstring':
          return { t: 'string', v: t.text.slice(1, -1), pos: t.pos, text: t.text };
        case 'char':
          return {
            t: 'number',
            v: new GoNum(unquote(`"${t.text.slice(1, -1)}"`, src, t.pos).codePointAt(0) ?? 0, 'int'),
            pos: t.pos,
            text: t.text,
          };
        case 'number':
          return { t: 'number', v: parseNumber(t.text, src, t.pos), pos: t.pos, text: t.text };
        case 'bool':
          return { t: 'bool', v: t.text === 'true', pos: t.pos };
        case 'nil':
          return { t: 'nil', pos: t.pos };
        case 'lparen': {
          let depth = 1;
          let j = i;
          for (; j < toks.length; j++) {
            if (toks[j]!.kind === 'lparen') depth++;
            if (toks[j]!.kind === 'rparen' && --depth === 0) break;
          }
          if (j >= toks.length) fail(t.pos, 'unclosed left paren');
          const inner = parsePipe(toks.slice(0, j), i, 'command', scope);
          i = j + 1;
          return { t: 'pipe', pipe: inner, names: chain(), pos: t.pos };
        }
        case 'rparen':
          return fail(t.pos, 'unexpected right paren');
        default:
          return fail(t.pos, `unexpected ${JSON.stringify(t.text)} in operand`);
      }
    };
    while (i < toks.length) {
      const t = toks[i]!;
      if (t.kind === 'pipe') {
        if (args.length === 0) fail(t.pos, 'missing value for command');
        endCmd();
        i++;
        cmdPos = toks[i]?.pos ?? t.pos;
        continue;
      }
      if (args.length === 0) cmdPos = t.pos;
      args.push(operand());
    }
    if (args.length > 0) endCmd();
    else if (cmds.length > 0) fail(toks[toks.length - 1]!.pos, 'missing value for command');
    if (cmds.length === 0) {
      if (context === 'command') fail(toks[from]?.pos ?? 0, 'missing value for command');
      fail(toks[from - 1]?.pos ?? 0, `missing value for ${context}`);
    }
    if (decl.length > 0 && !assign) scope[scope.length - 1]!.push(...decl);
    return { decl, assign, cmds, pos: toks[from]?.pos ?? 0 };
  };

  /** Parses nodes until `{{end}}`/`{{else}}`; returns what stopped it. */
  const parseList = (
    scope: string[][],
    inRange: boolean,
  ): { list: TNode[]; stop: 'end' | 'else' | 'eof'; elseToks?: Tok[]; pos: number } => {
    const list: TNode[] = [];
    while (k < pieces.length) {
      const piece = pieces[k++]!;
      if (piece.kind === 'text') {
        list.push({ n: 'text', text: piece.text });
        continue;
      }
      const toks = piece.toks;
      const first = toks[0];
      if (!first) fail(piece.pos, 'missing value for command');
      if (first!.kind !== 'keyword') {
        list.push({ n: 'action', pipe: parsePipe(toks, 0, 'command', scope) });
        continue;
      }
      switch (first!.text) {
        case 'end':
          return { list, stop: 'end', pos: first!.pos };
        case 'else':
          return { list, stop: 'else', elseToks: toks.slice(1), pos: first!.pos };
        case 'break':
        case 'continue':
          if (!inRange) fail(first!.pos, `{{${first!.text}}} outside {{range}}`);
          list.push({ n: first!.text as 'break' | 'continue' });
          continue;
        case 'if':
        case 'with':
        case 'range':
          list.push(parseControl(first!.text as 'if' | 'with' | 'range', toks, scope, inRange));
          continue;
        case 'define': {
          const name = toks[1];
          if (name?.kind !== 'string') fail(first!.pos, 'define: expected name');
          const inner = parseList([['$']], false);
          if (inner.stop !== 'end')
            fail(inner.pos, inner.stop === 'eof' ? 'unexpected EOF' : 'unexpected {{else}}');
          defines.set(unquote(name!.text, src, name!.pos), inner.list);
          continue;
        }
        case 'template':
        case 'block': {
          const name = toks[1];
          if (name?.kind !== 'string' && name?.kind !== 'rawstring')
            fail(first!.pos, `unexpected ${JSON.stringify(name?.text ?? '')} in template clause`);
          const pipe = toks.length > 2 ? parsePipe(toks, 2, 'template', scope) : undefined;
          const text = `{{${toks.map((t) => t.text).join(' ')}}}`;
          const tname =
            name!.kind === 'string' ? unquote(name!.text, src, name!.pos) : name!.text.slice(1, -1);
          // text/template reports a missing template at its name.
          list.push({ n: 'template', name: tname, pipe, pos: name!.pos, text });
          // `{{block "x" .}}…{{end}}` defines x and runs it in place.
          if (first!.text === 'block') {
            const inner = parseList([['$']], false);
            if (inner.stop !== 'end') fail(inner.pos, 'unexpected EOF');
            defines.set(tname, inner.list);
          }
          continue;
        }
      }
    }
    return { list, stop: 'eof', pos: src.length };
  };

  const parseControl = (
    kind: 'if' | 'with' | 'range',
    toks: Tok[],
    scope: string[][],
    inRange: boolean,
  ): TNode => {
    const inner = [...scope, []];
    const pipe = parsePipe(toks, 1, kind, inner);
    const body = parseList(inner, inRange || kind === 'range');
    if (body.stop === 'eof') fail(body.pos, 'unexpected EOF');
    const node: ControlNode = {
      n: kind,
      pipe,
      list: body.list,
    };
    if (body.stop === 'else') {
      const elseToks = body.elseToks!;
      // `{{else if …}}` / `{{else with …}}` nest a control that shares this one's {{end}}.
      if (elseToks[0]?.kind === 'keyword' && (elseToks[0].text === 'if' || elseToks[0].text === 'with')) {
        node.elseList = [parseControl(elseToks[0].text as 'if' | 'with', elseToks, scope, inRange)];
        return node;
      }
      const rest = parseList([...scope, []], inRange);
      if (rest.stop === 'eof') fail(rest.pos, 'unexpected EOF');
      if (rest.stop === 'else') fail(rest.pos, 'expected end; found {{else}}');
      node.elseList = rest.list;
    }
    return node;
  };

  const top = parseList([['$']], false);
  if (top.stop === 'end') fail(top.pos, 'unexpected {{end}}');
  if (top.stop === 'else') fail(top.pos, 'unexpected {{else}}');
  return { src, root: top.list, defines };
}

function unquote(text: string, src: string, pos: number): string {
  try {
    return JSON.parse(
      text
        .replace(/\\x([0-9a-fA-F]{2})/g, '\\u00$1')
        .replace(
          /\\([abfv'])/g,
          (_m, c: string) => ({ a: '\\u0007', b: '\\b', f: '\\f', v: '\\u000b', "'": "'" })[c]!,
        ),
    ) as string;
  } catch {
    throw new GoTemplateParseError(lineOf(src, pos), `invalid syntax`);
  }
}

function parseNumber(text: string, src: string, pos: number): GoNum {
  const clean = text.replace(/_/g, '');
  const isFloat = !/^[+-]?0[xXbBoO]/.test(clean) && /[.eE]/.test(clean);
  const v = isFloat ? Number(clean) : Number(clean.replace(/^([+-]?)0[oO]/, '$10o'));
  if (Number.isNaN(v)) throw new GoTemplateParseError(lineOf(src, pos), `illegal number syntax: "${text}"`);
  return new GoNum(v, isFloat ? 'float64' : 'int');
}

// ---- values -----------------------------------------------------------------------------------

/** Data from the object: integral numbers are int64 (apimachinery's JSON decoding), others float64. */
function fromData(v: unknown): Value {
  if (typeof v === 'number') return new GoNum(v, Number.isInteger(v) ? 'int64' : 'float64');
  if (v === undefined) return MISSING;
  return v;
}

function isMissing(v: Value): boolean {
  return v === MISSING || v === null;
}

function truth(v: Value): boolean {
  if (isMissing(v)) return false;
  if (v instanceof GoNum) return v.v !== 0;
  if (typeof v === 'string') return v !== '';
  if (typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.length > 0;
  if (isMap(v)) return Object.keys(v).length > 0;
  return true;
}

/** Go's %v of a float64: shortest digits, exponent form below 1e-4 and from 1e6. */
function formatFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mant, expText] = f.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  // strconv's shortest %g switches to exponent form at 1e+06 (fmt.Println(1e6) is 1e+06).
  if (exp < -4 || exp >= 6) {
    const e = Math.abs(exp);
    return `${mant}e${exp < 0 ? '-' : '+'}${e < 10 ? `0${e}` : e}`;
  }
  return String(f);
}

/** fmt's %v. */
function formatV(v: Value, top = false): string {
  if (v === MISSING) return top ? '<no value>' : '<nil>';
  if (v === null) return top ? '<no value>' : '<nil>';
  if (v instanceof GoNum) return v.type === 'float64' ? formatFloat(v.v) : String(v.v);
  if (typeof v === 'number') return formatV(fromData(v));
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map((x) => formatV(fromData(x))).join(' ')}]`;
  if (isMap(v))
    return `map[${Object.keys(v)
      .sort()
      .map((k) => `${k}:${formatV(fromData(v[k]))}`)
      .join(' ')}]`;
  return String(v);
}

function goType(v: Value): string {
  if (v instanceof GoNum) return v.type;
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  if (isMap(v)) return 'map[string]interface {}';
  return '<nil>';
}

/** Go's %q of a string. */
export function goQuote(s: string): string {
  return `"${[...s]
    .map((c) => {
      const code = c.codePointAt(0)!;
      if (c === '"' || c === '\\') return `\\${c}`;
      if (c === '\n') return '\\n';
      if (c === '\t') return '\\t';
      if (c === '\r') return '\\r';
      if (code < 0x20 || code === 0x7f) return `\\x${code.toString(16).padStart(2, '0')}`;
      return c;
    })
    .join('')}"`;
}

/** fmt.Sprintf for the verbs templates use. */
function sprintf(format: string, args: Value[]): string {
  let out = '';
  let n = 0;
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!;
    if (c !== '%') {
      out += c;
      continue;
    }
    const m = /^([-+# 0]*)(\d+)?(?:\.(\d+))?([a-zA-Z%])?/.exec(format.slice(i + 1))!;
    i += m[0].length;
    const flags = m[1]!;
    const width = m[2] === undefined ? undefined : Number(m[2]);
    const prec = m[3] === undefined ? undefined : Number(m[3]);
    const verb = m[4];
    if (verb === undefined) {
      out += '%!(NOVERB)';
      continue;
    }
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (n >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    const a = args[n++]!;
    out += pad(formatVerb(verb, a, prec), width, flags);
  }
  if (n < args.length)
    out += `%!(EXTRA ${args
      .slice(n)
      .map((a) => `${goType(a)}=${formatV(a)}`)
      .join(', ')})`;
  return out;
}

function pad(s: string, width: number | undefined, flags: string): string {
  if (width === undefined || s.length >= width) return s;
  if (flags.includes('-')) return s.padEnd(width);
  if (flags.includes('0') && /^[+-]?[0-9.]/.test(s)) {
    const sign = /^[+-]/.test(s) ? s[0]! : '';
    return sign + s.slice(sign.length).padStart(width - sign.length, '0');
  }
  return s.padStart(width);
}

function formatVerb(verb: string, a: Value, prec: number | undefined): string {
  const bad = (): string => (isMissing(a) ? `%!${verb}(<nil>)` : `%!${verb}(${goType(a)}=${formatV(a)})`);
  // fmt applies a verb to each element of a map or slice.
  if (verb !== 'v' && verb !== 'T' && (Array.isArray(a) || isMap(a))) {
    if (Array.isArray(a)) return `[${a.map((x) => formatVerb(verb, fromData(x), prec)).join(' ')}]`;
    const obj = a as Record<string, unknown>;
    return `map[${Object.keys(obj)
      .sort()
      .map((k) => `${formatVerb(verb, k, prec)}:${formatVerb(verb, fromData(obj[k]), prec)}`)
      .join(' ')}]`;
  }
  switch (verb) {
    case 'v':
      return formatV(a);
    case 'T':
      return goType(a);
    case 's':
      if (typeof a === 'string') return prec === undefined ? a : a.slice(0, prec);
      return bad();
    case 'q':
      if (typeof a === 'string') return goQuote(a);
      if (a instanceof GoNum && a.type !== 'float64') return `'${String.fromCodePoint(a.v)}'`;
      return bad();
    case 'd':
      return a instanceof GoNum && a.type !== 'float64' ? String(a.v) : bad();
    case 'x':
    case 'X': {
      let s: string;
      if (a instanceof GoNum && a.type !== 'float64') s = a.v.toString(16);
      else if (typeof a === 'string')
        s = Array.from(utf8Encode(a), (b) => b.toString(16).padStart(2, '0')).join('');
      else return bad();
      return verb === 'X' ? s.toUpperCase() : s;
    }
    case 'o':
      return a instanceof GoNum && a.type !== 'float64' ? a.v.toString(8) : bad();
    case 'b':
      return a instanceof GoNum && a.type !== 'float64' ? a.v.toString(2) : bad();
    case 'c':
      return a instanceof GoNum && a.type !== 'float64' ? String.fromCodePoint(a.v) : bad();
    case 't':
      return typeof a === 'boolean' ? String(a) : bad();
    case 'f':
    case 'F':
      return a instanceof GoNum && a.type === 'float64' ? a.v.toFixed(prec ?? 6) : bad();
    case 'e':
      return a instanceof GoNum && a.type === 'float64'
        ? a.v.toExponential(prec ?? 6).replace(/e([+-])(\d)$/, 'e$10$2')
        : bad();
    case 'g':
      return a instanceof GoNum && a.type === 'float64' ? formatFloat(a.v) : bad();
    default:
      return bad();
  }
}

// ---- execution --------------------------------------------------------------------------------

class Control {
  readonly kind: 'break' | 'continue';
  constructor(kind: 'break' | 'continue') {
    this.kind = kind;
  }
}

interface State {
  readonly tmpl: GoTemplate;
  readonly out: string[];
  vars: { name: string; value: Value }[];
  /** The node an error is reported at (exec.go state.at). */
  at: { pos: number; text: string };
  depth: number;
}

function execError(s: State, message: string): never {
  const src = s.tmpl.src;
  const line = lineOf(src, s.at.pos);
  const col = s.at.pos - (src.lastIndexOf('\n', s.at.pos - 1) + 1);
  throw new GoTemplateExecError(
    `template: output:${line}:${col}: executing "output" at <${s.at.text}>: ${message}`,
    s.out.join(''),
  );
}

function argText(a: Arg): string {
  switch (a.t) {
    case 'field':
    case 'var':
    case 'string':
    case 'number':
      return a.text;
    case 'dot':
      return '.';
    case 'ident':
      return a.name;
    case 'bool':
      return String(a.v);
    case 'nil':
      return 'nil';
    case 'pipe':
      return `(${pipeText(a.pipe)})${a.names.map((n) => `.${n}`).join('')}`;
  }
}

function cmdText(c: Command): string {
  return c.args.map(argText).join(' ');
}

function pipeText(p: Pipe): string {
  const decl = p.decl.length > 0 ? `${p.decl.join(', ')} ${p.assign ? '=' : ':='} ` : '';
  return decl + p.cmds.map(cmdText).join(' | ');
}

function fieldOf(s: State, receiver: Value, name: string): Value {
  if (isMap(receiver))
    return Object.prototype.hasOwnProperty.call(receiver, name) ? fromData(receiver[name]) : MISSING;
  if (isMissing(receiver)) return MISSING;
  return execError(s, `can't evaluate field ${name} in type interface {}`);
}

function walkNames(s: State, v: Value, names: readonly string[], hasArgs: boolean): Value {
  let cur = v;
  for (const name of names) cur = fieldOf(s, cur, name);
  if (hasArgs && names.length > 0)
    execError(s, `${names[names.length - 1]} is not a method but has arguments`);
  return cur;
}

function evalArg(s: State, dot: Value, a: Arg): Value {
  switch (a.t) {
    case 'dot':
      return dot;
    case 'field':
      s.at = { pos: a.pos, text: a.text };
      return walkNames(s, dot, a.names, false);
    case 'var': {
      s.at = { pos: a.pos, text: a.text };
      return walkNames(s, lookupVar(s, a.name), a.names, false);
    }
    case 'string':
      return a.v;
    case 'number':
      return a.v;
    case 'bool':
      return a.v;
    case 'nil':
      return null;
    case 'pipe':
      return walkNames(s, evalPipe(s, dot, a.pipe), a.names, false);
    case 'ident':
      return callFunction(s, dot, { args: [a], pos: a.pos }, undefined);
  }
}

function lookupVar(s: State, name: string): Value {
  for (let i = s.vars.length - 1; i >= 0; i--) if (s.vars[i]!.name === name) return s.vars[i]!.value;
  return MISSING;
}

function evalCommand(s: State, dot: Value, cmd: Command, final: Value | undefined): Value {
  const first = cmd.args[0]!;
  const hasArgs = cmd.args.length > 1 || final !== undefined;
  switch (first.t) {
    case 'field':
      s.at = { pos: first.pos, text: first.text };
      return walkNames(s, dot, first.names, hasArgs);
    case 'var':
      s.at = { pos: first.pos, text: first.text };
      return walkNames(s, lookupVar(s, first.name), first.names, hasArgs);
    case 'ident':
      return callFunction(s, dot, cmd, final);
    case 'pipe':
      if (hasArgs) {
        s.at = { pos: first.pos, text: argText(first) };
        execError(s, `can't give argument to non-function ${argText(first)}`);
      }
      return evalArg(s, dot, first);
    default:
      s.at = { pos: first.pos, text: argText(first) };
      if (hasArgs) execError(s, `can't give argument to non-function ${argText(first)}`);
      if (first.t === 'nil') execError(s, 'nil is not a command');
      return evalArg(s, dot, first);
  }
}

function evalPipe(s: State, dot: Value, pipe: Pipe): Value {
  let value: Value | undefined;
  for (const cmd of pipe.cmds) value = evalCommand(s, dot, cmd, value);
  const v = value === undefined ? MISSING : value;
  for (const name of pipe.decl.slice(-1)) {
    if (pipe.assign) {
      for (let i = s.vars.length - 1; i >= 0; i--)
        if (s.vars[i]!.name === name) {
          s.vars[i]!.value = v;
          break;
        }
    } else s.vars.push({ name, value: v });
  }
  return v;
}

function compareKind(v: Value): 'int' | 'float' | 'string' | 'bool' | undefined {
  if (v instanceof GoNum) return v.type === 'float64' ? 'float' : 'int';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return undefined;
}

function scalar(v: Value): number | string | boolean {
  return v instanceof GoNum ? v.v : (v as string | boolean);
}

function callFunction(s: State, dot: Value, cmd: Command, final: Value | undefined): Value {
  const ident = cmd.args[0] as Extract<Arg, { t: 'ident' }>;
  s.at = { pos: ident.pos, text: ident.name };
  const name = ident.name;
  const lazy = cmd.args.slice(1);
  // and/or evaluate their arguments only as far as needed.
  if (name === 'and' || name === 'or') {
    const values = lazy.map((a) => () => evalArg(s, dot, a));
    if (final !== undefined) values.push(() => final);
    if (values.length === 0) {
      s.at = { pos: cmd.pos, text: cmdText(cmd) };
      execError(s, `wrong number of args for ${name}: want at least 1 got 0`);
    }
    let v: Value = MISSING;
    for (const get of values) {
      v = get();
      if (truth(v) !== (name === 'and')) return v;
    }
    return v;
  }
  const args = lazy.map((a) => evalArg(s, dot, a));
  if (final !== undefined) args.push(final);
  s.at = { pos: cmd.pos, text: cmdText(cmd) };
  const fail = (message: string): never => execError(s, `error calling ${name}: ${message}`);
  const want = (n: number): void => {
    if (args.length !== n) execError(s, `wrong number of args for ${name}: want ${n} got ${args.length}`);
  };
  switch (name) {
    case 'not':
      want(1);
      return !truth(args[0]);
    case 'len': {
      want(1);
      const a = args[0];
      if (isMissing(a)) return fail('reflect: call of reflect.Value.Type on zero Value');
      if (typeof a === 'string') return new GoNum(utf8Encode(a).length, 'int');
      if (Array.isArray(a)) return new GoNum(a.length, 'int');
      if (isMap(a)) return new GoNum(Object.keys(a).length, 'int');
      return fail(`len of type ${goType(a)}`);
    }
    case 'index': {
      if (args.length < 1) execError(s, `wrong number of args for index: want at least 1 got 0`);
      let cur = args[0];
      for (const key of args.slice(1)) {
        if (isMap(cur)) {
          if (typeof key !== 'string') return fail(`value has type ${goType(key)}; should be string`);
          cur = Object.prototype.hasOwnProperty.call(cur, key) ? fromData(cur[key]) : MISSING;
        } else if (Array.isArray(cur) || typeof cur === 'string') {
          if (!(key instanceof GoNum) || key.type === 'float64')
            return fail(`cannot index slice/array with type ${goType(key)}`);
          if (key.v < 0 || key.v >= cur.length) return fail(`index out of range: ${key.v}`);
          cur = typeof cur === 'string' ? new GoNum(utf8Encode(cur)[key.v]!, 'int') : fromData(cur[key.v]);
        } else if (isMissing(cur)) return fail('index of untyped nil');
        else return fail(`can't index item of type ${goType(cur)}`);
      }
      return cur;
    }
    case 'slice': {
      const [item, ...idx] = args;
      if (typeof item !== 'string' && !Array.isArray(item))
        return fail(`can't slice item of type ${goType(item)}`);
      const nums = idx.map((x) => (x instanceof GoNum ? x.v : NaN));
      const from = nums[0] ?? 0;
      const to = nums[1] ?? item.length;
      if (from < 0 || to > item.length || from > to) return fail(`index out of range: ${to}`);
      return item.slice(from, to);
    }
    case 'print':
    case 'println': {
      const parts = args.map((a) => formatV(a));
      if (name === 'println') return `${parts.join(' ')}\n`;
      // fmt.Sprint puts spaces only between operands when neither is a string.
      return parts.reduce(
        (acc, p, i) =>
          acc + (i > 0 && typeof args[i] !== 'string' && typeof args[i - 1] !== 'string' ? ' ' : '') + p,
        '',
      );
    }
    case 'printf': {
      if (args.length < 1) execError(s, 'wrong number of args for printf: want at least 1 got 0');
      if (typeof args[0] !== 'string')
        return fail(`wrong type for value; expected string; got ${goType(args[0])}`);
      return sprintf(args[0], args.slice(1));
    }
    case 'eq':
    case 'ne':
    case 'lt':
    case 'le':
    case 'gt':
    case 'ge': {
      if (name === 'eq') {
        if (args.length < 2) execError(s, `wrong number of args for eq: want at least 2 got ${args.length}`);
      } else want(2);
      const [a, ...rest] = args;
      const ka = compareKind(a);
      for (const b of rest) {
        const kb = compareKind(b);
        if (ka === undefined || kb === undefined) {
          if (name === 'eq' || name === 'ne') {
            const same = isMissing(a) && isMissing(b);
            if (name === 'ne') return !same;
            if (same) return true;
            continue;
          }
          return fail('invalid type for comparison');
        }
        if (ka !== kb) return fail(`incompatible types for comparison: ${goType(a)} and ${goType(b)}`);
        const x = scalar(a);
        const y = scalar(b);
        if (name === 'eq') {
          if (x === y) return true;
          continue;
        }
        if ((name === 'lt' || name === 'le' || name === 'gt' || name === 'ge') && ka === 'bool')
          return fail('invalid type for comparison');
        switch (name) {
          case 'ne':
            return x !== y;
          case 'lt':
            return x < y;
          case 'le':
            return x <= y;
          case 'gt':
            return x > y;
          case 'ge':
            return x >= y;
        }
      }
      return false;
    }
    case 'html':
      return args
        .map((a) => formatV(a))
        .join('')
        .replace(
          /[&<>"'\0]/g,
          (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;', '\0': '\uFFFD' })[c]!,
        );
    case 'js':
      return args
        .map((a) => formatV(a))
        .join('')
        .replace(/[\\'"<>&=\n\r\t]/g, (c) =>
          c === '\\' || c === "'" || c === '"'
            ? `\\${c}`
            : `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
        );
    case 'urlquery':
      return encodeURIComponent(args.map((a) => formatV(a)).join(''))
        .replace(/%20/g, '+')
        .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    case 'exists': {
      // cli-runtime printers/template.go exists: walks map keys (and slice indexes).
      let cur: Value = args[0];
      for (const key of args.slice(1)) {
        if (isMap(cur) && typeof key === 'string' && Object.prototype.hasOwnProperty.call(cur, key))
          cur = fromData(cur[key]);
        else if (Array.isArray(cur) && key instanceof GoNum && key.v >= 0 && key.v < cur.length)
          cur = fromData(cur[key.v]);
        else return false;
      }
      return true;
    }
    case 'base64decode': {
      want(1);
      const text = args[0];
      if (typeof text !== 'string') return fail(`wrong type for value; expected string; got ${goType(text)}`);
      const bad = base64ErrorIndex(text);
      if (bad !== undefined) return fail(`base64 decode failed: illegal base64 data at input byte ${bad}`);
      return utf8Decode(base64Decode(text) ?? []);
    }
    default:
      return fail(`can't call ${name}`);
  }
}

function walk(s: State, dot: Value, nodes: readonly TNode[]): void {
  for (const node of nodes) {
    switch (node.n) {
      case 'text':
        s.out.push(node.text);
        break;
      case 'action': {
        const v = evalPipe(s, dot, node.pipe);
        if (node.pipe.decl.length === 0) s.out.push(formatV(v, true));
        break;
      }
      case 'if':
      case 'with': {
        const mark = s.vars.length;
        const v = evalPipe(s, dot, node.pipe);
        if (truth(v)) walk(s, node.n === 'with' ? v : dot, node.list);
        else if (node.elseList) walk(s, dot, node.elseList);
        s.vars.length = mark;
        break;
      }
      case 'range':
        walkRange(s, dot, node);
        break;
      case 'break':
      case 'continue':
        throw new Control(node.n);
      case 'template': {
        const body = s.tmpl.defines.get(node.name);
        if (!body) {
          s.at = { pos: node.pos, text: node.text };
          execError(s, `template ${goQuote(node.name)} not defined`);
        }
        if (++s.depth > 100) execError(s, `exceeded maximum template depth (100000)`);
        const saved = s.vars;
        const newDot = node.pipe ? evalPipe(s, dot, node.pipe) : MISSING;
        s.vars = [{ name: '$', value: newDot }];
        walk(s, newDot, body!);
        s.vars = saved;
        s.depth--;
        break;
      }
    }
  }
}

function walkRange(s: State, dot: Value, node: ControlNode): void {
  const mark = s.vars.length;
  // Evaluate without declaring: range binds its variables per element.
  const pipe = { ...node.pipe, decl: [] };
  const v = evalPipe(s, dot, pipe);
  let entries: [Value, Value][];
  if (Array.isArray(v)) entries = v.map((x, i) => [new GoNum(i, 'int'), fromData(x)]);
  else if (isMap(v))
    entries = Object.keys(v)
      .sort()
      .map((k) => [k, fromData(v[k])]);
  else if (isMissing(v)) entries = [];
  else if (v instanceof GoNum && v.type !== 'float64')
    entries = Array.from({ length: Math.max(0, v.v) }, (_x, i) => [new GoNum(i, 'int'), new GoNum(i, 'int')]);
  else return execError(s, `range can't iterate over ${formatV(v)}`);
  if (entries.length === 0) {
    if (node.elseList) walk(s, dot, node.elseList);
    s.vars.length = mark;
    return;
  }
  for (const [key, elem] of entries) {
    s.vars.length = mark;
    const decl = node.pipe.decl;
    if (decl.length === 1) s.vars.push({ name: decl[0]!, value: elem });
    if (decl.length === 2) s.vars.push({ name: decl[0]!, value: key }, { name: decl[1]!, value: elem });
    try {
      walk(s, elem, node.list);
    } catch (e) {
      if (!(e instanceof Control)) throw e;
      if (e.kind === 'break') break;
    }
  }
  s.vars.length = mark;
}

/** Runs a parsed template on an object; throws GoTemplateExecError. */
export function executeGoTemplate(tmpl: GoTemplate, data: unknown): string {
  const root = fromData(data);
  const s: State = { tmpl, out: [], vars: [{ name: '$', value: root }], at: { pos: 0, text: '' }, depth: 0 };
  walk(s, root, tmpl.root);
  return s.out.join('');
}

/** fmt's %+v of the object kubectl gives the engine (its debugging dump). */
export function goDump(data: unknown): string {
  return formatV(fromData(data));
}
