/**
 * Mutation arbitraries. A mutation is plain data (kind, position as a fraction, text), so fast-check
 * shrinks it and prints it readably in a counterexample; `apply*` turns it into the mutated input.
 */
import fc from 'fast-check';
import { parseAllDocuments, stringify } from 'yaml';

/** Characters and snippets that break parsers: quoting, expansion, operators, control, unicode. */
const NASTY = [
  '"',
  "'",
  '`',
  '\\',
  '$',
  '${',
  '$(',
  '$((',
  '|',
  '||',
  '&&',
  ';',
  '&',
  '>',
  '<<',
  '<<EOF\n',
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  '*',
  '?',
  '~',
  '#',
  '!',
  '=',
  ',',
  ':',
  '-',
  '--',
  ' ',
  '\t',
  '\n',
  '\r',
  '\0',
  '\x1b',
  '\x1b[2J',
  '\x1b]0;x\x07',
  '\u00e9',
  '\u200b',
  '\u202e',
  '\ud83d\ude00',
  '\ud800',
  '\uffff',
  '%',
  '%s',
  '%n',
  '{{',
  '}}',
  '..',
  '/',
  '-1',
  '0',
  '99999999999999999999',
  '1e309',
  'NaN',
  '__proto__',
  'constructor',
  '<script>',
  'null',
  'true',
];

/** Words from the grammar the learner is using: verbs, resources, flags, values. */
export const WORDS = [
  'kubectl',
  'get',
  'describe',
  'apply',
  'create',
  'delete',
  'exec',
  'logs',
  'run',
  'expose',
  'scale',
  'label',
  'annotate',
  'edit',
  'patch',
  'rollout',
  'wait',
  'debug',
  'pods',
  'svc',
  'deploy',
  'netpol',
  'cm',
  'endpointslices',
  'nodes',
  'ingress',
  '-n',
  '-A',
  '-o',
  'yaml',
  'json',
  'wide',
  'jsonpath={.items[*].metadata.name}',
  '-l',
  'app=web',
  '-f',
  '-',
  '--',
  '--dry-run=client',
  '--image=nginx',
  '--port=80',
  '--timeout=1s',
  // Huge simulated waits: each must stay bounded work (kubectl wait once stepped through all of it).
  '--timeout=1000h',
  'sleep 99999999',
  'sh',
  '-c',
  'curl',
  '-sS',
  '-m',
  '3',
  'nslookup',
  'dig',
  'ip',
  'route',
  'iptables-save',
  'cat',
  'echo',
  'grep',
  'head',
  'sort',
  'xargs',
  'for',
  'while',
  'do',
  'done',
  'if',
  'then',
  'fi',
  'http://api/',
  '10.96.0.10',
  'kube-system',
  'default',
];

export type TextMutation =
  | { readonly kind: 'insert'; readonly at: number; readonly text: string }
  | { readonly kind: 'delete'; readonly at: number; readonly len: number }
  | { readonly kind: 'duplicate'; readonly at: number; readonly len: number }
  | { readonly kind: 'truncate'; readonly at: number }
  | { readonly kind: 'word'; readonly at: number; readonly word: string };

const at = fc.double({ min: 0, max: 1, noNaN: true });

export const textMutation: fc.Arbitrary<TextMutation> = fc.oneof(
  fc.record({
    kind: fc.constant('insert' as const),
    at,
    text: fc.oneof(fc.constantFrom(...NASTY), fc.string({ maxLength: 6, unit: 'binary' })),
  }),
  fc.record({ kind: fc.constant('delete' as const), at, len: fc.integer({ min: 1, max: 12 }) }),
  fc.record({ kind: fc.constant('duplicate' as const), at, len: fc.integer({ min: 1, max: 20 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at }),
  fc.record({ kind: fc.constant('word' as const), at, word: fc.constantFrom(...WORDS, ...NASTY) }),
);

function applyOne(s: string, m: TextMutation): string {
  const i = Math.floor(m.at * s.length);
  switch (m.kind) {
    case 'insert':
      return s.slice(0, i) + m.text + s.slice(i);
    case 'delete':
      return s.slice(0, i) + s.slice(i + m.len);
    case 'duplicate':
      return s.slice(0, i + m.len) + s.slice(i, i + m.len) + s.slice(i + m.len);
    case 'truncate':
      return s.slice(0, i);
    case 'word': {
      // Replaces the whitespace-separated word around i.
      const start = s.lastIndexOf(' ', i - 1) + 1;
      const end = s.indexOf(' ', i);
      return s.slice(0, start) + m.word + (end < 0 ? '' : s.slice(end));
    }
  }
}

export function applyText(s: string, ms: readonly TextMutation[]): string {
  return ms.reduce(applyOne, s);
}

/** A seed from `corpus`, mutated 1–4 times at the text level. */
export function mutatedText(corpus: readonly string[], maxMutations = 4): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...corpus), fc.array(textMutation, { minLength: 1, maxLength: maxMutations }))
    .map(([s, ms]) => applyText(s, ms));
}

// ---- structural (YAML/JSON) mutations ----------------------------------------------------------------

/** Values that swap in for a scalar, map or list: other types, huge and odd numbers, unicode, keys that pollute. */
const REPLACEMENTS: readonly unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  2 ** 53 + 1,
  1e308,
  -1e308,
  '99999999999999999999',
  '',
  ' ',
  'ção',
  '\u202eevil',
  '😀'.repeat(3),
  'a'.repeat(300),
  '<script>alert(1)</script>',
  {},
  [],
  { a: 1 },
  [1, 'two', null],
  [[[]]],
  { __proto__: 'x' },
  JSON.parse('{"__proto__": {"polluted": "yes"}}'),
  JSON.parse('{"constructor": {"prototype": {"polluted": "yes"}}}'),
];

export type TreeMutation =
  | { readonly kind: 'delete'; readonly pick: number }
  | { readonly kind: 'retype'; readonly pick: number; readonly value: number }
  | { readonly kind: 'duplicate'; readonly pick: number }
  | { readonly kind: 'addKey'; readonly pick: number; readonly key: string; readonly value: number };

export const treeMutation: fc.Arbitrary<TreeMutation> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('retype' as const),
    pick: fc.nat(),
    value: fc.nat({ max: REPLACEMENTS.length - 1 }),
  }),
  fc.record({ kind: fc.constant('duplicate' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('addKey' as const),
    pick: fc.nat(),
    key: fc.constantFrom('__proto__', 'constructor', 'prototype', 'status', 'x-unknown', 'apiVersion', ''),
    value: fc.nat({ max: REPLACEMENTS.length - 1 }),
  }),
);

type Container = Record<string, unknown> | unknown[];

function containers(v: unknown, acc: [Container, string | number][] = []): [Container, string | number][] {
  if (Array.isArray(v)) {
    v.forEach((x, i) => {
      acc.push([v, i]);
      containers(x, acc);
    });
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      acc.push([v as Record<string, unknown>, k]);
      containers(x, acc);
    }
  }
  return acc;
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** Applies a mutation to a JSON-like tree in place (defineProperty, so `__proto__` stays an own key). */
export function applyTree(root: unknown, m: TreeMutation): unknown {
  const slots = containers(root);
  if (slots.length === 0) return root;
  const [c, k] = slots[m.pick % slots.length]!;
  const set = (obj: Container, key: string | number, value: unknown): void => {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  };
  switch (m.kind) {
    case 'delete':
      if (Array.isArray(c)) c.splice(k as number, 1);
      else delete c[k as string];
      return root;
    case 'retype':
      set(c, k, clone(REPLACEMENTS[m.value]));
      return root;
    case 'duplicate': {
      const v = (c as Record<string | number, unknown>)[k];
      if (Array.isArray(c)) c.push(clone(v));
      else set(c, `${String(k)}`, [clone(v), clone(v)]);
      return root;
    }
    case 'addKey': {
      const v = (c as Record<string | number, unknown>)[k];
      if (v && typeof v === 'object' && !Array.isArray(v))
        set(v as Container, m.key, clone(REPLACEMENTS[m.value]));
      return root;
    }
  }
}

/** A YAML text (possibly several documents) mutated structurally, then maybe at the text level. */
export function mutatedYaml(corpus: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.constantFrom(...corpus),
      fc.array(treeMutation, { minLength: 1, maxLength: 4 }),
      fc.array(textMutation, { maxLength: 2 }),
    )
    .map(([text, tms, xms]) => {
      const docs = parseAllDocuments(text);
      const parts = (Array.isArray(docs) ? docs : [docs]).map((d, i) => {
        let v: unknown = d.toJS({ maxAliasCount: 100 });
        for (const m of tms) if (tms.indexOf(m) % (i + 1) === 0) v = applyTree(v, m);
        return stringify(v, { aliasDuplicateObjects: false });
      });
      return applyText(parts.join('---\n'), xms);
    });
}
