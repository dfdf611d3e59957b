import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fnv32a, NAME_ALPHABET, Rng, safeEncodeString } from './rng.ts';

describe('Rng', () => {
  it('is deterministic per seed and differs across seeds', () => {
    const a = new Rng(7);
    const b = new Rng(7);
    const c = new Rng(8);
    const seqA = Array.from({ length: 5 }, () => a.nextUint32());
    expect(Array.from({ length: 5 }, () => b.nextUint32())).toEqual(seqA);
    expect(Array.from({ length: 5 }, () => c.nextUint32())).not.toEqual(seqA);
  });

  it('resumes from its state', () => {
    const a = new Rng('lab-01');
    a.int(10);
    const resumed = Rng.fromState(a.state());
    expect(resumed.nameSuffix(10)).toBe(a.nameSuffix(10));
  });

  it('int(n) stays in range and name suffixes use the Kubernetes alphabet', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 1000 }), (seed, n) => {
        const r = new Rng(seed);
        const v = r.int(n);
        return v >= 0 && v < n && [...r.nameSuffix()].every((ch) => NAME_ALPHABET.includes(ch));
      }),
    );
  });

  it('uuids are RFC 4122 version 4', () => {
    expect(new Rng(1).uuid()).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});

describe('hashes', () => {
  // FNV-1a reference values from the algorithm's specification test vectors (draft-eastlake-fnv).
  it.each([
    ['', 0x811c9dc5],
    ['a', 0xe40c292c],
    ['foobar', 0xbf9cf968],
  ])('fnv32a(%j)', (input, want) => {
    expect(fnv32a(input)).toBe(want);
  });

  it('fnv32a continues the hash of a prefix', () => {
    expect(fnv32a('bar', fnv32a('foo'))).toBe(0xbf9cf968);
  });

  it('safeEncodeString maps each byte onto the alphabet (apimachinery rand.SafeEncodeString)', () => {
    // alphanums = "bcdfghjklmnpqrstvwxz2456789": '0' is 48, 48 % 27 = 21 → '4'; '9' is 57, 57 % 27 = 3 → 'f'.
    expect(safeEncodeString('09')).toBe('4f');
  });
});
