/**
 * deepClone must return exactly what a JSON round trip returns (the store used to copy that way, and
 * snapshots, printers and comparisons depend on the shape): same keys in the same order, the same
 * values, undefined and functions dropped, -0 and non-finite numbers normalised, `__proto__` inert.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { deepClone, deepCloneReusing } from './json.ts';

/** Same structure, prototypes, key order and values (Object.is on numbers, so -0 ≠ 0). */
function expectSame(a: unknown, b: unknown): void {
  if (typeof a !== 'object' || a === null) {
    expect(Object.is(a, b)).toBe(true);
    return;
  }
  expect(typeof b).toBe('object');
  expect(Array.isArray(a)).toBe(Array.isArray(b));
  expect(Object.getPrototypeOf(a)).toBe(Object.getPrototypeOf(b));
  const ka = Object.keys(a);
  expect(Object.keys(b as object)).toEqual(ka);
  for (const k of ka) expectSame((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]);
}

const oddValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(-0),
  fc.constant(Number.NaN),
  fc.constant(Number.POSITIVE_INFINITY),
  fc.constant(() => 1),
  fc.constant(new Date(0)),
  fc.constant(new Map([[1, 2]])),
  fc.double(),
);

const value = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 2 }),
    oddValue,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', '1', '0', 'toJSON')), tie('v'), {
      maxKeys: 5,
    }),
  ),
})).v;

describe('deepClone', () => {
  it('equals a JSON round trip', () => {
    fc.assert(
      fc.property(value, (v) => {
        let expected: unknown;
        try {
          expected = JSON.parse(JSON.stringify(v));
        } catch (e) {
          expect(() => deepClone(v)).toThrow((e as Error).constructor as new () => Error);
          return;
        }
        expectSame(deepClone(v), expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('deepCloneReusing equals a JSON round trip when the value shares parts of the previous version', () => {
    const plain = fc.dictionary(fc.constantFrom('a', 'b', 'c', '__proto__'), value, { maxKeys: 4 });
    fc.assert(
      fc.property(plain, plain, fc.boolean(), (first, changes, nested) => {
        let previous: Record<string, unknown>;
        try {
          previous = deepClone(first);
        } catch {
          return;
        }
        // The caller's object: the stored one with some parts replaced, at the top or one level down.
        const next: Record<string, unknown> = { ...previous, ...changes };
        if (nested && typeof previous.a === 'object' && previous.a !== null && !Array.isArray(previous.a))
          next.a = { ...previous.a, ...changes };
        let expected: unknown;
        try {
          expected = JSON.parse(JSON.stringify(next));
        } catch {
          return;
        }
        expectSame(deepCloneReusing(next, previous), expected);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps a __proto__ key as an own property', () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const copy = deepClone(input);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('copies, never shares', () => {
    const input = { a: { b: [1, { c: 2 }] } };
    const copy = deepClone(input);
    expect(copy.a).not.toBe(input.a);
    expect(copy.a.b[1]).not.toBe(input.a.b[1]);
  });
});
