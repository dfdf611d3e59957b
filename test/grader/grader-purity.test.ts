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
