// @ts-check
/**
 * Shared by scripts/seed-shingles.mjs and test/unit/copied-prose.test.ts: how a text becomes the runs of
 * words compared between the course and the seed notes it was written from. The seed notes themselves
 * are not in the repository; only a digest of each of their 10-word runs is (test/unit/testdata/).
 */
import { createHash } from 'node:crypto';

/** A run this long, shared with a seed note, counts as copied prose. */
export const RUN_WORDS = 10;

/**
 * Lower-case words, punctuation dropped (accents kept: "é" and "e" are different words).
 * @param {string} text
 * @returns {string[]}
 */
export function words(text) {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

/**
 * What a learner reads as prose in an MDX page: no frontmatter, imports, MDX comments, fenced code
 * (indented ones in lists too), inline code, a diagram's Mermaid source (its `alt` text stays: it is
 * prose), a lab's or self-check's props, or HTML/JSX tags.
 * @param {string} mdx
 */
export function proseOf(mdx) {
  return mdx
    .replace(/^---\r?\n[\s\S]*?\r?\n---/, ' ')
    .replace(/^\s*```[\s\S]*?^\s*```/gm, ' ')
    .replace(/^import .*$/gm, ' ')
    .replace(/\{\/\*[\s\S]*?\*\/\}/g, ' ')
    .replace(/code=\{`[\s\S]*?`\}/g, ' ')
    .replace(/`[^`\n]*`/g, ' ')
    .replace(/<[^>]+>/g, ' ');
}

/**
 * A short digest of one run of words (48 bits: no chance collision over a few hundred thousand runs).
 * @param {string[]} run
 */
export function digest(run) {
  return createHash('sha256').update(run.join(' ')).digest('hex').slice(0, 12);
}

/**
 * Every run of RUN_WORDS consecutive words, in order.
 * @param {string[]} list
 */
export function runsOf(list) {
  /** @type {string[][]} */
  const runs = [];
  for (let i = 0; i + RUN_WORDS <= list.length; i++) runs.push(list.slice(i, i + RUN_WORDS));
  return runs;
}

/**
 * The stretches of `list` made of runs whose digest is in `seen`, each as its words (overlapping runs
 * joined, so a copied paragraph is reported once).
 * @param {string[]} list
 * @param {Set<string>} seen
 */
export function sharedStretches(list, seen) {
  /** @type {string[]} */
  const stretches = [];
  let i = 0;
  while (i + RUN_WORDS <= list.length) {
    if (!seen.has(digest(list.slice(i, i + RUN_WORDS)))) {
      i++;
      continue;
    }
    let end = i + RUN_WORDS;
    while (end < list.length && seen.has(digest(list.slice(end - RUN_WORDS + 1, end + 1)))) end++;
    stretches.push(list.slice(i, end).join(' '));
    i = end;
  }
  return stretches;
}
