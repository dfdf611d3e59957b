/**
 * The shared check behind test/unit/coverage-NNN.test.ts: every fact of a seed note listed in
 * content/coverage/NNN.yaml must be taught in the chapter it names, in both locales. A fact's marker is a
 * short literal string, on one line, that appears in that chapter's body where the fact is taught: the
 * prose, a table, a diagram or a command, never only the frontmatter, an import or an MDX comment. The
 * course is ordered along the packet's path, so a note's facts may be taught in any part; a chapter names in
 * `sourceNote` the note most of it comes from, and may also teach facts of the others.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

export interface CoverageSpec {
  /** The seed note's file name, as chapters give it in `sourceNote`. */
  readonly note: string;
  /** content/coverage/NNN.yaml, relative to content/. */
  readonly coverageFile: string;
  readonly minFacts: number;
}

export function describeCoverage({
  note: NOTE,
  coverageFile: COVERAGE_FILE,
  minFacts: MIN_FACTS,
}: CoverageSpec): void {
  const contentDir = fileURLToPath(new URL('../../content/', import.meta.url));
  const locales = [
    { dir: 'pt-br', key: 'pt-BR' },
    { dir: 'en', key: 'en' },
  ] as const;

  interface CoverageEntry {
    fact: string;
    chapter: string;
    marker: Record<'pt-BR' | 'en', string>;
  }

  const entries = parseYaml(readFileSync(join(contentDir, COVERAGE_FILE), 'utf8')) as CoverageEntry[];

  const chapterFile = (dir: string, chapter: string) => join(contentDir, dir, `${chapter}.mdx`);

  /** What a learner reads: the page without its frontmatter, its imports and its MDX comments. */
  const taught = (mdx: string) =>
    mdx
      .replace(/^---\r?\n[\s\S]*?\r?\n---/, '')
      .replace(/^import .*$/gm, '')
      .replace(/\{\/\*[\s\S]*?\*\/\}/g, '');
  const sources = new Map<string, string>();
  function sourceOf(dir: string, chapter: string): string {
    const file = chapterFile(dir, chapter);
    let text = sources.get(file);
    if (text === undefined) {
      text = readFileSync(file, 'utf8');
      sources.set(file, text);
    }
    return text;
  }

  /** The chapters written mostly from the note: every chapter whose frontmatter names it. */
  const noteChapters = readdirSync(join(contentDir, 'pt-br'), { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(sep).join('/'))
    .filter((file) => /^[^/]+\/[^/]+\.mdx$/.test(file))
    .map((file) => file.replace(/\.mdx$/, ''))
    .filter((chapter) => sourceOf('pt-br', chapter).includes(`sourceNote: ${NOTE}`));

  describe(`coverage list for note ${NOTE}`, () => {
    it('is a list of well-formed entries with distinctive one-line markers', () => {
      expect(Array.isArray(entries)).toBe(true);
      expect(entries.length).toBeGreaterThanOrEqual(MIN_FACTS);
      for (const entry of entries) {
        expect(typeof entry.fact).toBe('string');
        expect(entry.fact.trim().length).toBeGreaterThan(0);
        expect(entry.chapter).toMatch(/^[a-z0-9-]+\/[a-z0-9-]+$/);
        for (const { key } of locales) {
          const marker = String(entry.marker?.[key]);
          expect(typeof entry.marker?.[key], `${entry.fact}: marker.${key}`).toBe('string');
          expect(marker.trim().length, `${entry.fact}: marker.${key} is too short`).toBeGreaterThanOrEqual(8);
          expect(marker, `${entry.fact}: marker.${key} spans lines`).not.toContain('\n');
        }
      }
    });

    it('lists each fact once', () => {
      const facts = entries.map((entry) => entry.fact);
      expect(facts.filter((fact, i) => facts.indexOf(fact) !== i)).toEqual([]);
    });

    it('points only at chapters that exist in both locales', () => {
      for (const chapter of new Set(entries.map((e) => e.chapter))) {
        for (const { dir } of locales) {
          expect(existsSync(chapterFile(dir, chapter)), `${dir}/${chapter}.mdx`).toBe(true);
          expect(sourceOf(dir, chapter), `${dir}/${chapter}.mdx is a chapter`).toMatch(/^sourceNote: /m);
        }
      }
    });

    it('covers every chapter written from the note', () => {
      const covered = new Set(entries.map((entry) => entry.chapter));
      expect(noteChapters.length).toBeGreaterThan(0);
      expect(noteChapters.filter((chapter) => !covered.has(chapter))).toEqual([]);
    });

    for (const { dir, key } of locales) {
      it.each(entries.map((entry) => ({ ...entry, label: entry.fact })))(
        `${key}: $label`,
        ({ chapter, marker }) => {
          expect(taught(sourceOf(dir, chapter))).toContain(marker[key]);
        },
      );
    }
  });
}
