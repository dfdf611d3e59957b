/**
 * Client-side apply's three-way merge (k8s.io/apimachinery strategicpatch `CreateThreeWayMergePatch`,
 * applied to the live object): fields in the manifest win; fields that were in the last applied
 * configuration but are gone from the manifest are removed; fields only the server or other writers
 * set are kept. Lists of built-in kinds merge by their patchMergeKey (containers by name, container
 * ports by containerPort, Service ports by port, env by name…); other lists, and every list of a
 * custom resource (JSON merge patch), are replaced whole.
 */
import { deepClone, isPlainObject, jsonEqual } from '../util/json.ts';
import { setOwn } from '../apiserver/json-values.ts';

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** patchMergeKey by list field name; `ports` depends on what its items are. */
const MERGE_KEYS: Readonly<Record<string, string>> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  imagePullSecrets: 'name',
  hostAliases: 'ip',
  conditions: 'type',
  ownerReferences: 'uid',
  topologySpreadConstraints: 'topologyKey',
  resourceClaims: 'name',
};

/** The patchMergeKey of a list field (strategic merge), if it merges by key. */
export function mergeKeyFor(field: string, items: readonly unknown[]): string | undefined {
  if (field === 'ports') {
    const first = items.find(isPlainObject);
    if (first && 'containerPort' in first) return 'containerPort';
    if (first && 'port' in first) return 'port';
    return undefined;
  }
  return MERGE_KEYS[field];
}

function keyOf(item: unknown, key: string): string | undefined {
  if (!isPlainObject(item) || item[key] === undefined) return undefined;
  return JSON.stringify(item[key]);
}

function mergeValue(
  field: string,
  original: unknown,
  modified: unknown,
  current: unknown,
  strategic: boolean,
): unknown {
  if (isPlainObject(modified) && isPlainObject(current)) {
    return mergeObject(isPlainObject(original) ? original : {}, modified, current, strategic);
  }
  if (strategic && Array.isArray(modified) && Array.isArray(current)) {
    const key = mergeKeyFor(field, [...modified, ...current]);
    if (
      key &&
      modified.every((m) => keyOf(m, key) !== undefined) &&
      current.every((c) => keyOf(c, key) !== undefined)
    ) {
      return mergeList(key, Array.isArray(original) ? original : [], modified, current, strategic);
    }
  }
  return deepClone(modified);
}

function mergeList(
  key: string,
  original: readonly unknown[],
  modified: readonly unknown[],
  current: readonly unknown[],
  strategic: boolean,
): unknown[] {
  const orig = new Map(original.map((o) => [keyOf(o, key), o]));
  const cur = new Map(current.map((c) => [keyOf(c, key), c]));
  const inModified = new Set(modified.map((m) => keyOf(m, key)));
  const out: unknown[] = modified.map((m) => {
    const k = keyOf(m, key);
    const c = cur.get(k);
    return c === undefined ? deepClone(m) : mergeValue('', orig.get(k), m, c, strategic);
  });
  // Items someone else added stay; items we applied before and dropped now are deleted.
  for (const c of current) {
    const k = keyOf(c, key);
    if (!inModified.has(k) && !orig.has(k)) out.push(deepClone(c));
  }
  return out;
}

function mergeObject(
  original: Record<string, unknown>,
  modified: Record<string, unknown>,
  current: Record<string, unknown>,
  strategic: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = deepClone(current);
  for (const [k, v] of Object.entries(modified)) {
    if (v === null) {
      delete out[k];
      continue;
    }
    // Own keys only: `constructor` or `__proto__` in a manifest are data, not Object.prototype's.
    setOwn(
      out,
      k,
      Object.hasOwn(current, k) ? mergeValue(k, original[k], v, current[k], strategic) : deepClone(v),
    );
  }
  for (const k of Object.keys(original)) if (!Object.hasOwn(modified, k)) delete out[k];
  return out;
}

/**
 * The object apply sends: live object + (manifest − what was dropped since the last apply).
 * `strategic` is false for custom resources (JSON merge patch semantics).
 */
export function threeWayMerge(
  original: Record<string, unknown> | undefined,
  modified: Record<string, unknown>,
  current: Record<string, unknown>,
  strategic: boolean,
): Record<string, unknown> {
  return mergeObject(original ?? {}, modified, current, strategic);
}

function sortKeysDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeysDeep);
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) if (v[k] !== undefined) setOwn(out, k, sortKeysDeep(v[k]));
    return out;
  }
  return v;
}

/**
 * `GetModifiedConfiguration`: the manifest with the annotation set to its own JSON (keys sorted, as
 * Go marshals maps, trailing newline). The annotations map is created first and the annotation key
 * deleted before marshalling, which is why the recorded JSON always has `"annotations":{}` or more.
 */
export function withLastApplied(manifest: Record<string, unknown>): Record<string, unknown> {
  const meta = isPlainObject(manifest.metadata) ? { ...manifest.metadata } : {};
  const annotations: Record<string, unknown> = isPlainObject(meta.annotations) ? { ...meta.annotations } : {};
  delete annotations[LAST_APPLIED];
  const recorded = { ...manifest, metadata: { ...meta, annotations } };
  const json = `${goJSON(recorded)}\n`;
  return { ...manifest, metadata: { ...meta, annotations: { ...annotations, [LAST_APPLIED]: json } } };
}

/** The last applied configuration recorded on a live object, if any. */
export function lastAppliedOf(obj: {
  metadata?: { annotations?: Record<string, string> };
}): Record<string, unknown> | undefined {
  const text = obj.metadata?.annotations?.[LAST_APPLIED];
  if (!text) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return isPlainObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * strategicpatch `CreateTwoWayMergePatch` (or a JSON merge patch when `strategic` is false), as
 * `kubectl edit` sends it: changed and added fields, removed ones as null; a list with a patchMergeKey
 * lists its changed or added items (with the key) then `{"$patch":"delete", key}` for removed ones,
 * under `$setElementOrder/<field>` giving the new order; other lists are sent whole.
 */
export function twoWayMergePatch(
  original: Record<string, unknown>,
  modified: Record<string, unknown>,
  strategic: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(modified)) {
    const o = original[k];
    if (!Object.hasOwn(original, k)) setOwn(out, k, deepClone(v));
    else if (isPlainObject(o) && isPlainObject(v)) {
      const sub = twoWayMergePatch(o, v, strategic);
      if (Object.keys(sub).length > 0) setOwn(out, k, sub);
    } else if (strategic && Array.isArray(o) && Array.isArray(v)) {
      const key = mergeKeyFor(k, [...o, ...v]);
      const keyed = key && [...o, ...v].every((x) => keyOf(x, key) !== undefined);
      if (key && keyed) {
        const items = listPatch(key, o, v, strategic);
        if (items.length > 0) {
          setOwn(
            out,
            `$setElementOrder/${k}`,
            v.map((x) => ({ [key]: (x as Record<string, unknown>)[key] })),
          );
          setOwn(out, k, items);
        }
      } else if (!jsonEqual(o, v)) setOwn(out, k, deepClone(v));
    } else if (!jsonEqual(o, v)) setOwn(out, k, deepClone(v));
  }
  for (const k of Object.keys(original)) if (!Object.hasOwn(modified, k)) setOwn(out, k, null);
  return out;
}

function listPatch(
  key: string,
  original: readonly unknown[],
  modified: readonly unknown[],
  strategic: boolean,
): unknown[] {
  const orig = new Map(original.map((o) => [keyOf(o, key), o]));
  const inModified = new Set(modified.map((m) => keyOf(m, key)));
  const changed: unknown[] = [];
  for (const m of modified) {
    const o = orig.get(keyOf(m, key));
    if (o === undefined) changed.push(deepClone(m));
    else if (isPlainObject(o) && isPlainObject(m)) {
      const sub = twoWayMergePatch(o, m, strategic);
      if (Object.keys(sub).length > 0) changed.push({ ...sub, [key]: m[key] });
    }
  }
  const deleted = original
    .filter((o) => !inModified.has(keyOf(o, key)))
    .map((o) => ({ $patch: 'delete', [key]: (o as Record<string, unknown>)[key] }));
  return [...changed, ...deleted];
}

/** Go's `json.Marshal` of a map: compact, keys sorted. */
export function goJSON(v: unknown): string {
  return JSON.stringify(sortKeysDeep(v));
}
