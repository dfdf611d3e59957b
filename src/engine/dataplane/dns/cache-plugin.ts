/**
 * CoreDNS's `cache` plugin (coredns `plugin/cache/{cache,handler,item}.go`).
 *
 * - Positive answers are kept for min(max(lowest TTL, 5s), success cap); NXDOMAIN and NODATA for
 *   min(max(SOA minimum, 5s), denial cap). `cache 30` sets both caps to 30.
 * - The reply that fills the cache already carries the capped TTL ("Apply capped TTL to this reply to avoid
 *   jarring TTL experience"), even in zones where storing is disabled.
 * - `disable success|denial ZONES` skips storing for those zones (kubeadm disables both for cluster.local,
 *   kubernetes/kubernetes PR #128359), so Service changes are visible at once.
 * - A hit is served with every TTL set to what remains, and with the AA bit set (`item.toMsg`: "some DNS
 *   clients discard the *entire* packet when it's non-authoritative").
 */
import type { CacheConfig } from './corefile.ts';
import type { Rcode, RR } from './message.ts';
import { isSubdomain, withTtl } from './message.ts';

export interface CachedItem {
  readonly rcode: Rcode;
  readonly answer: readonly RR[];
  readonly authority: readonly RR[];
  readonly additional: readonly RR[];
  readonly ra: boolean;
  /** Simulated ms when stored. */
  readonly stored: number;
  /** Seconds the item lives. */
  readonly ttl: number;
}

/** The cache's contents. Owned by the caller (one per CoreDNS replica); reset when the Corefile changes. */
export class DnsCache {
  readonly items = new Map<string, CachedItem>();
  /** The Corefile object the items were stored under; a reload starts empty. */
  owner: object | undefined;

  reset(owner: object): void {
    if (this.owner !== owner) {
      this.items.clear();
      this.owner = owner;
    }
  }
}

export function cacheKey(server: number, qname: string, qtype: string, dnssecOk: boolean): string {
  return `${server}|${qname}|${qtype}|${dnssecOk ? 1 : 0}`;
}

/** Remaining TTL of an item at `now`, or 0 once expired. */
export function remainingTtl(item: CachedItem, now: number): number {
  const left = item.ttl - Math.floor((now - item.stored) / 1000);
  return left > 0 ? left : 0;
}

export function cacheApplies(cfg: CacheConfig, qname: string): boolean {
  return cfg.zones.some((z) => isSubdomain(qname, z));
}

/** A fresh hit's records with their TTLs aged. */
export function fromCache(
  item: CachedItem,
  now: number,
): { answer: RR[]; authority: RR[]; additional: RR[] } | undefined {
  const ttl = remainingTtl(item, now);
  if (ttl === 0) return undefined;
  const age = (rrs: readonly RR[]) => rrs.map((r) => withTtl(r, ttl));
  return { answer: age(item.answer), authority: age(item.authority), additional: age(item.additional) };
}

/** dnsutil.MinimalTTL: the lowest TTL of the answer (or of the SOA for negative answers). */
function minimalTtl(rcode: Rcode, answer: readonly RR[], authority: readonly RR[]): number {
  const negative = rcode === 'NXDOMAIN' || (rcode === 'NOERROR' && answer.length === 0);
  if (negative) {
    const soa = authority.find((r) => r.type === 'SOA');
    if (!soa || soa.type !== 'SOA') return 5;
    return Math.min(soa.minimum, soa.ttl);
  }
  if (answer.length === 0) return 5;
  return Math.min(...answer.map((r) => r.ttl), ...authority.map((r) => r.ttl));
}

/**
 * What the cache does with a reply on its way out: the TTL every record gets, and whether it is stored.
 * SERVFAIL is kept 5 s (`failttl`); other errors are not kept.
 */
export function cacheDecision(
  cfg: CacheConfig,
  qname: string,
  rcode: Rcode,
  answer: readonly RR[],
  authority: readonly RR[],
): { ttl: number; store: boolean } | undefined {
  if (rcode === 'SERVFAIL') return { ttl: 5, store: true };
  if (rcode !== 'NOERROR' && rcode !== 'NXDOMAIN') return undefined;
  const negative = rcode === 'NXDOMAIN' || answer.length === 0;
  const msgTtl = minimalTtl(rcode, answer, authority);
  const ttl = negative
    ? Math.min(Math.max(msgTtl, cfg.minDenialTtl), cfg.denialTtl)
    : Math.min(Math.max(msgTtl, cfg.minSuccessTtl), cfg.successTtl);
  const except = negative ? cfg.disableDenial : cfg.disableSuccess;
  const store = !except.some((z) => isSubdomain(qname, z));
  return { ttl: cfg.keepTtl ? msgTtl : ttl, store };
}
