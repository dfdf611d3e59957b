/**
 * Label selectors, as apimachinery's `labels` package parses, matches and prints them: the string form
 * kubectl takes with `-l` (`app=web,tier!=db,env in (a,b),!canary`), the structured `LabelSelector`
 * of Deployments and NetworkPolicies (matchLabels + matchExpressions), and the map selector of
 * Services.
 */
import type { LabelSelector } from 'kubernetes-types/meta/v1';

export type Operator = '=' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

export interface Requirement {
  readonly key: string;
  readonly op: Operator;
  readonly values: readonly string[];
}

/** A parsed selector: all requirements must hold. No requirements matches everything. */
export type Selector = readonly Requirement[];

export type Labels = Readonly<Record<string, string>> | undefined;

export class SelectorParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SelectorParseError';
  }
}

const KEY =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

type TokenKind =
  | 'end'
  | ')'
  | ','
  | '!'
  | '=='
  | '='
  | '>'
  | 'identifier'
  | 'in'
  | '<'
  | '!='
  | 'notin'
  | '(';

interface Token {
  readonly kind: TokenKind;
  readonly literal: string;
}

const KEYWORDS: ReadonlySet<string> = new Set([')', ',', '!', '==', '=', '>', 'in', '<', '!=', 'notin', '(']);
const SPECIAL = new Set(['=', '!', '(', ')', ',', '>', '<']);
const WHITESPACE = new Set([' ', '\t', '\r', '\n']);
const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';

/**
 * selector.go's Lexer: identifiers run until a special symbol or whitespace; special symbols are
 * read greedily while they still spell a token (`!=`, `==`), so every one of them lexes.
 */
function lex(text: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  for (;;) {
    while (pos < text.length && WHITESPACE.has(text[pos]!)) pos++;
    if (pos >= text.length) {
      tokens.push({ kind: 'end', literal: '' });
      return tokens;
    }
    let literal = '';
    if (SPECIAL.has(text[pos]!)) {
      while (pos < text.length && SPECIAL.has(text[pos]!) && KEYWORDS.has(literal + text[pos]!))
        literal += text[pos++]!;
    } else {
      while (pos < text.length && !SPECIAL.has(text[pos]!) && !WHITESPACE.has(text[pos]!))
        literal += text[pos++]!;
    }
    tokens.push({ kind: KEYWORDS.has(literal) ? (literal as TokenKind) : 'identifier', literal });
  }
}

/**
 * Parses kubectl's `-l` syntax as apimachinery's `labels.Parse` does (a port of selector.go's
 * Parser). Throws SelectorParseError with its wording: `found '=', expected: ',' or 'end of string'`,
 * `unable to parse requirement: found '', expected: identifier`, ….
 */
export function parseSelector(text: string): Selector {
  const tokens = lex(text);
  let position = 0;
  // In the Values context `in`/`notin` are plain identifiers (`x in (in)`).
  const kindOf = (t: Token, values: boolean): TokenKind =>
    values && (t.kind === 'in' || t.kind === 'notin') ? 'identifier' : t.kind;
  const lookahead = (values = true): Token & { k: TokenKind } => {
    const t = tokens[position]!;
    return { ...t, k: kindOf(t, values) };
  };
  const consume = (values = true): Token & { k: TokenKind } => {
    const t = lookahead(values);
    position++;
    return t;
  };
  const fail = (message: string): never => {
    throw new SelectorParseError(message);
  };

  const parseValues = (): string[] => {
    const open = consume();
    if (open.k !== '(') fail(`found '${open.literal}' expected: '('`);
    const first = lookahead();
    if (first.k === ')') {
      consume();
      return [''];
    }
    if (first.k !== 'identifier' && first.k !== ',')
      fail(`found '${first.literal}', expected: ',', ')' or identifier`);
    const values = new Set<string>();
    for (;;) {
      const t = consume();
      if (t.k === 'identifier') {
        values.add(t.literal);
        const next = lookahead();
        if (next.k === ',') continue;
        if (next.k === ')') break;
        fail(`found '${next.literal}', expected: ',' or ')'`);
      } else if (t.k === ',') {
        // `(,`, `,)` and `,,` stand for empty values.
        if (values.size === 0) values.add('');
        const next = lookahead().k;
        if (next === ')') {
          values.add('');
          break;
        }
        if (next === ',') values.add('');
      } else fail(`found '${t.literal}', expected: ',', or identifier`);
    }
    // selector.go words this with the literal it looked at before the list, a quirk kept as is.
    if (consume().k !== ')') fail(`found '${first.literal}', expected: ')'`);
    return [...values];
  };

  const parseRequirement = (): Requirement => {
    let t = consume();
    let op: Operator | undefined;
    if (t.k === '!') {
      op = '!';
      t = consume();
    }
    if (t.k !== 'identifier') fail(`found '${t.literal}', expected: identifier`);
    const key = t.literal;
    checkKey(key);
    const next = lookahead().k;
    if (op === undefined && (next === 'end' || next === ',')) op = 'exists';
    // `!key` ends the requirement whatever follows; the caller then trips over it.
    if (op === '!' || op === 'exists') return requirement(key, op, []);
    const opToken = consume(false);
    switch (opToken.k) {
      case 'in':
      case 'notin':
        return requirement(key, opToken.k, parseValues());
      case '=':
      case '==':
      case '!=':
      case '>':
      case '<': {
        const o: Operator =
          opToken.k === '!=' ? '!=' : opToken.k === '>' ? 'gt' : opToken.k === '<' ? 'lt' : '=';
        const v = lookahead();
        if (v.k === 'end' || v.k === ',') return requirement(key, o, ['']);
        const value = consume();
        if (value.k !== 'identifier') fail(`found '${value.literal}', expected: identifier`);
        return requirement(key, o, [value.literal]);
      }
      default:
        return fail(`found '${opToken.literal}', expected: ${BINARY_OPERATORS}`);
    }
  };

  const out: Requirement[] = [];
  for (;;) {
    const t = lookahead();
    if (t.k === 'end') break;
    if (t.k !== 'identifier' && t.k !== '!')
      fail(`found '${t.literal}', expected: !, identifier, or 'end of string'`);
    try {
      out.push(parseRequirement());
    } catch (e) {
      if (e instanceof SelectorParseError)
        throw new SelectorParseError(`unable to parse requirement: ${e.message}`);
      throw e;
    }
    const after = consume();
    if (after.k === 'end') break;
    if (after.k !== ',') fail(`found '${after.literal}', expected: ',' or 'end of string'`);
    const next = lookahead();
    if (next.k !== 'identifier' && next.k !== '!')
      fail(`found '${next.literal}', expected: identifier after ','`);
  }
  return sortRequirements(out);
}

function checkKey(key: string): void {
  if (!KEY.test(key) || key.length > 317) {
    throw new SelectorParseError(
      `<nil>: Invalid value: "${key}": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    );
  }
}

/** `NewRequirement`'s value checks (the key was checked while parsing). */
function requirement(key: string, op: Operator, values: string[]): Requirement {
  const sorted = [...new Set(values)].sort();
  sorted.forEach((v, i) => {
    if ((op === 'gt' || op === 'lt') && !/^[+-]?\d+$/.test(v))
      throw new SelectorParseError(
        `values[${i}]: Invalid value: "${v}": for 'Gt', 'Lt' operators, the value must be an integer`,
      );
    if (!VALUE.test(v) || v.length > 63) {
      throw new SelectorParseError(
        `values[${i}][${key}]: Invalid value: "${v}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      );
    }
  });
  return { key, op, values: sorted };
}

function sortRequirements(reqs: Requirement[]): Selector {
  return reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export function matches(selector: Selector, labels: Labels): boolean {
  const l = labels ?? {};
  return selector.every((r) => matchesRequirement(r, l));
}

function matchesRequirement(r: Requirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const value = has ? labels[r.key] : undefined;
  switch (r.op) {
    case '=':
    case 'in':
      return has && r.values.includes(value!);
    case '!=':
    case 'notin':
      return !has || !r.values.includes(value!);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has || !/^-?\d+$/.test(value!)) return false;
      const n = Number(value);
      const bound = Number(r.values[0]);
      return r.op === 'gt' ? n > bound : n < bound;
    }
  }
}

/**
 * A metav1.LabelSelector as a Selector (`LabelSelectorAsSelector`): matchLabels become equality
 * requirements, matchExpressions map In/NotIn/Exists/DoesNotExist. An empty selector matches
 * everything; callers decide what an absent one means (a NetworkPolicy requires one).
 */
export function fromLabelSelector(ls: LabelSelector | undefined | null): Selector {
  if (!ls) return [];
  const reqs: Requirement[] = [];
  for (const [k, v] of Object.entries(ls.matchLabels ?? {})) reqs.push({ key: k, op: '=', values: [v] });
  for (const e of ls.matchExpressions ?? []) {
    const values = [...new Set(e.values ?? [])].sort();
    const op: Operator | undefined =
      e.operator === 'In'
        ? 'in'
        : e.operator === 'NotIn'
          ? 'notin'
          : e.operator === 'Exists'
            ? 'exists'
            : e.operator === 'DoesNotExist'
              ? '!'
              : undefined;
    if (!op) throw new SelectorParseError(`"${e.operator}" is not a valid label selector operator`);
    reqs.push({ key: e.key, op, values });
  }
  return sortRequirements(reqs);
}

export function matchesLabelSelector(ls: LabelSelector | undefined | null, labels: Labels): boolean {
  return matches(fromLabelSelector(ls), labels);
}

/** A Service's (or ReplicationController's) map selector: every key must be present with that value. */
export function matchesMapSelector(
  selector: Readonly<Record<string, string>> | undefined,
  labels: Labels,
): boolean {
  const l = labels ?? {};
  return Object.entries(selector ?? {}).every(([k, v]) => l[k] === v);
}

/** `Selector.String()`: requirements sorted by key, `key=value`, `key in (a,b)`, `!key`; "" when empty. */
export function selectorString(selector: Selector): string {
  return selector
    .map((r) => {
      switch (r.op) {
        case '=':
          return `${r.key}=${r.values[0]}`;
        case '!=':
          return `${r.key}!=${r.values[0]}`;
        case 'in':
          return `${r.key} in (${r.values.join(',')})`;
        case 'notin':
          return `${r.key} notin (${r.values.join(',')})`;
        case 'exists':
          return r.key;
        case '!':
          return `!${r.key}`;
        case 'gt':
          return `${r.key}>${r.values[0]}`;
        case 'lt':
          return `${r.key}<${r.values[0]}`;
      }
    })
    .join(',');
}

/** `metav1.FormatLabelSelector`: the printed form of a LabelSelector, `<none>` when it selects by nothing. */
export function formatLabelSelector(ls: LabelSelector | undefined | null): string {
  let text: string;
  try {
    text = selectorString(fromLabelSelector(ls));
  } catch {
    return '<error>';
  }
  return text === '' ? '<none>' : text;
}

/** `labels.FormatLabels`: `a=b,c=d` sorted by key, `<none>` when empty. */
export function formatLabels(labels: Labels): string {
  const entries = Object.entries(labels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? '<none>' : entries.map(([k, v]) => `${k}=${v}`).join(',');
}
