import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { allocateNext, rangeOffset } from './range-allocator.ts';
import { Rng } from '../util/rng.ts';

describe('rangeOffset (calculateRangeOffset)', () => {
  // Golden: kubernetes-facts.md §7 (ipallocator min 16 / max 256 / step 16; portallocator 16/128/32).
  it.each([
    { name: '/12 Service CIDR', size: 2 ** 20, min: 16, max: 256, step: 16, offset: 256 },
    { name: "kind's /16", size: 2 ** 16, min: 16, max: 256, step: 16, offset: 256 },
    { name: '/20', size: 2 ** 12, min: 16, max: 256, step: 16, offset: 256 },
    { name: '/24', size: 256, min: 16, max: 256, step: 16, offset: 16 },
    { name: '/28 (no static band)', size: 16, min: 16, max: 256, step: 16, offset: 0 },
    { name: 'NodePort 30000-32767', size: 2768, min: 16, max: 128, step: 32, offset: 86 },
  ])('$name → $offset', ({ size, min, max, step, offset }) => {
    expect(rangeOffset(size, min, max, step)).toBe(offset);
  });
});

describe('allocateNext (randomScanStrategyWithOffset)', () => {
  it('draws from the upper band while it has room, then from the lower band', () => {
    const rng = new Rng(3);
    const used = new Set<number>();
    for (let i = 0; i < 90; i++) {
      const at = allocateNext(100, 10, used, rng)!;
      expect(at).toBeGreaterThanOrEqual(10);
      used.add(at);
    }
    const low = allocateNext(100, 10, used, rng)!;
    expect(low).toBeLessThan(10);
    used.add(low);
    for (let i = 0; i < 9; i++) used.add(allocateNext(100, 10, used, rng)!);
    expect(allocateNext(100, 10, used, rng)).toBeUndefined();
  });

  it('never returns a used offset and stays in range (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 0, max: 50 }),
        fc.integer(),
        fc.array(fc.nat(299)),
        (size, off, seed, taken) => {
          const offset = Math.min(off, size);
          const used = new Set(taken.filter((t) => t < size));
          const at = allocateNext(size, offset, used, new Rng(seed));
          if (used.size === size) return at === undefined;
          return at !== undefined && at >= 0 && at < size && !used.has(at);
        },
      ),
    );
  });
});
