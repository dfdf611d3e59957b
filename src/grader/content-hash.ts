/**
 * The content hash a grade report carries: sha256 over the canonical JSON of the validated lab (defaults
 * filled in, keys sorted, the editor-only `$schema` left out) and of its start and solution files. Two
 * labs with the same hash grade the same way; comments and YAML layout do not change it.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { LoadedLab } from './lab-schema.ts';

/** JSON with object keys sorted at every level, so equal values always give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value))
    return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/**
 * Hashes already computed, by the loaded lab and the parts hashed (a copy with a part replaced is hashed
 * anew). The instructor CLI checks every report against the lab: once per lab, not once per report.
 */
const hashes = new WeakMap<LoadedLab, { readonly parts: readonly unknown[]; readonly hash: string }>();

/** For one variant of a lab with variants (resolveVariant), the variant id is hashed in too. */
export function labContentHash(loaded: LoadedLab): string {
  const parts = [loaded.lab, loaded.startFiles, loaded.solutionFiles, loaded.variant?.id];
  const known = hashes.get(loaded);
  if (known && known.parts.every((p, i) => p === parts[i])) return known.hash;
  const { $schema: _editorOnly, ...lab } = loaded.lab;
  const variant = loaded.variant?.id;
  const hash = `sha256:${sha256Hex(canonicalJson({ lab, start: loaded.startFiles, solution: loaded.solutionFiles, variant }))}`;
  hashes.set(loaded, { parts, hash });
  return hash;
}
