// The engine's public surface (src/engine/index.ts, and data.ts for plain data a page may load) is the
// only way into the engine from outside it: every source under src/ outside src/engine (tests too) and
// every test helper under test/ imports nothing else of src/engine. The engine's own test kits
// (src/engine/**/test-helpers.ts) are open to test helpers. The names the two entry points export are
// listed in test/unit/testdata/engine-exports.txt, so a change to the surface shows in review.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { importsOf, importsOfText, type SourceImport } from './source-imports.ts';

const ROOT = join(import.meta.dirname, '../..');
const ENGINE_DIR = join(ROOT, 'src/engine/');
const ENTRY_POINTS = ['index.ts', 'data.ts'].map((f) => join(ENGINE_DIR, f));
const EXPORTS_FILE = join(import.meta.dirname, 'testdata/engine-exports.txt');

/** Files under `dir` whose name matches `re`, recursively, skipping `skip` folders. */
function filesUnder(dir: string, re: RegExp, skip: (folder: string) => boolean): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) return skip(p) ? [] : filesUnder(p, re, skip);
    return re.test(entry) ? [p] : [];
  });
}

const SOURCE = /\.(ts|tsx|mts|astro)$/;
const OUTSIDE_ENGINE = filesUnder(join(ROOT, 'src'), SOURCE, (f) => `${f}/` === ENGINE_DIR);
const TEST_HELPERS = filesUnder(join(ROOT, 'test'), SOURCE, (f) => f.endsWith('/testdata')).filter(
  (f) => !/\.test\.(ts|mts)$/.test(f),
);

/** The imports of `file` that reach into the engine past its entry points. */
function internals(imports: readonly SourceImport[], opts: { testKit: boolean }): string[] {
  return imports
    .filter(({ target }) => target?.startsWith(ENGINE_DIR) && !ENTRY_POINTS.includes(target))
    .filter(({ target }) => !(opts.testKit && target!.endsWith('/test-helpers.ts')))
    .map(({ specifier, line }) => `${specifier} (line ${line})`);
}

describe('only the engine entry points are imported from outside the engine', () => {
  it('finds the sources it checks', () => {
    expect(OUTSIDE_ENGINE.length).toBeGreaterThan(150);
    expect(OUTSIDE_ENGINE.some((f) => f.endsWith('.astro'))).toBe(true);
    expect(TEST_HELPERS.length).toBeGreaterThan(10);
  });

  it.each(OUTSIDE_ENGINE.map((f) => [relative(ROOT, f), f]))('%s', (_name, file) => {
    expect(internals(importsOf(file), { testKit: false })).toEqual([]);
  });

  it.each(TEST_HELPERS.map((f) => [relative(ROOT, f), f]))('%s (a test helper)', (_name, file) => {
    expect(internals(importsOf(file), { testKit: true })).toEqual([]);
  });

  it('finds an engine-internal import when there is one', () => {
    const file = join(ROOT, 'src/grader/probes.ts');
    const lines = [
      "import { Rng } from '../engine/util/rng.ts';",
      "type P = import('../engine/api/objects.ts').Pod;",
      "const m = await import('../engine/cluster/cluster.ts');",
      "import { createCluster } from '../engine/index.ts';",
      "import { YAML_LIMITS } from '../engine/data.ts';",
      "import { apply } from '../engine/dataplane/network/test-helpers.ts';",
    ];
    const imports = lines.flatMap((l) => importsOfText(l, file));
    expect(internals(imports, { testKit: false })).toEqual([
      '../engine/util/rng.ts (line 1)',
      '../engine/api/objects.ts (line 1)',
      '../engine/cluster/cluster.ts (line 1)',
      '../engine/dataplane/network/test-helpers.ts (line 1)',
    ]);
    expect(internals(imports, { testKit: true })).toHaveLength(3);
  });
});

/** `name value` or `name type` for every export of the entry points, as the type checker sees them. */
function exportedNames(): string[] {
  const config = ts.readConfigFile(join(ENGINE_DIR, 'tsconfig.json'), (p) => ts.sys.readFile(p));
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ENGINE_DIR);
  const program = ts.createProgram(ENTRY_POINTS, { ...options, noEmit: true });
  const checker = program.getTypeChecker();
  return ENTRY_POINTS.flatMap((entry) => {
    const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
    return checker.getExportsOfModule(module).map((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const kind = target.flags & ts.SymbolFlags.Value ? 'value' : 'type';
      return `${relative(ENGINE_DIR, entry)} ${symbol.name} ${kind}`;
    });
  }).sort();
}

describe('the engine exports', () => {
  // UPDATE_ENGINE_EXPORTS=1 rewrites the list; the diff is the surface change to review.
  it('exactly the committed list', () => {
    const actual = exportedNames();
    if (process.env.UPDATE_ENGINE_EXPORTS === '1') writeFileSync(EXPORTS_FILE, `${actual.join('\n')}\n`);
    const committed = readFileSync(EXPORTS_FILE, 'utf8').split('\n').filter(Boolean);
    expect(actual.length).toBeGreaterThan(50);
    expect(actual).toEqual(committed);
  }, 60_000);
});
