/**
 * The statistic-match probability, in kube-proxy's words and in iptables'. kube-proxy writes
 * `fmt.Sprintf("%0.10f", 1.0/float64(n))`; libxt_statistic stores `lround(0x80000000 * p)` as a
 * 31-bit fixed-point value and `iptables-save` prints it back with `%.11f` — hence 0.33333333349
 * for 1/3 (kubernetes-facts §1.3). The kernel matches when `(prandom_u32() & 0x7fffffff) < stored`.
 */

/** kube-proxy's `computeProbability(n)`: 1/n as `%0.10f`. */
export function computeProbability(n: number): string {
  return (1 / n).toFixed(10);
}

/** libxt_statistic's parse step: the u32 the kernel keeps for a `--probability` text. */
export function probabilityToFixedPoint(text: string): number {
  const p = Number(text);
  // C's lround rounds halves away from zero; every value here is positive.
  return Math.floor(0x80000000 * p + 0.5);
}

/** How `iptables-save` prints a probability that was written as `text`. */
export function iptablesSaveProbability(text: string): string {
  return (probabilityToFixedPoint(text) / 0x80000000).toFixed(11);
}
