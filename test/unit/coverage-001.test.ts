/**
 * Coverage of seed note 001 ("Rede do cluster por dentro"): every fact listed in content/coverage/001.yaml
 * must be taught in the chapter it names, in both locales. A fact's marker is a short literal string that
 * appears in that chapter's MDX source where the fact is taught.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

const NOTE = '001_b506c9cb40f973ef.txt';
const PART = 'inside';
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

const entries = parseYaml(readFileSync(join(contentDir, 'coverage/001.yaml'), 'utf8')) as CoverageEntry[];

const chapterFile = (dir: string, chapter: string) => join(contentDir, dir, `${chapter}.mdx`);
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

/** The chapters written from note 001: every page of the part whose frontmatter names the note. */
const noteChapters = readdirSync(join(contentDir, 'pt-br', PART))
  .filter((file) => file.endsWith('.mdx'))
  .map((file) => `${PART}/${file.replace(/\.mdx$/, '')}`)
  .filter((chapter) => sourceOf('pt-br', chapter).includes(`sourceNote: ${NOTE}`));

describe('coverage list for note 001', () => {
  it('is a non-empty list of well-formed entries', () => {
    expect(Array.isArray(entries)).toBe(true);
    expect(entries.length).toBeGreaterThanOrEqual(100);
    for (const entry of entries) {
      expect(typeof entry.fact).toBe('string');
      expect(entry.fact.trim().length).toBeGreaterThan(0);
      expect(entry.chapter).toMatch(/^[a-z0-9-]+\/[a-z0-9-]+$/);
      for (const { key } of locales) {
        expect(typeof entry.marker?.[key], `${entry.fact}: marker.${key}`).toBe('string');
        expect(
          entry.marker[key].trim().length,
          `${entry.fact}: marker.${key} is too short`,
        ).toBeGreaterThanOrEqual(8);
      }
    }
  });

  it('lists each fact once', () => {
    const facts = entries.map((entry) => entry.fact);
    expect(facts.filter((fact, i) => facts.indexOf(fact) !== i)).toEqual([]);
  });

  it('points only at chapters that exist in both locales and were written from note 001', () => {
    for (const entry of new Set(entries.map((e) => e.chapter))) {
      for (const { dir } of locales) {
        expect(existsSync(chapterFile(dir, entry)), `${dir}/${entry}.mdx`).toBe(true);
        expect(sourceOf(dir, entry), `${dir}/${entry}.mdx sourceNote`).toContain(`sourceNote: ${NOTE}`);
      }
    }
  });

  it('covers every chapter written from note 001', () => {
    const covered = new Set(entries.map((entry) => entry.chapter));
    expect(noteChapters.length).toBeGreaterThan(0);
    expect(noteChapters.filter((chapter) => !covered.has(chapter))).toEqual([]);
  });

  for (const { dir, key } of locales) {
    it.each(entries.map((entry) => ({ ...entry, label: entry.fact })))(
      `${key}: $label`,
      ({ chapter, marker }) => {
        expect(sourceOf(dir, chapter)).toContain(marker[key]);
      },
    );
  }
});
