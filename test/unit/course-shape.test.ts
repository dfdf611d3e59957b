/**
 * The course's shape (issue 19 item 8): one progression in the order of the packet. The home page's start
 * link opens the first chapter of the sidebar; the sidebar, which Starlight's prev/next links follow, walks
 * every chapter once, part by part; every chapter has objectives, a lab and interactive self-check questions; the capstone is
 * in the last part; and every page that embeds a lab gets the cross-origin isolation the lab needs.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { sidebar } from '../../astro.config.mjs';
import { headersFor, parseHeadersFile } from '../../src/runtime/headers/headers-file.mjs';

const contentDir = fileURLToPath(new URL('../../content/', import.meta.url));
const headersFile = fileURLToPath(new URL('../../public/_headers', import.meta.url));
const locales = [
  { dir: 'pt-br', selfCheck: '## Confira o que você aprendeu' },
  { dir: 'en', selfCheck: '## Check yourself' },
] as const;

type Entry = (typeof sidebar)[number];
type Group = Extract<Entry, { items: string[] }>;
/** The course parts: groups of chapter slugs (the instructors' group lists reference pages by object). */
const groups = sidebar.filter(
  (entry): entry is Group =>
    'items' in entry && (entry.items ?? []).every((item: unknown) => typeof item === 'string'),
);
const chapterOrder = groups.flatMap((group) => group.items);

function frontmatter(mdx: string): Record<string, unknown> {
  return (parseYaml(/^---\r?\n([\s\S]*?)\r?\n---/.exec(mdx)?.[1] ?? '') ?? {}) as Record<string, unknown>;
}
const read = (dir: string, slug: string) => readFileSync(join(contentDir, dir, `${slug}.mdx`), 'utf8');

/** Every chapter (a page with `sourceNote`) of a locale, as a slug. */
function chaptersOf(dir: string): string[] {
  return readdirSync(join(contentDir, dir), { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(sep).join('/'))
    .filter((file) => file.endsWith('.mdx'))
    .map((file) => file.replace(/\.mdx$/, ''))
    .filter((slug) => frontmatter(read(dir, slug)).sourceNote !== undefined)
    .sort();
}

describe('the course is one progression', () => {
  it('lists every chapter exactly once in the sidebar, in both locales', () => {
    for (const { dir } of locales) expect([...chapterOrder].sort()).toEqual(chaptersOf(dir));
    expect(new Set(chapterOrder).size).toBe(chapterOrder.length);
  });

  it('follows the packet: primer, one node, across nodes, Services, DNS, policy, north-south, k3s, diagnosis, capstone', () => {
    const partOf = (slug: string) => slug.split('/')[0];
    expect([...new Set(chapterOrder.map(partOf))]).toEqual([
      'foundations',
      'one-node',
      'across-nodes',
      'services',
      'dns',
      'policy',
      'north-south',
      'k3s',
      'diagnosis',
      'capstone',
    ]);
    expect(chapterOrder[0]).toBe('foundations/linux-primer');
  });

  it.each(locales)("$dir: the home page's start link opens the first chapter in sidebar order", ({ dir }) => {
    const hero = frontmatter(read(dir, 'index')).hero as { actions: { link: string }[] };
    expect(hero.actions[0]?.link).toBe(`/${dir}/${chapterOrder[0]}/`);
    // The "where to start" paragraph names the same page.
    expect(read(dir, 'index')).toMatch(new RegExp(`\\]\\(/${dir}/${chapterOrder[0]}/\\)`));
  });

  it('keeps the home page first and puts the capstone last among the chapters, in the last part', () => {
    expect(sidebar[0]).toMatchObject({ slug: 'index' });
    const last = groups.at(-1)!;
    expect(chapterOrder.at(-1)).toBe('capstone/final-challenge');
    expect(last.items).toContain('capstone/final-challenge');
    for (const { dir } of locales) {
      const front = frontmatter(read(dir, 'capstone/final-challenge'));
      expect(front.labs).toEqual(['17-capstone']);
    }
    // No other chapter embeds the capstone lab.
    for (const slug of chapterOrder.slice(0, -1))
      for (const { dir } of locales) expect(read(dir, slug)).not.toContain('<Lab id="17-capstone"');
  });

  it('keeps old chapter URLs working: every moved path redirects to a chapter that exists', async () => {
    const config = (await import('../../astro.config.mjs')).default as { redirects: Record<string, string> };
    const moved = Object.entries(config.redirects).filter(([from]) => from !== '/');
    expect(moved.length).toBeGreaterThan(0);
    for (const [from, to] of moved) {
      expect(from, from).toMatch(/^\/(pt-br|en)\/[a-z0-9-]+\/[a-z0-9-]+\/$/);
      const [, dir, slug] = /^\/(pt-br|en)\/(.+)\/$/.exec(to) ?? [];
      expect(existsSync(join(contentDir, dir ?? '', `${slug}.mdx`)), to).toBe(true);
      expect(existsSync(join(contentDir, from.slice(1, -1) + '.mdx')), `${from} is still a page`).toBe(false);
    }
  });
});

describe.each(locales)('$dir: every chapter teaches, practises and checks', ({ dir, selfCheck }) => {
  const rules = parseHeadersFile(readFileSync(headersFile, 'utf8'));
  it.each(chapterOrder)('%s has objectives, an embedded lab and a self-check with questions', (slug) => {
    const mdx = read(dir, slug);
    const front = frontmatter(mdx);
    expect((front.objectives as string[] | undefined)?.length ?? 0).toBeGreaterThan(0);
    const labs = (front.labs as string[] | undefined) ?? [];
    expect(labs.length, 'labs').toBeGreaterThan(0);
    for (const id of labs) expect(mdx).toContain(`<Lab id="${id}"`);
    const check = mdx.indexOf(selfCheck);
    expect(check, selfCheck).toBeGreaterThan(0);
    // Questions answered in the page, with feedback (SelfCheck), not reveal-only <details> answers.
    const section = mdx.slice(check + selfCheck.length).split(/^## /m)[0] ?? '';
    expect((section.match(/<SelfCheck\b/g) ?? []).length, 'self-check questions').toBeGreaterThanOrEqual(2);
    expect(section, 'reveal-only answers').not.toContain('<details>');
  });

  it.each(chapterOrder)('%s, which embeds a lab, is served cross-origin isolated', (slug) => {
    expect(headersFor(rules, `/${dir}/${slug}/`)).toMatchObject({
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
    });
  });
});
