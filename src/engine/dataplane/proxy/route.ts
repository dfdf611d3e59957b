/**
 * A connection's first packet through a node's kube-proxy rules, in whichever mode runs there, with
 * connection tracking: a packet of a tracked connection follows its conntrack entry (same backend,
 * same masquerade) without touching the rules; a new connection walks the rules and, unless dropped
 * or rejected, gets an entry. Masquerade rewrites the source to the address the kernel picks for the
 * interface the packet leaves through (network/masquerade-address.ts), which the caller knows.
 */
import type { Rng } from '../../util/rng.ts';
import { formatEntry, type ConntrackEntry, type CtProtocol } from '../netfilter/conntrack.ts';
import { traceNftables } from '../netfilter/nft-trace.ts';
import type { Packet, RouteResult } from '../netfilter/packet.ts';
import { traceIptables } from '../netfilter/trace-packet.ts';
import { traceIpvs } from './ipvs/trace-ipvs.ts';
import { virtualServerKey } from './ipvs/ipvs-model.ts';
import { masqueradePort } from '../netfilter/nat-port.ts';
import type { NodeMode, NodeProxyState } from './kube-proxy.ts';

export interface ProxyRoute extends RouteResult {
  readonly mode: NodeMode;
  /** The conntrack entry the packet belongs to (new or existing), for TCP/UDP/SCTP with a source port. */
  readonly conntrack?: ConntrackEntry;
  /** True when an existing conntrack entry decided the route. */
  readonly established: boolean;
}

export interface RouteContext {
  readonly rng: Rng;
  readonly nowMs: number;
  readonly nodeIP: string;
  /** MASQUERADE's source for a packet to this (translated) destination address. */
  readonly masqueradeAddress: (destIP: string) => string;
}

export function routePacket(
  st: NodeProxyState | undefined,
  mode: NodeMode,
  p: Packet,
  ctx: RouteContext,
): ProxyRoute {
  const proto = p.protocol.toLowerCase() as CtProtocol;
  const tracked = p.srcPort !== undefined && p.destPort !== undefined && st !== undefined;
  const tuple = { src: p.srcIP, dst: p.destIP, sport: p.srcPort ?? 0, dport: p.destPort ?? 0 };
  if (tracked) {
    const e = st.conntrack.lookup(proto, tuple, ctx.nowMs);
    if (e) {
      return {
        mode,
        verdict: e.dnat ? 'DNAT' : 'ACCEPT',
        ...(e.dnat ? { dnatTo: e.dnat } : {}),
        masquerade: e.snat !== undefined,
        matched: [{ table: 'conntrack', chain: e.state ?? e.protocol, rule: formatEntry(e, ctx.nowMs) }],
        evaluatedRules: 0,
        conntrack: e,
        established: true,
      };
    }
  }
  const local = [ctx.nodeIP];
  let r: RouteResult & { virtualServer?: { protocol: string; address: string; port: number } };
  if (!st || mode === 'none' || mode === 'not-running') {
    r = { verdict: 'ACCEPT', masquerade: false, matched: [], evaluatedRules: 0 };
  } else if (mode === 'nftables' && st.nftables) {
    r = traceNftables(st.nftables, p, {
      localAddresses: local,
      rng: ctx.rng,
      nowMs: ctx.nowMs,
      sets: st.nftSets,
    });
  } else if (mode === 'ipvs' && st.ipvs) {
    r = traceIpvs(st.ipvs, st.iptables, p, {
      localAddresses: local,
      rng: ctx.rng,
      nowMs: ctx.nowMs,
      state: st.ipvsState,
      recent: st.recent,
      counters: st.counters,
    });
  } else {
    r = traceIptables(st.iptables, p, {
      localAddresses: local,
      rng: ctx.rng,
      nowMs: ctx.nowMs,
      recent: st.recent,
      counters: st.counters,
    });
  }
  if (!tracked || r.verdict === 'DROP' || r.verdict === 'REJECT') return { ...r, mode, established: false };
  const entry = st.conntrack.create(
    {
      protocol: proto,
      orig: tuple,
      ...(r.dnatTo ? { dnat: r.dnatTo } : {}),
      ...(r.masquerade
        ? {
            snat: ctx.masqueradeAddress(r.dnatTo?.split(':')[0] ?? p.destIP),
            ...(p.srcPort !== undefined ? { snatPort: masqueradePort(p.srcPort) } : {}),
          }
        : {}),
      ...(r.virtualServer ? { tag: virtualServerKey(r.virtualServer) } : {}),
    },
    ctx.nowMs,
  );
  return { ...r, mode, conntrack: entry, established: false };
}
