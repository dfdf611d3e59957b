// The grader runs in the lab's Web Worker and in Node: outside src/grader/node/ it may not touch Node
// built-ins, the DOM or host time/randomness (src/grader/tsconfig.json has no DOM lib and no Node types).
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTestSource, typeScriptFiles } from '../unit/source-imports.ts';

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

// Which engine modules the grader may import is checked with everything else outside the engine,
// in test/unit/engine-entry.test.ts.
