/**
 * The IPVS packet walk: the IPVS-mode iptables rules as in iptables mode, with IPVS itself in between.
 * A Service address is bound to `kube-ipvs0`, so the packet is routed to INPUT; after filter INPUT,
 * IPVS (LOCAL_IN, or LOCAL_OUT for node-originated packets) looks the destination up in its hash
 * table — one lookup, whatever the number of Services — and the scheduler picks the real server.
 * A virtual server without real servers lets the packet through to the node itself, where nothing
 * listens on the Service port: the connection is refused (RST).
 */
import type { Rng } from '../../../util/rng.ts';
import { entryHook, isLocalAddress, type Packet, type RouteResult } from '../../netfilter/packet.ts';
import type { IptablesRuleset } from '../../netfilter/ruleset.ts';
import { startIptablesWalk, type RecentTable } from '../../netfilter/trace-packet.ts';
import type { IptablesCounters } from '../../netfilter/counters.ts';
import { ipsetMatches } from './ipsets.ts';
import { virtualServerKey, type VirtualServer } from './ipvs-model.ts';
import type { IpvsState } from './schedulers.ts';
import type { IpvsRuleset } from './sync-proxy-rules.ts';

export interface IpvsWalkContext {
  /** The node's own addresses (kube-ipvs0 addresses are added here). */
  readonly localAddresses: readonly string[];
  readonly rng: Rng;
  readonly nowMs: number;
  readonly state: IpvsState;
  readonly recent?: RecentTable;
  readonly counters?: IptablesCounters;
}

export interface IpvsRouteResult extends RouteResult {
  /** The virtual server that took the packet, and the real server it chose. */
  readonly virtualServer?: VirtualServer;
}

export function traceIpvs(
  ipvs: IpvsRuleset,
  iptables: IptablesRuleset,
  p: Packet,
  ctx: IpvsWalkContext,
): IpvsRouteResult {
  const local = [...ctx.localAddresses, ...ipvs.dummyAddresses];
  const index = new Map(ipvs.virtualServers.map((vs) => [virtualServerKey(vs), vs]));
  const w = startIptablesWalk(iptables, p, {
    localAddresses: local,
    rng: ctx.rng,
    nowMs: ctx.nowMs,
    recent: ctx.recent ?? new Map(),
    ...(ctx.counters ? { counters: ctx.counters } : {}),
    ipsetMatch: (name, flags, pkt, dest, destPort) =>
      ipsetMatches(ipvs.ipsets, name, flags, pkt, dest, destPort),
  });
  let chosenVs: VirtualServer | undefined;
  const ipvsHook = (): 'dnat' | 'none' | 'no-real-server' => {
    w.count(1);
    const vs = index.get(virtualServerKey({ protocol: p.protocol, address: w.dest, port: w.destPort ?? -1 }));
    if (!vs) return 'none';
    chosenVs = vs;
    const rs = ctx.state.schedule(vs, p.srcIP, ctx.nowMs);
    if (!rs) return 'no-real-server';
    w.dnat(`${rs.address}:${rs.port}`, {
      table: 'ipvs',
      chain: virtualServerKey(vs),
      rule: `-> ${rs.address}:${rs.port} Masq ${rs.weight} (${vs.scheduler})`,
    });
    return 'dnat';
  };
  const done = (verdict: RouteResult['verdict']): IpvsRouteResult => {
    const r = w.result(verdict);
    return {
      ...r,
      ...(r.dnatTo && verdict === 'ACCEPT' ? { verdict: 'DNAT' } : {}),
      ...(chosenVs ? { virtualServer: chosenVs } : {}),
    };
  };

  if (entryHook(p, local) === 'output') {
    const nat = w.run('nat', 'OUTPUT');
    if (nat !== 'accept') return done(nat === 'drop' ? 'DROP' : 'REJECT');
    const v = ipvsHook();
    const filter = w.run('filter', 'OUTPUT');
    if (filter !== 'accept') return done(filter === 'drop' ? 'DROP' : 'REJECT');
    if (v === 'no-real-server') return done('REJECT');
    w.run('nat', 'POSTROUTING');
    return done('ACCEPT');
  }
  const nat = w.run('nat', 'PREROUTING');
  if (nat !== 'accept') return done(nat === 'drop' ? 'DROP' : 'REJECT');
  if (!isLocalAddress(w.dest, local)) {
    const fwd = w.run('filter', 'FORWARD');
    if (fwd !== 'accept') return done(fwd === 'drop' ? 'DROP' : 'REJECT');
    w.run('nat', 'POSTROUTING');
    return done('ACCEPT');
  }
  const input = w.run('filter', 'INPUT');
  if (input !== 'accept') return done(input === 'drop' ? 'DROP' : 'REJECT');
  const v = ipvsHook();
  if (v === 'no-real-server') return done('REJECT');
  if (v === 'none') return done('ACCEPT');
  // IPVS sends the rewritten packet out again: it meets POSTROUTING (masquerade, hairpin).
  w.run('nat', 'POSTROUTING');
  return done('ACCEPT');
}
