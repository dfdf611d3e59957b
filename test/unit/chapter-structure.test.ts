/**
 * The two locales of a chapter are written separately, for different readers: each may order its
 * sections, examples, asides and diagrams the way reads best in its language. What they share is what
 * the course promises in both: the same number of objectives, the same labs (a learner's progress is
 * per lab, whatever the locale), and the same self-check questions (saved by id). Links between pages
 * must land on a page that exists.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

const contentDir = fileURLToPath(new URL('../../content/', import.meta.url));
const labsDir = fileURLToPath(new URL('../../labs/', import.meta.url));

function mdxFiles(root: string, dir = root): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) return mdxFiles(root, p);
    return p.endsWith('.mdx') ? [relative(root, p).split(sep).join('/')] : [];
  });
}

const read = (locale: string, path: string) => readFileSync(join(contentDir, locale, path), 'utf8');

/** The text outside fenced code blocks (headings and tags inside code are examples, not structure). */
function prose(mdx: string): string {
  return mdx.replace(/^```[\s\S]*?^```/gm, '');
}

function frontmatter(mdx: string): { labs?: string[]; objectives?: string[] } {
  return (parseYaml(mdx.split(/^---$/m)[1] ?? '') ?? {}) as { labs?: string[]; objectives?: string[] };
}

/** What both locales of a chapter must have in common (the order of the prose around it is theirs). */
function promise(mdx: string) {
  const body = prose(mdx.replace(/^---[\s\S]*?^---/m, ''));
  return {
    objectives: frontmatter(mdx).objectives?.length ?? 0,
    labs: [...body.matchAll(/<Lab id="([^"]+)"/g)].map((m) => m[1]),
    selfChecks: [...body.matchAll(/<SelfCheck\s+id="([^"]+)"/g)].map((m) => m[1]).sort(),
  };
}

const pages = mdxFiles(join(contentDir, 'pt-br'));

describe('chapter structure in both locales', () => {
  it.each(pages)('%s has the same number of objectives, the same labs and the same self-checks', (path) => {
    expect(promise(read('en', path))).toEqual(promise(read('pt-br', path)));
  });

  it.each(pages)('%s embeds exactly the labs its frontmatter lists, and they exist', (path) => {
    const mdx = read('pt-br', path);
    const front = frontmatter(mdx);
    expect(promise(mdx).labs).toEqual(front.labs ?? []);
    for (const id of front.labs ?? []) expect(existsSync(join(labsDir, id, 'lab.yaml')), id).toBe(true);
  });
});

describe('internal links', () => {
  const all = [
    ...pages.map((p) => ['pt-br', p] as const),
    ...mdxFiles(join(contentDir, 'en')).map((p) => ['en', p] as const),
  ];
  it.each(all.map(([locale, path]) => ({ name: `${locale}/${path}`, locale, path })))(
    '$name links only to pages that exist',
    ({ locale, path }) => {
      const text = prose(read(locale, path));
      const targets = [...text.matchAll(/\]\((\/[^)\s#]*)(?:#[^)\s]*)?\)|href="(\/[^"#]*)(?:#[^"]*)?"/g)].map(
        (m) => (m[1] ?? m[2])!,
      );
      const broken = targets.filter((target) => {
        const clean = target.replace(/\/$/, '');
        if (!/^\/(pt-br|en)(\/|$)/.test(clean)) return false;
        const rel = clean.replace(/^\//, '');
        return !existsSync(join(contentDir, `${rel}.mdx`)) && !existsSync(join(contentDir, rel, 'index.mdx'));
      });
      expect(broken).toEqual([]);
    },
  );
});
