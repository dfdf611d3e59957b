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

const KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/**
 * Parses kubectl's `-l` syntax. Throws SelectorParseError with apimachinery's wording
 * ("unable to parse requirement: …") on bad input.
 */
export function parseSelector(text: string): Selector {
  const out: Requirement[] = [];
  for (const part of splitTopLevel(text.trim())) {
    const p = part.trim();
    if (p === '') continue;
    out.push(parseRequirement(p));
  }
  return sortRequirements(out);
}

function parseRequirement(p: string): Requirement {
  let m: RegExpExecArray | null;
  if ((m = /^!\s*([^\s=!<>(),]+)$/.exec(p))) return requirement(m[1]!, '!', []);
  if ((m = /^([^\s=!<>(),]+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(p))) {
    const values = m[3]!.split(',').map((v) => v.trim());
    return requirement(m[1]!, m[2] as 'in' | 'notin', values);
  }
  if ((m = /^([^\s=!<>(),]+)\s*(==|=|!=)\s*([^\s=!<>(),]*)$/.exec(p))) {
    return requirement(m[1]!, m[2] === '!=' ? '!=' : '=', [m[3]!]);
  }
  if ((m = /^([^\s=!<>(),]+)\s*([<>])\s*(-?\d+)$/.exec(p))) return requirement(m[1]!, m[2] === '>' ? 'gt' : 'lt', [m[3]!]);
  if ((m = /^([^\s=!<>(),]+)$/.exec(p))) return requirement(m[1]!, 'exists', []);
  throw new SelectorParseError(`unable to parse requirement: found '${p}', expected: identifier`);
}

function requirement(key: string, op: Operator, values: string[]): Requirement {
  if (!KEY.test(key) || key.length > 317) {
    throw new SelectorParseError(
      `unable to parse requirement: <nil>: Invalid value: "${key}": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    );
  }
  for (const v of values) {
    if (!VALUE.test(v) || v.length > 63) {
      throw new SelectorParseError(
        `unable to parse requirement: values[0][${key}]: Invalid value: "${v}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      );
    }
  }
  return { key, op, values: [...new Set(values)].sort() };
}

function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (ch === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  return parts;
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
export function matchesMapSelector(selector: Readonly<Record<string, string>> | undefined, labels: Labels): boolean {
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
