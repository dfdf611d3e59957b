/** JSON-shaped values: what manifests, API objects and snapshots are made of. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A deep copy of a JSON-shaped value, exactly what `JSON.parse(JSON.stringify(value))` returns but
 * several times faster (the store copies every object written): undefined, functions and symbols are
 * dropped from objects and become null in arrays, non-finite numbers become null, -0 becomes 0, and a
 * `__proto__` key in a learner's manifest stays an inert own property. Anything that is not a plain
 * object or array (a Date, a Map, an object with toJSON) goes through JSON itself.
 */
export function deepClone<T>(value: T): T {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol')
    throw new SyntaxError(`"undefined" is not valid JSON`);
  return cloneJson(value) as T;
}

/**
 * deepClone of `value` that reuses every subtree of `previous` found at the same path by reference
 * (`value.spec === previous.spec`). `previous` must itself be a deepClone result (a stored object),
 * so a reused subtree is exactly what cloning it would give; the copy then shares it, which is safe
 * because stored objects are never mutated. Status writes thus copy the status, not the whole pod.
 */
export function deepCloneReusing<T>(value: T, previous: unknown): T {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol')
    throw new SyntaxError(`"undefined" is not valid JSON`);
  return cloneJson(value, previous) as T;
}

function cloneJson(v: unknown, prev?: unknown): unknown {
  if (v === prev && typeof v === 'object' && v !== null) return v;
  if (typeof v !== 'object' || v === null) {
    if (typeof v === 'number') return Number.isFinite(v) ? (v === 0 ? 0 : v) : null;
    if (typeof v === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
    return v;
  }
  if (Array.isArray(v)) {
    const out: unknown[] = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) {
      const el: unknown = v[i];
      out[i] =
        el === undefined || typeof el === 'function' || typeof el === 'symbol'
          ? null
          : cloneJson(el, Array.isArray(prev) ? (prev as unknown[])[i] : undefined);
    }
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(v);
  if (
    (proto !== Object.prototype && proto !== null) ||
    typeof (v as { toJSON?: unknown }).toJSON === 'function'
  )
    return JSON.parse(JSON.stringify(v)) as unknown;
  const src = v as Record<string, unknown>;
  const before = isPlainObject(prev) ? prev : undefined;
  const out: Record<string, unknown> = {};
  // for-in (own keys only, in Object.keys order) rather than Object.keys: no key array per object.
  for (const k in src) {
    if (!Object.prototype.hasOwnProperty.call(src, k)) continue;
    const el = src[k];
    if (el === undefined || typeof el === 'function' || typeof el === 'symbol') continue;
    if (k === '__proto__')
      Object.defineProperty(out, k, {
        value: cloneJson(el),
        writable: true,
        enumerable: true,
        configurable: true,
      });
    else
      out[k] = cloneJson(
        el,
        before && Object.prototype.hasOwnProperty.call(before, k) ? before[k] : undefined,
      );
  }
  return out;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Structural equality for JSON-shaped values (key order does not matter; a key holding undefined
 * counts as absent). Written without temporary arrays or closures: the store compares every write
 * with the stored version, and the kubelet every status it computes.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  let defined = 0;
  for (const k in ra) {
    if (!Object.prototype.hasOwnProperty.call(ra, k) || ra[k] === undefined) continue;
    if (!Object.prototype.hasOwnProperty.call(rb, k) || !jsonEqual(ra[k], rb[k])) return false;
    defined++;
  }
  for (const k in rb) if (Object.prototype.hasOwnProperty.call(rb, k) && rb[k] !== undefined) defined--;
  return defined === 0;
}
