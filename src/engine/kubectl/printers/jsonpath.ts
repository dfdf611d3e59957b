/**
 * client-go's JSONPath dialect (k8s.io/client-go/util/jsonpath), as `kubectl get -o jsonpath=…` and
 * custom-columns use it: literal text outside `{}`; inside, `.field`, `['field']`, `[n]`, `[a:b]`,
 * `[*]`, `..field`, `[?(@.f=="v")]` filters, `[a,b]` unions, `{range …}…{end}`, and quoted string
 * literals with Go escapes. Several results of one expression print space-separated; maps and lists
 * print as JSON. Missing keys print nothing (kubectl's `--allow-missing-template-keys=true`).
 */
import { isPlainObject } from '../../util/json.ts';

export class JsonPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPathError';
  }
}

type Step =
  | { kind: 'field'; name: string }
  | { kind: 'recursive'; name: string }
  | { kind: 'index'; indices: IndexSpec[] }
  | { kind: 'wildcard' }
  | { kind: 'filter'; left: Step[]; op?: string; right?: Literal | Step[] }
  | { kind: 'root' }
  | { kind: 'current' };

type IndexSpec =
  | { kind: 'one'; i: number }
  | { kind: 'slice'; start?: number; end?: number; step?: number }
  | { kind: 'key'; key: string };
type Literal = { lit: string | number | boolean | null };

type Node =
  | { kind: 'text'; text: string }
  | { kind: 'expr'; steps: Step[] }
  | { kind: 'literal'; text: string }
  | { kind: 'range'; steps: Step[]; body: Node[] };

/** Splits a template into literal text and `{…}` actions, then builds the range/end tree. */
export function parseJsonPath(template: string): Node[] {
  const flat: ({ kind: 'text'; text: string } | { kind: 'action'; text: string })[] = [];
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    if (open < 0) {
      flat.push({ kind: 'text', text: template.slice(i) });
      break;
    }
    if (open > i) flat.push({ kind: 'text', text: template.slice(i, open) });
    const close = findClose(template, open + 1);
    if (close < 0) throw new JsonPathError(`unclosed action`);
    flat.push({ kind: 'action', text: template.slice(open + 1, close) });
    i = close + 1;
  }
  const root: Node[] = [];
  const stack: Node[][] = [root];
  const rangeStack: Extract<Node, { kind: 'range' }>[] = [];
  for (const part of flat) {
    const top = stack[stack.length - 1]!;
    if (part.kind === 'text') {
      top.push(part);
      continue;
    }
    const text = part.text.trim();
    if (text === 'end') {
      if (rangeStack.length === 0) throw new JsonPathError('not in range, nothing to end');
      rangeStack.pop();
      stack.pop();
      continue;
    }
    if (text.startsWith('range ') || text === 'range') {
      const node: Extract<Node, { kind: 'range' }> = {
        kind: 'range',
        steps: parseSteps(text.slice(5).trim()),
        body: [],
      };
      top.push(node);
      rangeStack.push(node);
      stack.push(node.body);
      continue;
    }
    const lit = /^"((?:[^"\\]|\\.)*)"$/.exec(text) ?? /^'([^']*)'$/.exec(text);
    if (lit) {
      top.push({ kind: 'literal', text: unescapeGo(lit[1]!) });
      continue;
    }
    top.push({ kind: 'expr', steps: parseSteps(text) });
  }
  if (rangeStack.length > 0) throw new JsonPathError('unclosed range');
  return root;
}

function findClose(s: string, from: number): number {
  let quote: string | undefined;
  for (let i = from; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '}') return i;
  }
  return -1;
}

function unescapeGo(s: string): string {
  return s.replace(
    /\\(.)/g,
    (_m, c: string) => ({ n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' })[c] ?? `\\${c}`,
  );
}

function parseSteps(text: string): Step[] {
  const steps: Step[] = [];
  let i = 0;
  // client-go's parser.advance: a backslash takes the next character into the name, and parseField
  // then drops every backslash (`kubernetes\.io/hostname` is one field).
  const ident = (): string => {
    const m = /^(?:\\.|[^.[\]\s()=!<>,'"\\])*/.exec(text.slice(i))!;
    i += m[0].length;
    return m[0].replace(/\\/g, '');
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '$') {
      steps.push({ kind: 'root' });
      i++;
    } else if (c === '@') {
      steps.push({ kind: 'current' });
      i++;
    } else if (text.startsWith('..', i)) {
      i += 2;
      if (text.startsWith('..', i)) throw new JsonPathError('invalid multiple recursive descent');
      steps.push({ kind: 'recursive', name: ident() });
    } else if (c === '.') {
      i++;
      const name = ident();
      if (name === '*') steps.push({ kind: 'wildcard' });
      else if (name !== '') steps.push({ kind: 'field', name });
    } else if (text.startsWith('[?(', i)) {
      const close = filterEnd(text, i + 3);
      steps.push(parseBracket(text.slice(i + 1, close)));
      i = close + 1;
    } else if (c === '[') {
      const close = matchingBracket(text, i);
      if (close < 0) throw new JsonPathError(`unterminated array`);
      const inner = text.slice(i + 1, close).trim();
      // client-go parseArray: a quoted dict key is re-parsed as `{.KEY}`, so an unescaped dot splits it
      // (`['kubernetes.io/hostname']` finds nothing; `['kubernetes\.io/hostname']` finds the label).
      const key = /^'([^']*)'$/.exec(inner);
      if (key) steps.push(...parseSteps(`.${key[1]!}`));
      else steps.push(parseBracket(inner));
      i = close + 1;
    } else if (c === ' ') {
      i++;
    } else {
      // Outside a field, only an identifier (client-go isAlphaNumeric) may start a step.
      const name = /[\p{L}\p{Nd}_]/u.test(c) ? ident() : '';
      if (name === '')
        throw new JsonPathError(
          `unrecognized character in action: U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} '${c}'`,
        );
      steps.push({ kind: 'field', name });
    }
  }
  return steps;
}

/**
 * client-go parseFilter: the filter ends at the first `)` outside a quoted operand and must be
 * followed by `]`; returns the index of that `]`.
 */
function filterEnd(s: string, from: number): number {
  let quote: string | undefined;
  let closed = false;
  for (let i = from; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\n') break;
    if (c === '"' || c === "'") {
      if (quote === undefined) quote = c;
      else if (c === quote && s[i - 1] !== '\\') closed = true;
    } else if (c === ')' && (quote === undefined) === !closed) {
      if (s[i + 1] !== ']') throw new JsonPathError('unclosed array expect ]');
      return i + 1;
    }
  }
  throw new JsonPathError('unterminated filter');
}

function matchingBracket(s: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return i;
  }
  return -1;
}

function parseBracket(inner: string): Step {
  if (inner === '*') return { kind: 'wildcard' };
  if (inner.startsWith('?(') && inner.endsWith(')')) {
    const body = inner.slice(2, -1);
    // client-go parseFilter splits with `^([^!<>=]+)([!<>=]+)(.+?)$` and parses each side as an
    // action, so `@.x==` leaves `=` as the right operand and fails on it.
    const m = /^([^!<>=]+)([!<>=]+)(.+?)$/s.exec(body);
    if (!m) return { kind: 'filter', left: parseSteps(body.trim()) };
    const rightText = m[3]!.trim();
    const str = /^(["'])(.*)\1$/.exec(rightText);
    const right: Literal | Step[] = str
      ? { lit: str[2]! }
      : /^[+-]?\d+(\.\d+)?$/.test(rightText)
        ? { lit: Number(rightText) }
        : rightText === 'true' || rightText === 'false'
          ? { lit: rightText === 'true' }
          : parseSteps(rightText);
    return { kind: 'filter', left: parseSteps(m[1]!.trim()), op: m[2]!, right };
  }
  const indices: IndexSpec[] = inner.split(',').map((p) => {
    const part = p.trim();
    // Only single quotes make a key (client-go dictKeyRex `^'([^']*)'$`); `["a"]` is an invalid index.
    const key = /^'([^']*)'$/.exec(part);
    if (key) return { kind: 'key', key: key[1]!.replace(/\\/g, '') };
    if (part.includes(':')) {
      const [a, b, c] = part.split(':').map((x) => (x.trim() === '' ? undefined : Number(x)));
      if ([a, b, c].some((x) => x !== undefined && !Number.isInteger(x)))
        throw new JsonPathError(`invalid array index ${part}`);
      return { kind: 'slice', start: a, end: b, step: c };
    }
    if (!/^-?\d+$/.test(part)) throw new JsonPathError(`invalid array index ${part}`);
    return { kind: 'one', i: Number(part) };
  });
  return { kind: 'index', indices };
}

function walk(values: unknown[], steps: readonly Step[], root: unknown): unknown[] {
  let cur = values;
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of cur) next.push(...applyStep(v, step, root));
    cur = next;
  }
  return cur;
}

function applyStep(v: unknown, step: Step, root: unknown): unknown[] {
  switch (step.kind) {
    case 'root':
      return [root];
    case 'current':
      return [v];
    case 'field':
      if (
        isPlainObject(v) &&
        Object.prototype.hasOwnProperty.call(v, step.name) &&
        v[step.name] !== undefined
      )
        return [v[step.name]];
      return [];
    case 'wildcard':
      if (Array.isArray(v)) return v;
      if (isPlainObject(v))
        return Object.keys(v)
          .sort()
          .map((k) => v[k]);
      return [];
    case 'recursive': {
      const out: unknown[] = [];
      const visit = (x: unknown): void => {
        if (isPlainObject(x)) {
          if (step.name === '' || step.name === '*') out.push(x);
          else if (x[step.name] !== undefined) out.push(x[step.name]);
          for (const k of Object.keys(x).sort()) visit(x[k]);
        } else if (Array.isArray(x)) x.forEach(visit);
      };
      visit(v);
      return out;
    }
    case 'index': {
      const out: unknown[] = [];
      for (const idx of step.indices) {
        if (idx.kind === 'key') {
          if (isPlainObject(v) && v[idx.key] !== undefined) out.push(v[idx.key]);
          continue;
        }
        if (!Array.isArray(v)) continue;
        if (idx.kind === 'one') {
          const i = idx.i < 0 ? v.length + idx.i : idx.i;
          if (i < 0 || i >= v.length)
            throw new JsonPathError(`array index out of bounds: index ${idx.i}, length ${v.length}`);
          out.push(v[i]);
        } else {
          const len = v.length;
          const norm = (x: number | undefined, d: number): number =>
            x === undefined ? d : x < 0 ? Math.max(0, len + x) : Math.min(len, x);
          const start = norm(idx.start, 0);
          const end = norm(idx.end, len);
          const stepBy = idx.step ?? 1;
          for (let i = start; i < end; i += stepBy > 0 ? stepBy : 1) out.push(v[i]);
        }
      }
      return out;
    }
    case 'filter': {
      const items = Array.isArray(v) ? v : [];
      return items.filter((item) => {
        const left = walk([item], step.left, root);
        if (!step.op) return left.length > 0;
        const right = Array.isArray(step.right)
          ? walk([item], step.right, root)
          : step.right
            ? [step.right.lit]
            : [];
        if (left.length === 0 || right.length === 0) return false;
        return compare(left[0], step.op, right[0]);
      });
    }
  }
}

function compare(a: unknown, op: string, b: unknown): boolean {
  switch (op) {
    case '==':
      return a === b || String(a) === String(b);
    case '!=':
      return !(a === b || String(a) === String(b));
    case '<':
      return Number(a) < Number(b);
    case '>':
      return Number(a) > Number(b);
    case '<=':
      return Number(a) <= Number(b);
    case '>=':
      return Number(a) >= Number(b);
  }
  // client-go evalFilter knows only the six comparisons (and "exists").
  throw new JsonPathError(`unrecognized filter operator ${op}`);
}

/** How Go's fmt prints a JSONPath result: strings raw, maps and lists as JSON. */
export function formatValue(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(sortedKeys(v));
  return String(v);
}

/** Go's json.Marshal of a map sorts its keys. */
function sortedKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedKeys);
  if (isPlainObject(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortedKeys(v[k])]),
    );
  return v;
}

function execNodes(nodes: readonly Node[], data: unknown, root: unknown, out: string[]): void {
  for (const node of nodes) {
    switch (node.kind) {
      case 'text':
      case 'literal':
        out.push(node.text);
        break;
      case 'expr': {
        const values = walk([data], node.steps, root);
        out.push(values.map(formatValue).join(' '));
        break;
      }
      case 'range': {
        for (const v of walk([data], node.steps, root)) execNodes(node.body, v, root, out);
        break;
      }
    }
  }
}

/** Applies a parsed template to an object. */
export function executeJsonPath(nodes: readonly Node[], data: unknown): string {
  const out: string[] = [];
  execNodes(nodes, data, data, out);
  return out.join('');
}

/** The raw results of a template (for `-o jsonpath-as-json` and custom-columns). */
export function evaluateJsonPath(nodes: readonly Node[], data: unknown): unknown[] {
  const out: unknown[] = [];
  for (const node of nodes) {
    if (node.kind === 'expr') out.push(...walk([data], node.steps, data));
    else if (node.kind === 'range')
      for (const v of walk([data], node.steps, data)) out.push(...evaluateJsonPath(node.body, v));
    else out.push(node.text);
  }
  return out;
}

/** kubectl's `RelaxedJSONPathExpression`: `.a.b`, `a.b` and `{.a.b}` all mean `{.a.b}`. */
export function relaxedJsonPath(expr: string): string {
  const t = expr.trim();
  if (t.startsWith('{') && t.endsWith('}')) return t;
  const m = /^\{?(.*?)\}?$/.exec(t)!;
  let inner = m[1]!;
  if (!inner.startsWith('.') && !inner.startsWith('[') && inner !== '') inner = `.${inner}`;
  return `{${inner}}`;
}
