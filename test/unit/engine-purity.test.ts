import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// The engine runs in a Web Worker, in Node and in a WebContainer, deterministically from a seed: it may
// not reach for host globals or host time/randomness. tsconfig (no DOM lib, no Node types) catches most
// of this at compile time; this test catches what type checking cannot (e.g. globals typed by ES libs).
const ENGINE = join(import.meta.dirname, '../../src/engine');
const FORBIDDEN: [RegExp, string][] = [
  [/\bDate\.now\s*\(/, 'Date.now() (use the SimClock)'],
  [/\bnew Date\(\s*\)/, 'new Date() without a time (use the SimClock)'],
  [/\bMath\.random\s*\(/, 'Math.random() (use the seeded Rng)'],
  [/\bperformance\.now\s*\(/, 'performance.now()'],
  [/from\s+['"]node:/, 'a Node built-in import'],
  [/\brequire\s*\(/, 'require()'],
  [/\b(window|document|localStorage|indexedDB|navigator)\./, 'a DOM global'],
  [/\bprocess\.(env|argv|exit|stdout)/, 'the Node process object'],
  [/\bsetTimeout\s*\(|\bsetInterval\s*\(/, 'host timers (the engine is synchronous on a simulated clock)'],
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') && !p.endsWith('test-helpers.ts') ? [p] : [];
  });
}

describe('engine purity', () => {
  const files = sources(ENGINE);
  it('has sources to check', () => {
    expect(files.length).toBeGreaterThan(5);
  });
  it.each(files.map((f) => [f.slice(ENGINE.length + 1), f]))('%s uses no host globals', (_name, file) => {
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    const hits = FORBIDDEN.filter(([re]) => re.test(text)).map(([, why]) => why);
    expect(hits).toEqual([]);
  });
});
