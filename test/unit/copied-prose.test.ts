/**
 * The course is written anew, not adapted line by line: no page (and no glossary entry) shares a run of
 * 10 or more words with a seed note, outside code, commands and diagram sources. Case and punctuation
 * don't hide a copy. The notes are not in the repository; test/unit/testdata/seed-shingles.txt holds a
 * digest of each of their 10-word runs (scripts/seed-shingles.mjs writes it from the notes).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { proseOf, sharedStretches, words } from '../../scripts/lib/prose-shingles.mjs';

const contentDir = fileURLToPath(new URL('../../content/', import.meta.url));
const seedRuns = new Set(
  readFileSync(fileURLToPath(new URL('./testdata/seed-shingles.txt', import.meta.url)), 'utf8')
    .split('\n')
    .filter(Boolean),
);

const pages = ['pt-br', 'en'].flatMap((locale) =>
  readdirSync(join(contentDir, locale), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.mdx'))
    .map((file) => `${locale}/${file.split(sep).join('/')}`)
    .sort(),
);

const copiedIn = (mdx: string) => sharedStretches(words(proseOf(mdx)), seedRuns);

/** Seed note 001's opening claim, verbatim: what a pasted sentence looks like. */
const PASTED =
  'O Kubernetes não implementa essa rede plana: ele exige que ela exista, através de um contrato chamado CNI, e delega a implementação a um plugin.';

describe('copied prose', () => {
  it('has digests of the seed notes to compare against', () => {
    expect(seedRuns.size).toBeGreaterThan(10_000);
  });

  it('catches a pasted sentence, whatever its case and punctuation, but not the same words in code', () => {
    const page = readFileSync(join(contentDir, 'pt-br/foundations/linux-primer.mdx'), 'utf8');
    expect(copiedIn(`${page}\n\n${PASTED}\n`)).toHaveLength(1);
    expect(copiedIn(`${page}\n\n${PASTED.toUpperCase().replaceAll(',', ';')}\n`)).toHaveLength(1);
    expect(copiedIn(`${page}\n\n\`\`\`text\n${PASTED}\n\`\`\`\n`)).toEqual([]);
    // Nine words of it are not a copy.
    expect(copiedIn(`${page}\n\n${PASTED.split(' ').slice(0, 9).join(' ')}\n`)).toEqual([]);
  });

  it.each(pages)('%s shares no run of 10 words with a seed note', (page) => {
    expect(copiedIn(readFileSync(join(contentDir, page), 'utf8'))).toEqual([]);
  });

  it('the glossary shares no run of 10 words with a seed note', () => {
    const terms = parseYaml(readFileSync(join(contentDir, 'glossary/terms.yaml'), 'utf8')) as unknown;
    const strings = [...JSON.stringify(terms).matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!);
    expect(strings.length).toBeGreaterThan(1000);
    expect(strings.flatMap((text) => sharedStretches(words(text), seedRuns))).toEqual([]);
  });
});
