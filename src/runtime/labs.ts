/**
 * The labs bundled into the site: every `labs/<id>/lab.yaml` with its `start/` and `solution/` files,
 * read as text at build time (Vite `import.meta.glob`, `?raw`) and parsed with the lab format's own
 * parser. Each lab is its own lazily loaded chunk, so a page pays only for the lab it shows.
 */
import { parseLab } from '../grader/lab-parse.ts';
import type { LoadedLab, VariantFiles } from '../grader/lab-schema.ts';

type RawLoader = () => Promise<string>;

const yamls = import.meta.glob<string>('/labs/*/lab.yaml', { query: '?raw', import: 'default' });
const files = import.meta.glob<string>(
  [
    '/labs/*/start/**/*',
    '/labs/*/solution/**/*',
    '/labs/*/variants/*/start/**/*',
    '/labs/*/variants/*/solution/**/*',
  ],
  { query: '?raw', import: 'default' },
);

export class UnknownLabError extends Error {
  readonly code = 'no-lab';
  constructor(id: string) {
    super(`unknown lab "${id}" (bundled labs: ${labIds().join(', ') || 'none'})`);
    this.name = 'UnknownLabError';
  }
}

/** Ids of the bundled labs, sorted. */
export function labIds(): string[] {
  return Object.keys(yamls)
    .map((p) => p.split('/')[2] ?? '')
    .filter(Boolean)
    .sort();
}

/** `variants/<id>/start/` and `variants/<id>/solution/` of a lab with variants (undefined without). */
async function readVariants(id: string): Promise<Record<string, VariantFiles> | undefined> {
  const prefix = `/labs/${id}/variants/`;
  const ids = new Set(
    Object.keys(files)
      .filter((p) => p.startsWith(prefix))
      .map((p) => p.slice(prefix.length).split('/')[0] ?? ''),
  );
  if (ids.size === 0) return undefined;
  const out: Record<string, VariantFiles> = {};
  for (const v of [...ids].sort()) {
    out[v] = {
      startFiles: await readDir(id, `variants/${v}/start`),
      solutionFiles: await readDir(id, `variants/${v}/solution`),
    };
  }
  return out;
}

async function readDir(id: string, dir: string): Promise<Record<string, string>> {
  const prefix = `/labs/${id}/${dir}/`;
  const out: Record<string, string> = {};
  const entries = Object.entries(files as Record<string, RawLoader>).filter(([p]) => p.startsWith(prefix));
  for (const [path, load] of entries.sort(([a], [b]) => a.localeCompare(b))) {
    out[path.slice(prefix.length)] = await load();
  }
  return out;
}

/** Loads and validates one bundled lab. */
export async function loadBundledLab(id: string): Promise<LoadedLab> {
  const load = (yamls as Record<string, RawLoader>)[`/labs/${id}/lab.yaml`];
  if (!load) throw new UnknownLabError(id);
  const [text, start, solution, variants] = await Promise.all([
    load(),
    readDir(id, 'start'),
    readDir(id, 'solution'),
    readVariants(id),
  ]);
  return parseLab(`labs/${id}/lab.yaml`, text, start, solution, variants);
}

/** A bundled lab's raw texts (lab.yaml, start/ and solution/ files), for hosts that parse it elsewhere. */
export async function loadBundledLabSource(id: string): Promise<{
  id: string;
  yaml: string;
  start: Record<string, string>;
  solution: Record<string, string>;
  variants?: Record<string, VariantFiles>;
}> {
  const load = (yamls as Record<string, RawLoader>)[`/labs/${id}/lab.yaml`];
  if (!load) throw new UnknownLabError(id);
  const [yaml, start, solution, variants] = await Promise.all([
    load(),
    readDir(id, 'start'),
    readDir(id, 'solution'),
    readVariants(id),
  ]);
  return { id, yaml, start, solution, ...(variants ? { variants } : {}) };
}
