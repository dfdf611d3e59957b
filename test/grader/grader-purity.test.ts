// The grader runs in the lab's Web Worker and in Node: outside src/grader/node/ it may not touch Node
// built-ins, the DOM or host time/randomness (src/grader/tsconfig.json has no DOM lib and no Node types).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const GRADER = join(import.meta.dirname, '../../src/grader');
const FORBIDDEN: [RegExp, string][] = [
  [/\bDate\.now\s*\(|\bnew Date\(\s*\)/, 'the host clock (timestamps come from the host)'],
  [/\bMath\.random\s*\(/, 'Math.random()'],
  [/from\s+['"]node:|\brequire\s*\(/, 'a Node built-in'],
  [/\b(window|document|localStorage|indexedDB|navigator)\./, 'a DOM global'],
  [/\bprocess\./, 'the Node process object'],
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) return entry === 'node' ? [] : sources(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') && !p.endsWith('test-helpers.ts') ? [p] : [];
  });
}

describe('grader purity', () => {
  it.each(sources(GRADER).map((f) => [f.slice(GRADER.length + 1), f]))(
    '%s uses no host APIs',
    (_name, file) => {
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect(FORBIDDEN.filter(([re]) => re.test(text)).map(([, why]) => why)).toEqual([]);
    },
  );
});

/** Every module under src/grader, tests and helpers included. */
function allSources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) return allSources(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

// The engine's public surface is src/engine/index.ts: the grader takes nothing from its internals, so
// what the grader relies on is listed (and kept stable) in one place.
describe('grader imports from the engine', () => {
  const ENGINE_IMPORT = /(?:from|import)\s*\(?\s*['"]((?:\.\.\/)+engine\/[^'"]*)['"]/g;
  it.each(allSources(GRADER).map((f) => [f.slice(GRADER.length + 1), f]))(
    '%s imports only src/engine/index.ts',
    (name, file) => {
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      const depth = name.split('/').length - 1;
      const index = `${'../'.repeat(depth + 1)}engine/index.ts`;
      const internals = [...text.matchAll(ENGINE_IMPORT)].map((m) => m[1]).filter((p) => p !== index);
      expect(internals).toEqual([]);
    },
  );

  it('finds an engine-internal import when there is one', () => {
    const line = "import { Rng } from '../engine/util/rng.ts';";
    expect([...line.matchAll(ENGINE_IMPORT)].map((m) => m[1])).toEqual(['../engine/util/rng.ts']);
  });
});
