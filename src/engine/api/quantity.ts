/** Resource quantities (`500m`, `128Mi`), as the scheduler and the DNS plugins read them. */

/** CPU quantity in millicores (`500m`, `0.5`, `2`). */
export function parseCpu(q: string): number {
  const m = /^(\d+(?:\.\d+)?)(m?)$/.exec(q.trim());
  if (!m) return 0;
  return m[2] === 'm' ? Number(m[1]) : Number(m[1]) * 1000;
}

const UNITS: Record<string, number> = {
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
  Ti: 1024 ** 4,
};

/** Memory quantity in bytes (`128Mi`, `1G`, `16299848Ki`). */
export function parseBytes(q: string): number {
  const m = /^(\d+(?:\.\d+)?)([kMGT]i?|Ki)?$/.exec(q.trim());
  if (!m) return 0;
  return Number(m[1]) * (UNITS[m[2] ?? ''] ?? 1);
}
