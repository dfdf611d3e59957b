// The grader runs in the lab's Web Worker and in Node: outside src/grader/node/ it may not touch Node
// built-ins, the DOM or host time/randomness (src/grader/tsconfig.json has no DOM lib and no Node types).
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  importsOf,
  importsOfText,
  isTestSource,
  type SourceImport,
  typeScriptFiles,
} from '../unit/source-imports.ts';

const GRADER = join(import.meta.dirname, '../../src/grader');
const FORBIDDEN: [RegExp, string][] = [
  [/\bDate\.now\s*\(|\bnew Date\(\s*\)/, 'the host clock (timestamps come from the host)'],
  [/\bMath\.random\s*\(/, 'Math.random()'],
  [/from\s+['"]node:|\brequire\s*\(/, 'a Node built-in'],
  [/\b(window|document|localStorage|indexedDB|navigator)\./, 'a DOM global'],
  [/\bprocess\./, 'the Node process object'],
];

/** Production sources outside src/grader/node/ (which is Node-only by design). */
const sources = (dir: string): string[] =>
  typeScriptFiles(dir, (folder) => basename(folder) === 'node').filter((f) => !isTestSource(f));

describe('grader purity', () => {
  it.each(sources(GRADER).map((f) => [f.slice(GRADER.length + 1), f]))(
    '%s uses no host APIs',
    (_name, file) => {
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect(FORBIDDEN.filter(([re]) => re.test(text)).map(([, why]) => why)).toEqual([]);
    },
  );
});

// The engine's public surface is src/engine/index.ts: the grader takes nothing from its internals, so
// what the grader relies on is listed (and kept stable) in one place. Imports are read by the same
// parser as the engine's layer test (test/unit/source-imports.ts): value and type, static and dynamic.
const ENGINE_INDEX = join(import.meta.dirname, '../../src/engine/index.ts');
const ENGINE_DIR = join(import.meta.dirname, '../../src/engine/');

function engineInternals(imports: readonly SourceImport[]): string[] {
  return imports
    .filter((i) => i.target?.startsWith(ENGINE_DIR) && i.target !== ENGINE_INDEX)
    .map((i) => i.specifier);
}

describe('grader imports from the engine', () => {
  it.each(typeScriptFiles(GRADER).map((f) => [f.slice(GRADER.length + 1), f]))(
    '%s imports only src/engine/index.ts',
    (_name, file) => {
      expect(engineInternals(importsOf(file))).toEqual([]);
    },
  );

  it('finds an engine-internal import when there is one', () => {
    const file = join(GRADER, 'probes.ts');
    const lines = [
      "import { Rng } from '../engine/util/rng.ts';",
      "type P = import('../engine/api/objects.ts').Pod;",
      "import { createCluster } from '../engine/index.ts';",
    ];
    expect(engineInternals(lines.flatMap((l) => importsOfText(l, file)))).toEqual([
      '../engine/util/rng.ts',
      '../engine/api/objects.ts',
    ]);
  });
});
