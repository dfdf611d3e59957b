import { describe, expect, it } from 'vitest';
import { canonicalJson, labContentHash, sha256Hex } from './content-hash.ts';
import { labWith } from './test-helpers.ts';

const checks = `  - { id: ran, title: { pt-BR: t, en: t }, type: history, matches: '^echo' }`;

describe('labContentHash', () => {
  it('is sha256 of the canonical lab, start and solution files (the editor-only $schema left out)', () => {
    const loaded = labWith(checks);
    const { $schema: _s, ...lab } = loaded.lab;
    const expected = canonicalJson({ lab, start: loaded.startFiles, solution: loaded.solutionFiles });
    expect(labContentHash(loaded)).toBe(`sha256:${sha256Hex(expected)}`);
    expect(labContentHash(loaded)).toBe(labContentHash(labWith(checks)));
  });

  // It is kept per loaded lab for the CLI, which checks every report of a cohort against one lab.
  it('is computed anew for a copy with any hashed part replaced', () => {
    const loaded = labWith(checks);
    const first = labContentHash(loaded);
    const versions = [
      { ...loaded, lab: { ...loaded.lab, version: 2 } },
      { ...loaded, startFiles: { 'web.yaml': 'x' } },
      { ...loaded, solutionFiles: { 'web.yaml': 'y' } },
    ];
    for (const changed of versions) expect(labContentHash(changed)).not.toBe(first);
    expect(labContentHash(loaded)).toBe(first);
  });
});
