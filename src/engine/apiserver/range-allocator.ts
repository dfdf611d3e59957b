/**
 * The bitmap allocator behind ClusterIPs and NodePorts (k8s.io/kubernetes
 * `pkg/registry/core/service/allocator/bitmap.go`, `randomScanStrategyWithOffset`), with the
 * static/dynamic split of KEP-3070 (IPs) and KEP-3668 (ports): automatic allocation picks a random
 * free slot in the upper band first, scanning forward and wrapping inside the band, and only falls
 * back to the lower ("static") band when the upper one is full. Requested values may sit anywhere.
 *
 * The allocator holds no state of its own: callers pass the set of used offsets, rebuilt from the
 * stored Services, so a restored snapshot allocates exactly as the original cluster would.
 */
import type { Rng } from '../util/rng.ts';

/**
 * `calculateRangeOffset`: `min(max(min, size/step), max)`, or 0 for ranges no larger than `min`.
 * IPs: min 16, max 256, step 16 (ipallocator); ports: min 16, max 128, step 32 (portallocator).
 */
export function rangeOffset(size: number, min: number, max: number, step: number): number {
  if (size <= min) return 0;
  return Math.min(Math.max(min, Math.floor(size / step)), max);
}

/** Picks a free offset in [0, size) or undefined when full; `used` holds taken offsets. */
export function allocateNext(
  size: number,
  offset: number,
  used: { has(offset: number): boolean },
  rng: Rng,
): number | undefined {
  const upper = size - offset;
  if (upper > 0) {
    const start = rng.int(upper);
    for (let i = 0; i < upper; i++) {
      const at = offset + ((start + i) % upper);
      if (!used.has(at)) return at;
    }
  }
  if (offset > 0) {
    const start = rng.int(offset);
    for (let i = 0; i < offset; i++) {
      const at = (start + i) % offset;
      if (!used.has(at)) return at;
    }
  }
  return undefined;
}
