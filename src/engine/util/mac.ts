/** Deterministic MAC addresses for simulated devices. */
import { fnv32a } from './rng.ts';

/**
 * A locally administered unicast MAC derived from a seed (`<device>/<node>`, `eth0/<pod uid>`): the
 * same device always shows the same address, in `ip link`, on the wire and in node annotations.
 */
export function macOf(seed: string): string {
  const h = fnv32a(seed);
  const g = fnv32a(`${seed}#2`);
  const bytes = [
    (h & 0xfe) | 0x02,
    (h >>> 8) & 255,
    (h >>> 16) & 255,
    (h >>> 24) & 255,
    g & 255,
    (g >>> 8) & 255,
  ];
  return bytes.map((b) => b.toString(16).padStart(2, '0')).join(':');
}
