/**
 * Checks every page under content/ with the same rules the build uses (src/content.config.ts),
 * plus rules that span files: both locales have the same pages, glossary references resolve.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { z } from 'astro/zod';
import { docsSchema } from '@astrojs/starlight/schema';

// src/content.config.ts imports Astro's virtual module only for defineCollection.
vi.mock('astro:content', () => ({ defineCollection: (collection: unknown) => collection }));
const { courseFrontmatter, checkChapterRules, glossaryTerm } = await import('../../src/content.config');

const contentDir = fileURLToPath(new URL('../../content/', import.meta.url));
const locales = ['pt-br', 'en'] as const;

/** Relative page paths (e.g. `k3s/cluster-networking.mdx`) of a locale. */
function pagesOf(locale: string): string[] {
  return readdirSync(join(contentDir, locale), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.mdx?$/.test(file) && !file.split(sep).some((part) => part.startsWith('_')))
    .map((file) => file.split(sep).join('/'))
    .sort();
}

function frontmatterOf(file: string): Record<string, unknown> {
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(file, 'utf8'));
  if (!match) throw new Error(`${file} has no frontmatter block`);
  return (parseYaml(match[1] ?? '') ?? {}) as Record<string, unknown>;
}

const pageSchema = docsSchema({ extend: courseFrontmatter })({
  image: () => z.any(),
} as unknown as Parameters<ReturnType<typeof docsSchema>>[0]).superRefine(checkChapterRules);

const pages = locales.flatMap((locale) =>
  pagesOf(locale).map((path) => ({
    name: `${locale}/${path}`,
    locale,
    path,
    data: frontmatterOf(join(contentDir, locale, path)),
  })),
);
const glossary = parseYaml(readFileSync(join(contentDir, 'glossary/terms.yaml'), 'utf8')) as Record<
  string,
  unknown
>;

describe('page frontmatter', () => {
  it('finds pages in both locales', () => {
    expect(pagesOf('pt-br').length).toBeGreaterThan(0);
    expect(pagesOf('en').length).toBeGreaterThan(0);
  });

  it.each(pages)('$name matches the docs schema and the chapter rules', ({ data }) => {
    const result = pageSchema.safeParse(data);
    expect(result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual(
      [],
    );
  });

  it.each(pages)('$name: a top-level page is not a chapter (no sourceNote)', ({ path, data }) => {
    if (!path.includes('/')) expect(data.sourceNote).toBeUndefined();
  });

  it.each(pages)('$name: every glossaryTerms entry is in content/glossary/terms.yaml', ({ data }) => {
    const terms = (data.glossaryTerms ?? []) as string[];
    expect(terms.filter((term) => !(term in glossary))).toEqual([]);
  });

  // The glossary page lists, under each term, the chapters that use it: both directions must agree.
  it.each(pages)('$name: each of its glossaryTerms names this chapter back', ({ path, data }) => {
    if (data.sourceNote === undefined) return;
    const chapter = path.replace(/\.mdx$/, '');
    const terms = (data.glossaryTerms ?? []) as string[];
    const missing = terms.filter((id) => {
      const chapters = (glossary[id] as { chapters?: string[] } | undefined)?.chapters ?? [];
      return id in glossary && !chapters.includes(chapter);
    });
    expect(missing).toEqual([]);
  });
});

describe('rules the schema enforces', () => {
  it('rejects a chapter without objectives', () => {
    const result = pageSchema.safeParse({
      title: 'x',
      sourceNote: '000_a56fd7953ca4c6b4.txt',
      objectives: [],
    });
    expect(result.success).toBe(false);
  });
  it('rejects a sourceNote that is not a seed file name', () => {
    const result = pageSchema.safeParse({ title: 'x', sourceNote: 'notes.txt', objectives: ['a'] });
    expect(result.success).toBe(false);
  });
  it('fills labs and glossaryTerms with empty lists', () => {
    const result = pageSchema.parse({ title: 'x' });
    expect(result).toMatchObject({ labs: [], glossaryTerms: [], objectives: [] });
  });
});

describe('locales', () => {
  it('pt-br and en have the same pages at the same paths', () => {
    expect(pagesOf('en')).toEqual(pagesOf('pt-br'));
  });

  it.each(pagesOf('pt-br'))('%s has the same sourceNote and labs in both locales', (path) => {
    const [pt, en] = locales.map((locale) => frontmatterOf(join(contentDir, locale, path)));
    expect(en?.sourceNote).toEqual(pt?.sourceNote);
    expect(en?.labs ?? []).toEqual(pt?.labs ?? []);
  });
});

describe('glossary data', () => {
  it.each(Object.entries(glossary))('%s matches the glossary schema', (_id, term) => {
    const result = glossaryTerm.safeParse(term);
    expect(result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual(
      [],
    );
  });

  it.each(Object.entries(glossary))('%s has its definition and example in both languages', (_id, term) => {
    const { definition, example } = term as Record<string, Record<string, unknown> | undefined>;
    for (const field of [definition, example]) {
      for (const lang of ['pt-BR', 'en']) {
        expect(typeof field?.[lang] === 'string' && (field[lang] as string).trim().length > 0).toBe(true);
      }
    }
  });

  it.each(Object.entries(glossary))('%s lists only chapters that exist in both locales', (_id, term) => {
    const chapters = ((term as { chapters?: string[] }).chapters ?? []).map((slug) => `${slug}.mdx`);
    for (const locale of locales) {
      expect(chapters.filter((file) => !pagesOf(locale).includes(file))).toEqual([]);
    }
  });
});
