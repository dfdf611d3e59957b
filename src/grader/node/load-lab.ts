/**
 * Loading labs from disk (Node only): `labs/<id>/lab.yaml` plus every file under `start/` and
 * `solution/`, keyed by their path relative to those folders (`start/k8s/web.yaml` → `k8s/web.yaml`).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import type { Fairness } from '../fairness-schema.ts';
import { LabError, parseFairness, parseLab } from '../lab-parse.ts';
import type { LoadedLab, VariantFiles } from '../lab-schema.ts';

/** A lab folder holds at most this much text: labs are small by design and the browser loads them whole. */
const MAX_LAB_BYTES = 2 * 1024 * 1024;

function readTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  const walk = (d: string): void => {
    for (const entry of readdirSync(d).sort()) {
      const p = join(d, entry);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p).split(sep).join('/')] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

/** `variants/<id>/start/` and `variants/<id>/solution/` for every folder under `variants/`. */
function readVariants(dir: string): Record<string, VariantFiles> | undefined {
  const root = join(dir, 'variants');
  if (!existsSync(root)) return undefined;
  const out: Record<string, VariantFiles> = {};
  for (const id of readdirSync(root).sort()) {
    if (!statSync(join(root, id)).isDirectory()) continue;
    out[id] = {
      startFiles: readTree(join(root, id, 'start')),
      solutionFiles: readTree(join(root, id, 'solution')),
    };
  }
  return out;
}

export function loadLabFromDir(dir: string): LoadedLab {
  const yamlPath = join(dir, 'lab.yaml');
  if (!existsSync(yamlPath)) throw new LabError(`${yamlPath}: no such file`);
  const startFiles = readTree(join(dir, 'start'));
  const solutionFiles = readTree(join(dir, 'solution'));
  const variantFiles = readVariants(dir);
  const text = readFileSync(yamlPath, 'utf8');
  const size = [
    text,
    ...Object.values(startFiles),
    ...Object.values(solutionFiles),
    ...Object.values(variantFiles ?? {}).flatMap((v) => [
      ...Object.values(v.startFiles),
      ...Object.values(v.solutionFiles),
    ]),
  ].reduce((n, t) => n + t.length, 0);
  if (size > MAX_LAB_BYTES) throw new LabError(`${dir}: the lab is larger than ${MAX_LAB_BYTES} bytes`);
  const loaded = parseLab(yamlPath, text, startFiles, solutionFiles, variantFiles);
  if (loaded.lab.id !== basename(dir)) {
    throw new LabError(`${yamlPath}: id: "${loaded.lab.id}" must equal the folder name "${basename(dir)}"`);
  }
  return loaded;
}

/** The lab folders under a labs directory, in order (folders without lab.yaml are skipped). */
export function listLabDirs(labsDir: string): string[] {
  if (!existsSync(labsDir)) return [];
  return readdirSync(labsDir)
    .sort()
    .map((d) => join(labsDir, d))
    .filter((d) => statSync(d).isDirectory() && existsSync(join(d, 'lab.yaml')));
}

/** `labs/<id>/fairness.yaml`, validated; undefined when the lab has none. */
export function loadFairnessFromDir(dir: string): Fairness | undefined {
  const path = join(dir, 'fairness.yaml');
  if (!existsSync(path)) return undefined;
  return parseFairness(path, readFileSync(path, 'utf8'));
}
