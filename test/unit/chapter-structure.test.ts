/**
 * The two locales of a chapter are written separately, for different readers, but teach the same thing
 * in the same shape: the same headings (by level), the same labs in the same order, the same diagrams,
 * asides, code blocks and self-check questions (the same ids, in the same order). Links between pages must land on a page that exists.
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

function shape(mdx: string) {
  const body = prose(mdx.replace(/^---[\s\S]*?^---/m, ''));
  return {
    headings: [...body.matchAll(/^(#{2,4}) /gm)].map((m) => m[1]!.length),
    labs: [...body.matchAll(/<Lab id="([^"]+)"/g)].map((m) => m[1]),
    diagrams: (body.match(/<Diagram\b/g) ?? []).length,
    asides: (body.match(/<Aside\b/g) ?? []).length,
    codeBlocks: (mdx.match(/^```/gm) ?? []).length / 2,
    selfChecks: [...body.matchAll(/<SelfCheck\s+id="([^"]+)"/g)].map((m) => m[1]),
  };
}

const pages = mdxFiles(join(contentDir, 'pt-br'));

describe('chapter structure in both locales', () => {
  it.each(pages)('%s has the same headings, labs, diagrams, asides, code blocks and self-checks', (path) => {
    expect(shape(read('en', path))).toEqual(shape(read('pt-br', path)));
  });

  it.each(pages)('%s embeds exactly the labs its frontmatter lists, and they exist', (path) => {
    const mdx = read('pt-br', path);
    const front = parseYaml(mdx.split(/^---$/m)[1] ?? '') as { labs?: string[] } | null;
    expect(shape(mdx).labs).toEqual(front?.labs ?? []);
    for (const id of front?.labs ?? []) expect(existsSync(join(labsDir, id, 'lab.yaml')), id).toBe(true);
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
