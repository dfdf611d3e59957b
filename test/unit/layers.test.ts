// The engine's layering (src/engine/layers.json, explained in docs/architecture.md): every import of a
// production source, value or type, static or dynamic, goes to its own unit or a lower layer; the
// engine imports no host, screen, grader or visual, no Node built-in and only the packages listed.
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, importsOfText, isTestSource, packageName, typeScriptFiles } from './source-imports.ts';

const ROOT = join(import.meta.dirname, '../..');
const ENGINE = join(ROOT, 'src/engine');

interface Layering {
  readonly layers: readonly { readonly name: string; readonly units: readonly string[] }[];
  readonly packages: readonly string[];
  readonly forbiddenParts: Readonly<Record<string, string>>;
  readonly pending: readonly { readonly from: string; readonly to: string; readonly why: string }[];
}

const LAYERING = JSON.parse(readFileSync(join(ENGINE, 'layers.json'), 'utf8')) as Layering;
const UNITS = LAYERING.layers.flatMap((layer, index) => layer.units.map((unit) => ({ unit, index })));
const NODE_BUILTINS = new Set(builtinModules);

/** The unit a path under src/engine belongs to: the longest unit it starts with. */
function unitOf(path: string): { unit: string; index: number } | undefined {
  return UNITS.filter(({ unit }) => path === unit || path.startsWith(`${unit}/`)).sort(
    (a, b) => b.unit.length - a.unit.length,
  )[0];
}

/** What is wrong with one import of `file` (a path relative to src/engine), or undefined. */
function violation(file: string, specifier: string, target: string | undefined): string | undefined {
  if (target === undefined) {
    if (specifier.startsWith('node:') || NODE_BUILTINS.has(packageName(specifier))) return 'a Node built-in';
    return LAYERING.packages.includes(packageName(specifier))
      ? undefined
      : `package ${packageName(specifier)}, not in layers.json "packages"`;
  }
  const fromRoot = relative(ROOT, target);
  if (!target.startsWith(`${ENGINE}/`)) {
    const part = Object.keys(LAYERING.forbiddenParts).find((p) => fromRoot.startsWith(`${p}/`));
    return part ? `${LAYERING.forbiddenParts[part]} (${part})` : `${fromRoot}, outside the engine`;
  }
  const to = relative(ENGINE, target);
  const a = unitOf(file);
  const b = unitOf(to);
  if (!a || !b) return `${!a ? file : to} is in no unit of layers.json`;
  if (a.unit === b.unit || b.index < a.index) return undefined;
  if (LAYERING.pending.some((p) => p.from === file && p.to === to)) return undefined;
  const names = `${LAYERING.layers[a.index]!.name} → ${LAYERING.layers[b.index]!.name}`;
  return `${b.index === a.index ? 'sideways' : 'upward'} (${names})`;
}

const PRODUCTION = typeScriptFiles(ENGINE)
  .filter((f) => !isTestSource(f))
  .map((f) => relative(ENGINE, f));

describe('engine layers', () => {
  it('has sources to check and puts every one in a unit', () => {
    expect(PRODUCTION.length).toBeGreaterThan(300);
    expect(PRODUCTION.filter((f) => !unitOf(f))).toEqual([]);
  });

  it('names only units that exist, each once', () => {
    const units = UNITS.map((u) => u.unit);
    expect(units.filter((u) => !existsSync(join(ENGINE, u)))).toEqual([]);
    expect(units.filter((u, i) => units.indexOf(u) !== i)).toEqual([]);
  });

  it.each(PRODUCTION.map((f) => [f]))('%s imports only downward', (file) => {
    const bad = importsOf(join(ENGINE, file)).flatMap(({ specifier, target, line }) => {
      const why = violation(file, specifier, target);
      return why ? [`${file}:${line} imports ${specifier}: ${why}`] : [];
    });
    expect(bad).toEqual([]);
  });

  it('lists only pending exceptions that still exist', () => {
    const stale = LAYERING.pending.filter(
      (p) => !importsOf(join(ENGINE, p.from)).some((i) => i.target === join(ENGINE, p.to)),
    );
    expect(stale).toEqual([]);
  });

  // The checks above must be able to fail: each planted line below is one of the kinds of import they refuse.
  it.each([
    [
      'api/objects.ts',
      "import type { Cluster } from '../cluster/cluster.ts';",
      'upward (api → composition root)',
    ],
    ['controllers/scheduler.ts', "import { Kubelet } from '../node/kubelet.ts';", undefined],
    [
      'controllers/scheduler.ts',
      "const m = await import('../dataplane/proxy/kube-proxy.ts');",
      'sideways (controllers, dataplane → controllers, dataplane)',
    ],
    ['node/kubelet.ts', "export { x } from '../kubectl/index.ts';", 'upward (node → programs)'],
    ['util/json.ts', "type T = import('../api/objects.ts').Pod;", 'upward (util → api)'],
    ['shell/shell.ts', "import { readFileSync } from 'node:fs';", 'a Node built-in'],
    ['shell/shell.ts', "import path from 'path';", 'a Node built-in'],
    [
      'kubectl/index.ts',
      "import { Terminal } from '@xterm/xterm';",
      'package @xterm/xterm, not in layers.json "packages"',
    ],
    ['cluster/cluster.ts', "import { grade } from '../../grader/index.ts';", 'the grader (src/grader)'],
    [
      'cluster/cluster.ts',
      "import type { Host } from '../../runtime/host.ts';",
      'a host (Worker, WebContainer, Node CLI) (src/runtime)',
    ],
  ])('refuses a planted import in %s: %s', (file, line, expected) => {
    const [imp] = importsOfText(line, join(ENGINE, file));
    expect(violation(file, imp!.specifier, imp!.target)).toBe(expected);
  });
});
