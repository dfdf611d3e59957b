/**
 * MetalLB's address bookkeeping and layer-2 leader choice, as pure functions. Pools list CIDRs
 * (`172.18.255.200/28`) or ranges (`172.18.255.200-172.18.255.250`); `avoidBuggyIPs` skips addresses
 * ending in .0 and .255. Which node answers ARP for a VIP: MetalLB's speakers each hash node name and
 * address and the first in order wins (`speaker/layer2_controller.go` `ShouldAnnounce`: nodes sorted by
 * `sha256.Sum256(node + "#" + ip)`, compared bytewise).
 */
import type { IPAddressPool, L2Advertisement } from '../../api/objects.ts';
import { matchesLabelSelector } from '../../api/labels.ts';
import { cidrSize, formatIPv4, parseCidr, parseIPv4 } from '../../util/ip.ts';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

export const METALLB_CONTROLLER_IMAGE = 'quay.io/metallb/controller';
export const METALLB_SPEAKER_IMAGE = 'quay.io/metallb/speaker';

/** The IPv4 addresses of a pool in order (at most 65,536 per entry, enough for any lab). */
export function poolAddresses(pool: IPAddressPool): string[] {
  const out: string[] = [];
  for (const entry of pool.spec?.addresses ?? []) {
    let first: number | undefined;
    let last: number | undefined;
    if (entry.includes('-')) {
      const [a, b] = entry.split('-').map((s) => parseIPv4(s.trim()));
      first = a;
      last = b;
    } else {
      const c = parseCidr(entry.trim());
      if (c) {
        first = c.base;
        last = c.base + cidrSize(c) - 1;
      }
    }
    if (first === undefined || last === undefined || last < first) continue;
    for (let n = first; n <= Math.min(last, first + 65_535); n++) {
      const ip = formatIPv4(n >>> 0);
      if (pool.spec?.avoidBuggyIPs && (ip.endsWith('.0') || ip.endsWith('.255'))) continue;
      out.push(ip);
    }
  }
  return out;
}

export function poolContains(pool: IPAddressPool, ip: string): boolean {
  return poolAddresses(pool).includes(ip);
}

/** The L2Advertisements that announce a pool (no pools and no selectors = every pool). */
export function advertisementsFor(pool: IPAddressPool, ads: readonly L2Advertisement[]): L2Advertisement[] {
  return ads.filter((ad) => {
    const names = ad.spec?.ipAddressPools ?? [];
    const selectors = ad.spec?.ipAddressPoolSelectors ?? [];
    if (names.length === 0 && selectors.length === 0) return true;
    return (
      names.includes(pool.metadata.name) ||
      selectors.some((s) => matchesLabelSelector(s, pool.metadata.labels ?? {}))
    );
  });
}

/** The node that answers ARP for `ip` among `candidates` (speaker nodes allowed to announce it). */
export function electAnnouncer(ip: string, candidates: readonly string[]): string | undefined {
  const key = (n: string) => bytesToHex(sha256(utf8ToBytes(`${n}#${ip}`)));
  return [...candidates].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a < b ? -1 : 1))[0];
}
