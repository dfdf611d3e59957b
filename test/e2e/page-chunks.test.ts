// The page's main thread never loads engine code: the engine runs in the lab's Web Worker (or inside
// the WebContainer), and the page talks to it through the host protocol. This follows, in the built
// site, every module a page can load — its <script type="module"> tags and inline scripts, then each
// chunk's static imports, dynamic imports and preload lists — and looks in each for a string that only
// the engine's composition root contains. Worker scripts (`new Worker(new URL(…))`) and the
// WebContainer's program (fetched as text) are not imports, so the walk does not enter them.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const DIST = join(ROOT, 'dist');
const ASTRO = join(DIST, '_astro');

/**
 * Strings each of which only one engine module contains (the composition root, the snapshot format, a
 * dataplane program's help): a chunk with any of them carries engine code. The first test proves they
 * are engine-only and that the engine's worker bundle does carry them.
 */
const ENGINE_MARKERS: readonly (readonly [file: string, marker: string])[] = [
  ['src/engine/cluster/cluster.ts', 'controllers did not settle'],
  ['src/engine/cluster/snapshot-schema.ts', `'packetpath-cluster'`],
  ['src/engine/dataplane/trace/trace-command.ts', 'Follow one request through the simulated cluster'],
];
const MARKER_TEXTS = ENGINE_MARKERS.map(([, m]) => m.replace(/^'(.*)'$/, '$1'));
const hasEngine = (code: string) => MARKER_TEXTS.some((m) => code.includes(m));

function htmlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) return htmlFiles(p);
    return p.endsWith('.html') ? [p] : [];
  });
}

/** The production sources under `dir` (what a page bundle is built from; tests and fixtures are not). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) return entry === 'fixtures' ? [] : sources(p);
    return /\.(ts|tsx|astro|mjs|js)$/.test(p) && !/\.test\.|test-helpers/.test(p) ? [p] : [];
  });
}

/** `/_astro/x.js`, `./x.js`, `_astro/x.js` → `x.js`, for a module of dist/_astro; undefined otherwise. */
function chunkName(specifier: string): string | undefined {
  const m = /^(?:\.\/|\/?_astro\/)([^/]+\.js)$/.exec(specifier);
  return m ? m[1] : undefined;
}

/** The modules a script loads: static and dynamic imports, and Vite's preload lists (`m.f=[…]`). */
function importsOf(code: string): string[] {
  const q = '[`"\']';
  const specifiers = [
    ...code.matchAll(new RegExp(`\\bfrom\\s*${q}([^\`"']+)${q}`, 'g')),
    ...code.matchAll(new RegExp(`\\bimport\\s*\\(?\\s*${q}([^\`"']+)${q}`, 'g')),
    ...[...code.matchAll(/\bm\.f=\[([^\]]*)\]/g)].flatMap((m) => [...m[1]!.matchAll(/"([^"]+)"/g)]),
  ].map((m) => m[1]!);
  return specifiers.flatMap((s) => chunkName(s) ?? []);
}

/** Every dist/_astro chunk some page can load into its main thread, with the page that first reaches it. */
function pageChunks(): Map<string, string> {
  const reached = new Map<string, string>();
  const queue: string[] = [];
  const visit = (chunk: string, from: string) => {
    if (reached.has(chunk)) return;
    reached.set(chunk, from);
    queue.push(chunk);
  };
  for (const page of htmlFiles(DIST)) {
    const html = readFileSync(page, 'utf8');
    const from = relative(DIST, page);
    for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) {
      const chunk = chunkName(m[1]!);
      if (chunk) visit(chunk, from);
    }
    for (const m of html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) {
      const chunk = chunkName(m[1]!);
      if (chunk) visit(chunk, from);
    }
    for (const m of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g))
      for (const chunk of importsOf(m[1]!)) visit(chunk, from);
  }
  for (let chunk = queue.shift(); chunk; chunk = queue.shift()) {
    const path = join(ASTRO, chunk);
    if (!existsSync(path)) continue;
    for (const next of importsOf(readFileSync(path, 'utf8'))) visit(next, chunk);
  }
  return reached;
}

describe('page chunks', () => {
  const chunks = pageChunks();
  const text = (chunk: string) => readFileSync(join(ASTRO, chunk), 'utf8');

  it('the markers are the engine’s, and the engine’s worker bundle has them', () => {
    const outside = sources(join(ROOT, 'src')).filter((f) => !f.startsWith(join(ROOT, 'src/engine/')));
    expect(outside.length).toBeGreaterThan(100);
    for (const [file, marker] of ENGINE_MARKERS) {
      expect(readFileSync(join(ROOT, file), 'utf8')).toContain(marker);
      expect(outside.filter((f) => readFileSync(f, 'utf8').includes(marker))).toEqual([]);
    }
    const workers = readdirSync(ASTRO).filter((f) => /^worker-.*\.js$/.test(f));
    expect(workers.length).toBeGreaterThan(0);
    for (const m of MARKER_TEXTS) expect(workers.filter((w) => text(w).includes(m))).not.toEqual([]);
  });

  it('reaches the lab UI and both hosts’ page-side code', () => {
    const names = [...chunks.keys()];
    // The lab app, the Web Worker host's connector (which starts the worker) and the WebContainer's.
    expect(names.filter((c) => text(c).includes('connectWebContainerHost'))).not.toEqual([]);
    expect(names.filter((c) => /new Worker\(new URL\(`\/_astro\/worker-/.test(text(c)))).not.toEqual([]);
    // The WebContainer host's page side: it names the program it writes into the container.
    expect(names.filter((c) => /`\/_astro\/program-[^`]+\.js`/.test(text(c)))).not.toEqual([]);
    expect(names.filter((c) => /^(worker|program|grade-worker)-/.test(c))).toEqual([]);
  });

  it('loads no engine code into any page’s main thread', () => {
    const leaks = [...chunks]
      .filter(([c]) => hasEngine(text(c)))
      .map(([c, from]) => `${c} (from ${from})`);
    expect(leaks).toEqual([]);
  });
});
