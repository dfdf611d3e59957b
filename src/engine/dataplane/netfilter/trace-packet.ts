/**
 * The iptables packet walk, after upstream's `tracePacket` (`pkg/proxy/iptables/proxier_test.go`):
 * a new connection's first packet goes through nat PREROUTING (or nat OUTPUT when the node sends it),
 * then filter INPUT, FORWARD or OUTPUT depending on where it is routed after DNAT, then nat
 * POSTROUTING. Matches are evaluated for real — `-m statistic` draws from the seeded Rng exactly as the
 * kernel compares `prandom_u32() & 0x7fffffff` with the stored probability, and `-m recent` reads and
 * writes the affinity lists — and every evaluated rule is counted.
 */
import type { Rng } from '../../util/rng.ts';
import { cidrContainsText } from '../../util/ip.ts';
import { probabilityToFixedPoint } from '../proxy/iptables/probability.ts';
import { formatRuleSpec, canonicalCidr } from './iptables-save.ts';
import {
  entryHook,
  ipLength,
  isLocalAddress,
  type Packet,
  type RouteResult,
  type RuleHit,
} from './packet.ts';
import type { IptablesRule, IptablesTableName, Match } from './rule.ts';
import type { IptablesRuleset } from './ruleset.ts';
import type { IptablesCounters } from './counters.ts';

/** `xt_recent` lists: list name → source IP → last time seen (simulated ms). */
export type RecentTable = Map<string, Map<string, number>>;

export interface IptablesWalkContext {
  readonly localAddresses: readonly string[];
  readonly rng: Rng;
  readonly nowMs: number;
  readonly recent: RecentTable;
  /** ipset membership (IPVS mode); absent sets never match. */
  readonly ipsetMatch?: (
    name: string,
    flags: string,
    p: Packet,
    dest: string,
    destPort: number | undefined,
  ) => boolean;
  /** The node's rule counters, for a packet that is really sent (absent: a dry walk counts nothing). */
  readonly counters?: IptablesCounters;
}

type ChainResult = 'fallthrough' | 'return' | 'accept' | 'drop' | 'reject';

interface WalkState {
  readonly p: Packet;
  readonly ctx: IptablesWalkContext;
  dest: string;
  destPort: number | undefined;
  mark: number;
  dnatTo: string | undefined;
  masquerade: boolean;
  readonly ctstates: Set<string>;
  evaluated: number;
  readonly matched: RuleHit[];
}

/** One packet's walk through a ruleset; the IPVS tracer drives it hook by hook. */
export interface IptablesWalk {
  /** Runs a built-in chain; `accept` also covers "fell off the end" (policy ACCEPT). */
  run(table: IptablesTableName, chain: string): 'accept' | 'drop' | 'reject';
  /** The destination now (after any DNAT). */
  readonly dest: string;
  readonly destPort: number | undefined;
  /** Rewrites the destination (IPVS choosing a real server). */
  dnat(to: string, hit: RuleHit): void;
  /** Counts work done outside rules (an IPVS table lookup). */
  count(n: number): void;
  result(verdict: RouteResult['verdict']): RouteResult;
}

export function startIptablesWalk(rs: IptablesRuleset, p: Packet, ctx: IptablesWalkContext): IptablesWalk {
  const s: WalkState = {
    p,
    ctx,
    dest: p.destIP,
    destPort: p.destPort,
    mark: 0,
    dnatTo: undefined,
    masquerade: false,
    ctstates: new Set(['NEW']),
    evaluated: 0,
    matched: [],
  };
  return {
    run: (table, chain) => {
      if (s.dnatTo) s.ctstates.add('DNAT');
      const r = runBuiltin(rs, table, chain, s);
      return r === 'drop' || r === 'reject' ? r : 'accept';
    },
    get dest() {
      return s.dest;
    },
    get destPort() {
      return s.destPort;
    },
    dnat: (to, hit) => {
      s.matched.push(hit);
      applyDnat(s, to);
    },
    count: (n) => {
      s.evaluated += n;
    },
    result: (verdict) => ({
      verdict,
      ...(s.dnatTo ? { dnatTo: s.dnatTo } : {}),
      masquerade: s.masquerade,
      matched: s.matched,
      evaluatedRules: s.evaluated,
    }),
  };
}

export function traceIptables(rs: IptablesRuleset, p: Packet, ctx: IptablesWalkContext): RouteResult {
  const w = startIptablesWalk(rs, p, ctx);
  const hook = entryHook(p, ctx.localAddresses);
  const nat = w.run('nat', hook === 'output' ? 'OUTPUT' : 'PREROUTING');
  if (nat !== 'accept') return w.result(nat === 'drop' ? 'DROP' : 'REJECT');
  const filterChain =
    hook === 'output' ? 'OUTPUT' : isLocalAddress(w.dest, ctx.localAddresses) ? 'INPUT' : 'FORWARD';
  const filter = w.run('filter', filterChain);
  if (filter !== 'accept') return w.result(filter === 'drop' ? 'DROP' : 'REJECT');
  // Locally delivered packets leave netfilter at INPUT; everything routed on meets POSTROUTING.
  if (filterChain !== 'INPUT') w.run('nat', 'POSTROUTING');
  const res = w.result('ACCEPT');
  return res.dnatTo ? { ...res, verdict: 'DNAT' } : res;
}

function applyDnat(s: WalkState, to: string): void {
  s.dnatTo = to;
  const [ip, port] = to.split(':');
  s.dest = ip ?? s.dest;
  if (port !== undefined) s.destPort = Number(port);
}

function runBuiltin(rs: IptablesRuleset, table: IptablesTableName, chain: string, s: WalkState): ChainResult {
  if (!rs.tables.get(table)?.chains.has(chain)) return 'accept';
  const r = runChain(rs, table, chain, s, 0);
  if (r !== 'fallthrough' && r !== 'return') return r;
  // The end of a built-in chain: its policy decides, and counts the packet.
  s.ctx.counters?.policyHit(table, chain, ipLength(s.p));
  return 'accept';
}

function runChain(
  rs: IptablesRuleset,
  table: IptablesTableName,
  chain: string,
  s: WalkState,
  depth: number,
): ChainResult {
  const c = rs.tables.get(table)?.chains.get(chain);
  if (!c || depth > 64) return 'fallthrough';
  for (const rule of c.rules) {
    s.evaluated++;
    if (!ruleMatches(rule, s)) continue;
    s.matched.push({ table, chain, rule: formatRuleSpec(rule) });
    s.ctx.counters?.ruleHit(table, chain, rule, ipLength(s.p));
    const t = rule.target;
    if (!t) continue;
    switch (t.kind) {
      case 'jump': {
        const r = runChain(rs, table, t.chain, s, depth + 1);
        if (r === 'accept' || r === 'drop' || r === 'reject') return r;
        continue;
      }
      case 'RETURN':
        return 'return';
      case 'ACCEPT':
        return 'accept';
      case 'DROP':
        return 'drop';
      case 'REJECT':
        return 'reject';
      case 'DNAT':
        applyDnat(s, t.to);
        return 'accept';
      case 'MARK':
        s.mark = t.op === 'or' ? (s.mark | t.value) >>> 0 : (s.mark ^ t.value) >>> 0;
        continue;
      case 'MASQUERADE':
        s.masquerade = true;
        return 'accept';
      case 'goto': {
        // A goto never comes back here: the called chain's RETURN resumes the caller's caller.
        const r = runChain(rs, table, t.chain, s, depth + 1);
        return r === 'accept' || r === 'drop' || r === 'reject' ? r : 'return';
      }
      case 'text':
        continue;
    }
  }
  return 'fallthrough';
}

function ruleMatches(rule: IptablesRule, s: WalkState): boolean {
  const p = s.p;
  if (rule.source && cidrContainsText(canonicalCidr(rule.source.cidr), p.srcIP) === !!rule.source.negate)
    return false;
  if (
    rule.destination &&
    cidrContainsText(canonicalCidr(rule.destination.cidr), s.dest) === !!rule.destination.negate
  ) {
    return false;
  }
  if (rule.protocol && rule.protocol !== p.protocol.toLowerCase()) return false;
  return rule.matches.every((m) => matchOne(m, s));
}

function matchOne(m: Match, s: WalkState): boolean {
  const { p, ctx } = s;
  switch (m.kind) {
    case 'comment':
      return true;
    case 'l4':
      if (m.proto !== p.protocol.toLowerCase()) return false;
      if (m.dport !== undefined && m.dport !== s.destPort) return false;
      return m.sport === undefined || m.sport === p.srcPort;
    case 'addrtype': {
      const ok =
        (m.srcType === undefined || isLocalAddress(p.srcIP, ctx.localAddresses)) &&
        (m.dstType === undefined || isLocalAddress(s.dest, ctx.localAddresses));
      return ok !== !!m.negate;
    }
    case 'statistic':
      return (ctx.rng.nextUint32() & 0x7fffffff) < probabilityToFixedPoint(m.probability);
    case 'recent': {
      let list = ctx.recent.get(m.name);
      if (m.mode === 'set') {
        if (!list) ctx.recent.set(m.name, (list = new Map()));
        list.set(p.srcIP, ctx.nowMs);
        return true;
      }
      const seen = list?.get(p.srcIP);
      if (seen === undefined) return false;
      if (m.seconds !== undefined && ctx.nowMs - seen > m.seconds * 1000) {
        if (m.reap) list?.delete(p.srcIP);
        return false;
      }
      return true;
    }
    case 'mark':
      return ((s.mark & m.mask) >>> 0 === m.value) !== !!m.negate;
    case 'conntrack':
      return m.ctstate.some((st) => s.ctstates.has(st)) !== !!m.negate;
    case 'set':
      return (ctx.ipsetMatch?.(m.name, m.flags, p, s.dest, s.destPort) ?? false) !== !!m.negate;
    case 'physdev':
      // Pods behind a bridge enter through a bridge port; everything else does not.
      return !!p.fromLocalPod !== !!m.negate;
    case 'text':
      // Verbatim matches only appear in the CNIs' printed chains, which packets are not walked through.
      return false;
  }
}
