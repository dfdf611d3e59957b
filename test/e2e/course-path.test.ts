/**
 * The course as a learner walks it in the built site (issue 19 item 8): from the home page's start button,
 * the "Next" links go through every chapter once, in sidebar order, and end on the capstone's part before
 * the glossary; "Previous" walks the same path back. And a chapter's old URL lands on its new page.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { sidebar } from '../../astro.config.mjs';

const distDir = inject('distDir');
/** The chapters: the items of the course parts (groups of slugs; the instructors' group lists objects). */
const chapters = sidebar.flatMap((entry) =>
  'items' in entry && (entry.items ?? []).every((item: unknown) => typeof item === 'string')
    ? (entry.items as string[])
    : [],
);

const html = (path: string) => readFileSync(join(distDir, path, 'index.html'), 'utf8');
/** The href of the page's pagination link with this rel ("next" or "prev"), if any. */
function link(page: string, rel: 'next' | 'prev'): string | undefined {
  const anchor = [...page.matchAll(/<a\b[^>]*>/g)].map((m) => m[0]).find((a) => a.includes(`rel="${rel}"`));
  return anchor ? /href="([^"]+)"/.exec(anchor)?.[1] : undefined;
}

describe.each(['pt-br', 'en'])('%s: one walk from the start button to the capstone', (locale) => {
  const expected = chapters.map((slug) => `/${locale}/${slug}/`);

  it('the start button opens the first chapter, and Next walks every chapter in order', () => {
    const home = html(locale);
    // The hero's first (primary) action button.
    const start = /<a class="sl-link-button[^"]*\bprimary\b[^"]*"[^>]*href="([^"]+)"/.exec(home)?.[1];
    expect(start).toBe(expected[0]);
    const walked = [start!];
    for (let next = link(html(start!), 'next'); next && walked.length <= expected.length; ) {
      if (!next.startsWith(`/${locale}/`) || !chapters.some((c) => next === `/${locale}/${c}/`)) break;
      walked.push(next);
      next = link(html(next), 'next');
    }
    expect(walked).toEqual(expected);
    // After the capstone comes the reference material, not another chapter.
    expect(link(html(expected.at(-1)!), 'next')).toBe(`/${locale}/glossary/`);
  });

  it('Previous walks the same path back to the home page', () => {
    const back = [...expected].reverse().map((path) => link(html(path), 'prev'));
    expect(back).toEqual([...expected.slice(0, -1)].reverse().concat(`/${locale}/`));
  });

  it("a chapter's old address redirects to its new one", () => {
    const old = html(`${locale}/basics/flat-model-and-cni`);
    expect(old).toContain(`/${locale}/one-node/flat-model-and-cni/`);
  });
});
