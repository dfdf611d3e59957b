#!/usr/bin/env node
// @ts-check
/**
 * Writes test/unit/testdata/seed-shingles.txt: the digest of every 10-word run of the seed notes the
 * course was written from, one per line, sorted. test/unit/copied-prose.test.ts fails on any page that
 * shares such a run. Run it again if the notes change:
 *   node scripts/seed-shingles.mjs /work/shared/seeds
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { digest, runsOf, words } from './lib/prose-shingles.mjs';

const seedsDir = process.argv[2];
if (!seedsDir) {
  console.error('usage: node scripts/seed-shingles.mjs SEEDS_DIR');
  process.exit(2);
}
const digests = new Set();
for (const file of readdirSync(seedsDir).filter((name) => name.endsWith('.txt'))) {
  for (const run of runsOf(words(readFileSync(join(seedsDir, file), 'utf8')))) digests.add(digest(run));
}
const out = fileURLToPath(new URL('../test/unit/testdata/seed-shingles.txt', import.meta.url));
writeFileSync(out, [...digests].sort().join('\n') + '\n');
console.log(`${digests.size} runs → ${out}`);
