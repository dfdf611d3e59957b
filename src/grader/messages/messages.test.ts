import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATALOGUE, type Entry, type MessageKey } from './catalogue.ts';
import { formatMessage, msg } from './format.ts';

const entries = Object.entries(CATALOGUE) as [MessageKey, Entry][];

function placeholders(value: string | { one: string; other: string }): string[] {
  const texts = typeof value === 'string' ? [value] : [value.one, value.other];
  return [...new Set(texts.flatMap((t) => [...t.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]!)))].sort();
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') && !p.endsWith('catalogue.ts') ? [p] : [];
  });
}

describe('message catalogue', () => {
  it.each(entries)('%s has a description and both languages', (_key, entry) => {
    expect(entry.description.trim()).not.toBe('');
    for (const lang of ['pt-BR', 'en'] as const) {
      const v = entry[lang];
      const texts = typeof v === 'string' ? [v] : [v.one, v.other];
      for (const t of texts) expect(t.trim()).not.toBe('');
    }
  });

  it.each(entries)('%s uses the same placeholders in both languages', (_key, entry) => {
    expect(placeholders(entry['pt-BR'])).toEqual(placeholders(entry.en));
  });

  it.each(entries.filter(([, e]) => typeof e.en !== 'string' || typeof e['pt-BR'] !== 'string'))(
    '%s is plural in both languages and uses {{count}}… or gets it',
    (_key, entry) => {
      expect(typeof entry.en).toBe('object');
      expect(typeof entry['pt-BR']).toBe('object');
    },
  );

  // Every key the grader's code names exists, and every catalogue entry is used somewhere.
  const root = join(import.meta.dirname, '..');
  const code = sources(root).map((f) => readFileSync(f, 'utf8'));
  const literals = new Set(
    code.flatMap((t) =>
      [...t.matchAll(/'((?:check|hop|scope|object|client|predicate)\.[\w.]+)'/g)].map((m) => m[1]!),
    ),
  );
  const templatePrefixes = code.flatMap((t) =>
    [...t.matchAll(/`((?:check|hop)\.[\w.]+\.)\$\{/g)].map((m) => m[1]!),
  );

  it('knows every key the code uses', () => {
    const missing = [...literals].filter((k) => !Object.hasOwn(CATALOGUE, k));
    expect(missing).toEqual([]);
  });

  it('has no unused key', () => {
    const unused = entries
      .map(([k]) => k)
      .filter((k) => !literals.has(k) && !templatePrefixes.some((p) => k.startsWith(p)));
    expect(unused).toEqual([]);
  });
});

describe('formatMessage', () => {
  it('fills placeholders, nested messages, lists and lab texts', () => {
    const m = msg('check.endpoints.observed.because', {
      count: 0,
      reason: msg('check.endpoints.reason.noPods', { selector: 'app=api' }),
    });
    expect(formatMessage('en', m)).toBe('it has 0: the selector app=api matches no pod');
    expect(formatMessage('pt-BR', m)).toBe('tem 0: o seletor app=api não corresponde a nenhum pod');
    const q = msg('check.quiz.expected', { question: { 'pt-BR': 'Qual porta?', en: 'Which port?' } });
    expect(formatMessage('en', q)).toBe('the right answer to: Which port?');
    expect(formatMessage('pt-BR', q)).toBe('a resposta certa para: Qual porta?');
    expect(
      formatMessage('en', msg('check.resource.observed.found', { count: 2, names: ['shop/a', 'shop/b'] })),
    ).toBe('there are 2: shop/a, shop/b');
  });

  it('picks plural forms by count with each language’s rules', () => {
    const m = (count: number) => msg('check.history.observed.none', { count });
    expect(formatMessage('en', m(1))).toBe('none of your commands matches (1 command so far)');
    expect(formatMessage('en', m(0))).toBe('none of your commands matches (0 commands so far)');
    // CLDR: in Portuguese 0 and 1 are both singular.
    expect(formatMessage('pt-BR', m(0))).toBe('nenhum dos seus comandos corresponde (0 comando até agora)');
    expect(formatMessage('pt-BR', m(5))).toBe('nenhum dos seus comandos corresponde (5 comandos até agora)');
  });

  it('never throws on messages from an untrusted report', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.jsonValue(),
        fc.constantFrom('en' as const, 'pt-BR' as const),
        (key, params, locale) => {
          const text = formatMessage(locale, { key, params } as never);
          expect(typeof text).toBe('string');
        },
      ),
      { numRuns: 300 },
    );
    const deep = { key: 'check.list', params: { items: [] as unknown[] } };
    let cur = deep;
    for (let i = 0; i < 1000; i++) {
      const next = { key: 'check.list', params: { items: [] as unknown[] } };
      cur.params.items.push(next);
      cur = next;
    }
    expect(typeof formatMessage('en', deep as never)).toBe('string');
  });
});
