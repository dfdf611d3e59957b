/**
 * The three patch types `kubectl patch` sends and kube-apiserver applies (apiserver
 * `handlers/patch.go`):
 * - strategic merge patch (apimachinery `strategicpatch.StrategicMergePatch`): maps merge, `null`
 *   deletes a key, lists with a patchMergeKey merge item by item (containers by `name`, container
 *   ports by `containerPort`, Service ports by `port`, env by `name`…), `$patch: delete|replace`
 *   directives, `$deleteFromPrimitiveList/<field>`; other lists are replaced.
 * - JSON merge patch (RFC 7386, `evanphx/json-patch` `MergePatch`): maps merge, `null` deletes,
 *   everything else (lists included) is replaced.
 * - JSON patch (RFC 6902): add, remove, replace, move, copy, test on JSON pointers.
 */
import { deepClone, isPlainObject, jsonEqual } from '../util/json.ts';
import { setOwn } from '../apiserver/json-values.ts';
import { mergeKeyFor } from './apply-merge.ts';

export type PatchType = 'strategic' | 'merge' | 'json';

/** Why a patch could not be applied (the API server's wording of evanphx/json-patch and strategicpatch). */
export class PatchError extends Error {
  /** `test` failed: the server answers 409 Conflict. */
  readonly conflict: boolean;
  constructor(message: string, conflict = false) {
    super(message);
    this.conflict = conflict;
  }
}

/** Lists whose items are primitives merged as a set (`patchStrategy: merge` on a []string). */
const PRIMITIVE_MERGE_LISTS = new Set(['finalizers']);

export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return deepClone(patch);
  const out: Record<string, unknown> = isPlainObject(target) ? deepClone(target) : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else setOwn(out, k, mergePatch(out[k], v));
  }
  return out;
}

function stripDirectives(v: unknown): unknown {
  if (Array.isArray(v))
    return v.filter((x) => !(isPlainObject(x) && x.$patch === 'delete')).map(stripDirectives);
  if (!isPlainObject(v)) return deepClone(v);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (!k.startsWith('$')) setOwn(out, k, stripDirectives(x));
  return out;
}

function strategicMap(
  current: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  if (patch.$patch === 'replace') return stripDirectives(patch) as Record<string, unknown>;
  const out = deepClone(current);
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const field = k.slice('$deleteFromPrimitiveList/'.length);
      const drop = Array.isArray(v) ? v : [];
      const list = out[field];
      if (Array.isArray(list))
        setOwn(
          out,
          field,
          list.filter((x) => !drop.some((d) => jsonEqual(d, x))),
        );
      continue;
    }
    if (k.startsWith('$')) continue;
    if (v === null) {
      delete out[k];
      continue;
    }
    const cur = out[k];
    if (isPlainObject(v) && v.$patch === 'delete') delete out[k];
    else if (isPlainObject(v) && isPlainObject(cur)) setOwn(out, k, strategicMap(cur, v));
    else if (Array.isArray(v) && Array.isArray(cur)) setOwn(out, k, strategicList(k, cur, v));
    else setOwn(out, k, stripDirectives(v));
  }
  return out;
}

function strategicList(field: string, current: unknown[], patch: unknown[]): unknown[] {
  if (patch.some((p) => isPlainObject(p) && p.$patch === 'replace'))
    return stripDirectives(patch.filter((p) => !(isPlainObject(p) && p.$patch === 'replace'))) as unknown[];
  if (PRIMITIVE_MERGE_LISTS.has(field)) {
    const out = deepClone(current);
    for (const p of patch) if (!out.some((c) => jsonEqual(c, p))) out.push(deepClone(p));
    return out;
  }
  const key = mergeKeyFor(field, [...current, ...patch]);
  if (!key) return stripDirectives(patch) as unknown[];
  const out = deepClone(current);
  for (const p of patch) {
    if (!isPlainObject(p) || p[key] === undefined) {
      throw new PatchError(`map: ${JSON.stringify(p)} does not contain declared merge key: ${key}`);
    }
    const at = out.findIndex((c) => isPlainObject(c) && jsonEqual(c[key], p[key]));
    if (p.$patch === 'delete') {
      if (at >= 0) out.splice(at, 1);
    } else if (at >= 0) out[at] = strategicMap(out[at] as Record<string, unknown>, p);
    else out.push(stripDirectives(p));
  }
  return out;
}

export function strategicMergePatch(
  current: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  return strategicMap(current, patch);
}

/** RFC 6901 pointer tokens. */
function pointer(path: string, op: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/'))
    throw new PatchError(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
  return path
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

interface Slot {
  readonly parent: Record<string, unknown> | unknown[];
  readonly key: string;
}

function locate(doc: unknown, tokens: readonly string[], op: string, path: string): Slot {
  let cur = doc;
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[Number(t)];
    else if (isPlainObject(cur) && Object.hasOwn(cur, t)) cur = cur[t];
    else cur = undefined;
    if (cur === undefined || cur === null)
      throw new PatchError(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
  }
  if (!Array.isArray(cur) && !isPlainObject(cur))
    throw new PatchError(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
  return { parent: cur, key: tokens[tokens.length - 1]! };
}

/** evanphx/json-patch's errors, as kubectl prints them (captured from `kubectl patch --local`). */
const inPath = (op: string, path: string, why: string) =>
  new PatchError(`error in ${op} for path: '${path}': ${why}`);

function arrayIndex(list: unknown[], key: string, forAdd: boolean, op: string, path: string): number {
  if (forAdd && key === '-') return list.length;
  const i = /^(0|[1-9]\d*)$/.test(key) ? Number(key) : NaN;
  if (!Number.isInteger(i) || i > list.length || (!forAdd && i === list.length))
    throw inPath(op, path, `Unable to access invalid index: ${key}: invalid index referenced`);
  return i;
}

function getAt(doc: unknown, path: string, op: string): unknown {
  const tokens = pointer(path, op);
  if (tokens.length === 0) return doc;
  const { parent, key } = locate(doc, tokens, op, path);
  if (Array.isArray(parent)) return parent[arrayIndex(parent, key, false, op, path)];
  if (!Object.hasOwn(parent, key))
    throw inPath(op, key, `Unable to remove nonexistent key: ${key}: missing value`);
  return parent[key];
}

function addAt(doc: unknown, path: string, value: unknown, op: string): unknown {
  const tokens = pointer(path, op);
  if (tokens.length === 0) return deepClone(value);
  const { parent, key } = locate(doc, tokens, op, path);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, true, op, path), 0, deepClone(value));
  else setOwn(parent, key, deepClone(value));
  return doc;
}

function removeAt(doc: unknown, path: string, op: string): unknown {
  const tokens = pointer(path, op);
  const { parent, key } = locate(doc, tokens, op, path);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, false, op, path), 1);
  else {
    if (!Object.hasOwn(parent, key))
      throw inPath(op, path, `Unable to remove nonexistent key: ${key}: missing value`);
    delete parent[key];
  }
  return doc;
}

/** RFC 6902 on a copy of `doc`; throws PatchError with evanphx/json-patch's texts. */
export function jsonPatch(doc: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops))
    throw new PatchError('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  let out = deepClone(doc);
  for (const raw of ops) {
    if (!isPlainObject(raw))
      throw new PatchError('json: cannot unmarshal into Go value of type jsonpatch.Operation');
    const op = typeof raw.op === 'string' ? raw.op : 'unknown';
    if (!['add', 'remove', 'replace', 'move', 'copy', 'test'].includes(op))
      throw new PatchError(`Unexpected kind: ${op}`);
    const path = typeof raw.path === 'string' ? raw.path : undefined;
    if (path === undefined) throw new PatchError(`${op} operation failed to decode path: missing value`);
    switch (op) {
      case 'add':
        out = addAt(out, path, raw.value, 'add');
        break;
      case 'remove':
        out = removeAt(out, path, 'remove');
        break;
      case 'replace': {
        // An object member that is not there yet is simply set (the json-patch kubectl uses).
        const tokens = pointer(path, 'replace');
        const slot = tokens.length > 0 ? locate(out, tokens, 'replace', path) : undefined;
        if (slot && Array.isArray(slot.parent)) {
          slot.parent[arrayIndex(slot.parent, slot.key, false, 'replace', path)] = deepClone(raw.value);
        } else out = addAt(out, path, raw.value, 'replace');
        break;
      }
      case 'move':
      case 'copy': {
        const from = typeof raw.from === 'string' ? raw.from : '';
        const v = getAt(out, from, op);
        if (op === 'move') out = removeAt(out, from, op);
        out = addAt(out, path, v, op);
        break;
      }
      case 'test': {
        let v: unknown;
        try {
          v = getAt(out, path, 'test');
        } catch {
          v = undefined;
        }
        if (!jsonEqual(v, raw.value)) throw new PatchError(`testing value ${path} failed: test failed`, true);
        break;
      }
    }
  }
  return out;
}
