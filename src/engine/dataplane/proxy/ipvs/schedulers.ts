/**
 * IPVS schedulers and connection state, after the kernel's `net/netfilter/ipvs/ip_vs_*.c`: rr keeps a
 * cursor per virtual server (`ip_vs_rr_schedule`), lc picks the least `activeconns << 8 | inactconns`
 * (`ip_vs_dest_conn_overhead`), sh/dh hash the source/destination address into a 256-bucket table
 * filled round-robin (`hash_32(addr, 8)`), nq prefers an idle server, sed the fewest active ones.
 * Persistence (ClientIP affinity) keeps a per-client template for `persistent` seconds. Real servers are
 * taken in the order ipvsadm prints them (the kernel keeps kube-proxy's insertion order, which is a Go
 * map's — unpredictable — so we use the sorted one).
 */
import { parseIPv4 } from '../../../util/ip.ts';
import { counterKey, type ConnectionCounts } from './ipvsadm.ts';
import { realServerKey, virtualServerKey, type RealServer, type VirtualServer } from './ipvs-model.ts';
import { compareIPs } from './sync-proxy-rules.ts';

/** Schedulers KubeProxyConfiguration accepts (`ipvs.scheduler`). */
export const IPVS_SCHEDULERS = [
  'rr',
  'wrr',
  'lc',
  'wlc',
  'lblc',
  'lblcr',
  'sh',
  'dh',
  'sed',
  'nq',
  'mh',
] as const;

export function isKnownScheduler(s: string): boolean {
  return s === '' || (IPVS_SCHEDULERS as readonly string[]).includes(s);
}

export interface IpvsStateSnapshot {
  readonly cursors: readonly (readonly [string, number])[];
  readonly templates: readonly (readonly [string, { readonly rs: string; readonly expiresAt: number }])[];
  readonly counters: readonly (readonly [string, ConnectionCounts])[];
}

/** The mutable IPVS state of one node: rr cursors, persistence templates and connection counters. */
export class IpvsState {
  private readonly cursors = new Map<string, number>();
  private readonly templates = new Map<string, { rs: string; expiresAt: number }>();
  readonly counters = new Map<string, ConnectionCounts>();

  snapshot(): IpvsStateSnapshot {
    return { cursors: [...this.cursors], templates: [...this.templates], counters: [...this.counters] };
  }

  restore(snap: IpvsStateSnapshot): void {
    this.cursors.clear();
    this.templates.clear();
    this.counters.clear();
    for (const [k, v] of snap.cursors) this.cursors.set(k, v);
    for (const [k, v] of snap.templates) this.templates.set(k, { ...v });
    for (const [k, v] of snap.counters) this.counters.set(k, { ...v });
  }

  /** Chooses the real server for a new connection, or undefined when the service has none. */
  schedule(vs: VirtualServer, clientIP: string, nowMs: number): RealServer | undefined {
    const dests = [...vs.realServers].sort((a, b) => compareIPs(a.address, b.address) || a.port - b.port);
    if (dests.length === 0) return undefined;
    const vsKey = virtualServerKey(vs);
    if (vs.persistent !== undefined) {
      const t = this.templates.get(`${vsKey}|${clientIP}`);
      const kept = t && t.expiresAt > nowMs ? dests.find((d) => realServerKey(d) === t.rs) : undefined;
      if (kept) {
        this.templates.set(`${vsKey}|${clientIP}`, {
          rs: t?.rs ?? '',
          expiresAt: nowMs + vs.persistent * 1000,
        });
        return kept;
      }
    }
    const chosen = this.pick(vs, dests, clientIP);
    if (vs.persistent !== undefined && chosen) {
      this.templates.set(`${vsKey}|${clientIP}`, {
        rs: realServerKey(chosen),
        expiresAt: nowMs + vs.persistent * 1000,
      });
    }
    return chosen;
  }

  private pick(vs: VirtualServer, dests: RealServer[], clientIP: string): RealServer | undefined {
    const key = virtualServerKey(vs);
    const load = (d: RealServer) => this.counters.get(counterKey(vs, d)) ?? { active: 0, inactive: 0 };
    switch (vs.scheduler) {
      case 'lc':
      case 'wlc':
      case 'lblc':
      case 'lblcr':
        return minBy(dests, (d) => load(d).active * 256 + load(d).inactive);
      case 'sed':
        return minBy(dests, (d) => load(d).active + 1);
      case 'nq':
        return dests.find((d) => load(d).active === 0) ?? minBy(dests, (d) => load(d).active + 1);
      case 'sh':
      case 'mh':
        return dests[bucket(clientIP) % dests.length];
      case 'dh':
        return dests[bucket(vs.address) % dests.length];
      default: {
        // rr and wrr (all weights are 1): the server after the last one used.
        const last = this.cursors.get(key);
        const next = last === undefined ? 0 : (last + 1) % dests.length;
        this.cursors.set(key, next);
        return dests[next];
      }
    }
  }

  /** A TCP connection was established to `rs`. */
  connect(vs: VirtualServer, rs: RealServer): void {
    const c = this.counters.get(counterKey(vs, rs)) ?? { active: 0, inactive: 0 };
    this.counters.set(counterKey(vs, rs), { active: c.active + 1, inactive: c.inactive });
  }

  /** A connection closed: it stays counted as inactive while in TIME_WAIT. */
  close(vs: VirtualServer, rs: RealServer): void {
    const c = this.counters.get(counterKey(vs, rs)) ?? { active: 0, inactive: 0 };
    this.counters.set(counterKey(vs, rs), { active: Math.max(0, c.active - 1), inactive: c.inactive + 1 });
  }

  /** A UDP flow or a closed connection's TIME_WAIT expired. */
  expireInactive(vs: VirtualServer, rs: RealServer): void {
    const c = this.counters.get(counterKey(vs, rs));
    if (c) this.counters.set(counterKey(vs, rs), { active: c.active, inactive: Math.max(0, c.inactive - 1) });
  }
}

function minBy<T>(xs: T[], f: (x: T) => number): T | undefined {
  let best: T | undefined;
  let bestV = Infinity;
  for (const x of xs) {
    const v = f(x);
    if (v < bestV) {
      best = x;
      bestV = v;
    }
  }
  return best;
}

/** The kernel's `hash_32(ntohl(addr), IP_VS_SH_TAB_BITS = 8)`. */
function bucket(ip: string): number {
  return Math.imul(parseIPv4(ip) ?? 0, 0x61c88647) >>> 24;
}
