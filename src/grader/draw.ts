/**
 * The draw of a lab's variant from a learner's seed. Kept apart from the lab format (no zod, no YAML)
 * because the lab UI uses it too: the "new fault" button looks for a seed that draws another variant.
 */
import { sha256Hex } from './content-hash.ts';

/** Draw seeds are whole numbers in [0, 2^32): what a browser's crypto.getRandomValues gives as one Uint32. */
export const MAX_DRAW_SEED = 0xffffffff;

export function isDrawSeed(seed: unknown): seed is number {
  return typeof seed === 'number' && Number.isInteger(seed) && seed >= 0 && seed <= MAX_DRAW_SEED;
}

/**
 * The variant a seed draws among `ids` for lab `labId`: sha256 of "<lab id>\n<seed>", read as a 32-bit
 * number, modulo the number of variants. Hashing the lab id in means one learner's seed draws
 * independently per lab.
 */
export function drawFrom(labId: string, ids: readonly string[], seed: number): string | undefined {
  if (ids.length === 0) return undefined;
  const n = Number.parseInt(sha256Hex(`${labId}\n${seed}`).slice(0, 8), 16);
  return ids[n % ids.length];
}

/**
 * A seed that draws a different variant than `seed` does, for the "new fault" button. `random` gives
 * candidate seeds in [0, 2^32) (the host's randomness; the grader reads none); after 64 misses, with
 * five variants about (1/5)^64 likely, the last candidate is kept.
 */
export function redrawSeed(
  labId: string,
  ids: readonly string[],
  seed: number,
  random: () => number,
): number {
  const current = drawFrom(labId, ids, seed);
  let candidate = seed;
  for (let i = 0; i < 64; i++) {
    candidate = Math.floor(random()) >>> 0;
    if (drawFrom(labId, ids, candidate) !== current) return candidate;
  }
  return candidate;
}
