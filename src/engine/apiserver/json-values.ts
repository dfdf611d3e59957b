/** JSON values built safely: own properties only, zero values as Go leaves them, copies without recursion. */
import { resolveNode, type SchemaNode } from '../api/schema/field-schema.ts';
import { isPlainObject } from '../util/json.ts';

/** Defines an own, enumerable property even for `__proto__` (plain assignment would set the prototype). */
export function setOwn(
  target: Record<string, unknown> | unknown[],
  key: string | number,
  value: unknown,
): void {
  // Only `__proto__` is an accessor on Object.prototype; every other key assigns as an own data property
  // (defineProperty for all of them made it the decoder's costliest step).
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else (target as Record<string | number, unknown>)[key] = value;
}

/** What Go leaves in a map entry or list element that was `null`: the element type's zero value. */
export function zeroValue(node: SchemaNode): unknown {
  const n = resolveNode(node);
  switch (n.type) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
    case 'int-or-string':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'any':
      return null;
    default:
      return {};
  }
}

/** Copies free-form JSON (FieldsV1, RawExtension) without recursion; depth is bounded by the caller's prescan. */
export function boundedClone(value: unknown): unknown {
  const root: { v?: unknown } = {};
  const work: { src: unknown; put: (x: unknown) => void }[] = [{ src: value, put: (x) => (root.v = x) }];
  while (work.length > 0) {
    const { src, put } = work.pop()!;
    if (Array.isArray(src)) {
      const arr: unknown[] = [];
      put(arr);
      src.forEach((item, i) => work.push({ src: item, put: (x) => setOwn(arr, i, x) }));
    } else if (isPlainObject(src)) {
      const obj: Record<string, unknown> = {};
      put(obj);
      for (const key of Object.keys(src)) work.push({ src: src[key], put: (x) => setOwn(obj, key, x) });
    } else put(src === undefined ? null : src);
  }
  return root.v;
}

/**
 * A copy with every object's keys in sorted order: what decoding gives back for a value decoded
 * before (it walks struct fields and map keys sorted; defaults added since are appended). Only for
 * schema-typed values: their depth is the schema's, so recursion is safe, and they hold no free-form
 * JSON (which decoding copies in its own order, see boundedClone).
 */
export function sortedClone(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedClone);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of sortedKeys(value)) setOwn(out, key, sortedClone(value[key]));
  return out;
}

/**
 * The object's keys in sorted order, the order decoding walks them. Manifests often list keys already
 * sorted (`apiVersion`, `kind`, `metadata`, `spec`), and a sort that finds nothing to do still
 * allocated its work array per struct.
 */
export function sortedKeys(obj: Record<string, unknown>): string[] {
  const keys = Object.keys(obj);
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return keys.sort();
  return keys;
}
