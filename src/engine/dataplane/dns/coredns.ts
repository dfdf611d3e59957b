/**
 * One CoreDNS replica answering one query: server-block selection by longest zone, then the plugin chain
 * in CoreDNS's order (`core/dnsserver/zdirectives.go`): log → loadbalance → rewrite → cache → hosts →
 * kubernetes → forward. The caller re-parses the Corefile when the ConfigMap changes (`reload`); parsing
 * and answering are pure and cheap, the only state is the `DnsCache` the caller keeps per replica.
 *
 * Simplified: one query per call (no truncation/TCP retry), no `autopath`, `loop` detection is not
 * simulated, `forward` always reaches the simulated internet.
 */
import type { Rng } from '../../util/rng.ts';
import { fnv32a } from '../../util/rng.ts';
import { cacheApplies, cacheDecision, cacheKey, DnsCache, fromCache } from './cache-plugin.ts';
import {
  defaultCorefileText,
  parseCorefile,
  serverFor,
  type Corefile,
  type RewriteRule,
  type ServerBlock,
} from './corefile.ts';
import { clusterIndex, kubernetesLookup, soaRecord, type ClusterObjects } from './kubernetes-plugin.ts';
import { internetLookup } from '../internet.ts';
import { formatLogLine } from './log-plugin.ts';
import {
  addressFromReverse,
  fqdn,
  isSubdomain,
  withName,
  withTtl,
  type AnswerSource,
  type DnsResponse,
  type Edns,
  type QType,
  type Rcode,
  type RR,
} from './message.ts';

export { DnsCache };

export interface DnsQuery {
  readonly name: string;
  readonly type: QType;
  /** Client address and source port (the log plugin prints them). */
  readonly client: string;
  readonly clientPort?: number;
  readonly id?: number;
  readonly proto?: 'udp' | 'tcp';
  /** Recursion desired; every stub resolver and dig set it. */
  readonly rd?: boolean;
  readonly edns?: Edns;
}

export interface CoreDnsState extends ClusterObjects {
  /** The parsed Corefile; defaults to kubeadm's for `clusterDomain`. */
  readonly config?: Corefile;
  readonly clusterDomain?: string;
  /** SOA serial: unix time of the last change the plugin saw. */
  readonly serial?: number;
  /** Simulated time in ms, for the cache. */
  readonly now?: number;
  readonly cache?: DnsCache;
  /** Shuffles answers when `loadbalance` is on; without it the order is kept. */
  readonly rng?: Rng;
  /** The nameserver of the node's resolv.conf that `forward . /etc/resolv.conf` uses. */
  readonly nodeNameserver?: string;
}

export interface DnsAnswer extends DnsResponse {
  /** The `log` plugin's line (with the `[INFO] ` prefix) when logging is on for this name. */
  readonly log?: string;
  /** Seconds the server took (deterministic), as the log plugin's `{duration}`. */
  readonly duration: number;
}

const defaultCorefiles = new Map<string, Corefile>();

function configOf(state: CoreDnsState): Corefile {
  if (state.config) return state.config;
  const domain = state.clusterDomain ?? 'cluster.local';
  let c = defaultCorefiles.get(domain);
  if (!c) {
    c = parseCorefile(defaultCorefileText(domain));
    defaultCorefiles.set(domain, c);
  }
  return c;
}

interface Inner {
  rcode: Rcode;
  answer: RR[];
  authority: RR[];
  additional: RR[];
  aa: boolean;
  ra: boolean;
  source: AnswerSource;
  cached: boolean;
  forwarded?: { upstream: string; to: readonly string[] };
}

/** Answers `query` as the CoreDNS replica described by `state`. Never throws. */
export function answer(query: DnsQuery, state: CoreDnsState): DnsAnswer {
  const config = configOf(state);
  const qname = fqdn(query.name);
  const id = query.id ?? (state.rng ? state.rng.int(65536) : fnv32a(qname + query.type) & 0xffff);
  const server = serverFor(config, qname);
  const inner: Inner = server
    ? serve(qname, query.type, config, config.servers.indexOf(server), server, state, 0)
    : {
        rcode: 'REFUSED',
        answer: [],
        authority: [],
        additional: [],
        aa: false,
        ra: false,
        source: 'none',
        cached: false,
      };
  if (server?.loadbalance && state.rng) inner.answer = roundRobin(inner.answer, state.rng);
  const response: DnsResponse = {
    id,
    rcode: inner.rcode,
    flags: { aa: inner.aa, tc: false, rd: query.rd ?? true, ra: inner.ra },
    question: { name: qname, type: query.type },
    answer: inner.answer,
    authority: inner.authority,
    additional: inner.additional,
    edns: query.edns,
    cached: inner.cached,
    source: inner.source,
    forwarded: inner.forwarded,
  };
  const duration = simulatedDuration(inner, qname, id);
  const log = server?.log ? formatLogLine(server.log, query, response, duration) : undefined;
  return { ...response, log, duration };
}

function serve(
  qname: string,
  qtype: QType,
  config: Corefile,
  serverIndex: number,
  server: ServerBlock,
  state: CoreDnsState,
  depth: number,
): Inner {
  const rewritten = applyRewrite(server.rewrite, qname);
  const name = rewritten?.name ?? qname;
  let result =
    cached(name, qtype, config, serverIndex, server, state) ??
    lookup(name, qtype, config, serverIndex, server, state, depth);
  if (rewritten?.auto) {
    const back = (rrs: RR[]) => rrs.map((r) => (r.name === name ? withName(r, qname) : r));
    result = { ...result, answer: back(result.answer) };
  }
  return result;
}

function cached(
  name: string,
  qtype: QType,
  config: Corefile,
  serverIndex: number,
  server: ServerBlock,
  state: CoreDnsState,
): Inner | undefined {
  const cfg = server.cache;
  if (!cfg || !state.cache || !cacheApplies(cfg, name)) return undefined;
  state.cache.reset(config);
  const item = state.cache.items.get(cacheKey(serverIndex, name, qtype, false));
  if (!item) return undefined;
  const hit = fromCache(item, state.now ?? 0);
  if (!hit) {
    state.cache.items.delete(cacheKey(serverIndex, name, qtype, false));
    return undefined;
  }
  return { rcode: item.rcode, ...hit, aa: true, ra: item.ra, source: 'cache', cached: true };
}

function lookup(
  name: string,
  qtype: QType,
  config: Corefile,
  serverIndex: number,
  server: ServerBlock,
  state: CoreDnsState,
  depth: number,
): Inner {
  const result = backends(name, qtype, config, server, state, depth);
  const cfg = server.cache;
  if (!cfg || !cacheApplies(cfg, name)) return result;
  const decision = cacheDecision(cfg, name, result.rcode, result.answer, result.authority);
  if (!decision) return result;
  const cap = (rrs: RR[]) => rrs.map((r) => withTtl(r, decision.ttl));
  const capped = {
    ...result,
    answer: cap(result.answer),
    authority: cap(result.authority),
    additional: cap(result.additional),
  };
  if (decision.store && state.cache) {
    state.cache.reset(config);
    state.cache.items.set(cacheKey(serverIndex, name, qtype, false), {
      rcode: capped.rcode,
      answer: capped.answer,
      authority: capped.authority,
      additional: capped.additional,
      ra: capped.ra,
      stored: state.now ?? 0,
      ttl: decision.ttl,
    });
  }
  return capped;
}

/** hosts → kubernetes → forward, each handing over to the next as CoreDNS's `plugin.NextOrFailure`. */
function backends(
  name: string,
  qtype: QType,
  config: Corefile,
  server: ServerBlock,
  state: CoreDnsState,
  depth: number,
): Inner {
  const empty = { answer: [] as RR[], authority: [] as RR[], additional: [] as RR[], cached: false };
  const hosts = server.hosts;
  if (hosts && hosts.zones.some((z) => isSubdomain(name, z))) {
    const answer = hostsLookup(hosts, name, qtype);
    const known = answer.length > 0 || hostsKnows(hosts, name);
    if (known) return { ...empty, rcode: 'NOERROR', answer, aa: true, ra: false, source: 'hosts' };
    if (!hosts.fallthrough?.some((z) => isSubdomain(name, z))) {
      // plugin/hosts: no SOA to build an NXDOMAIN from, so it answers SERVFAIL.
      return { ...empty, rcode: 'SERVFAIL', aa: false, ra: false, source: 'hosts' };
    }
  }
  const k8s = server.kubernetes;
  const zone = k8s?.zones.filter((z) => isSubdomain(name, z)).sort((a, b) => b.length - a.length)[0];
  if (k8s && zone) {
    const r = kubernetesLookup(name, qtype, zone, k8s, clusterIndex(state));
    const fallthrough = r.nameError && k8s.fallthrough.some((z) => isSubdomain(name, z));
    if (!fallthrough) {
      const soa = [soaRecord(zone, k8s.ttl, state.serial ?? 0)];
      if (r.nameError)
        return { ...empty, rcode: 'NXDOMAIN', authority: soa, aa: true, ra: false, source: 'kubernetes' };
      const answer = [...r.answer];
      if (r.chase && depth < 8) {
        const target = serverFor(config, r.chase.target);
        if (target) {
          const t = serve(
            r.chase.target,
            r.chase.type,
            config,
            config.servers.indexOf(target),
            target,
            state,
            depth + 1,
          );
          answer.push(...t.answer);
        }
      }
      if (answer.length === 0)
        return { ...empty, rcode: 'NOERROR', authority: soa, aa: true, ra: false, source: 'kubernetes' };
      return {
        ...empty,
        rcode: 'NOERROR',
        answer,
        additional: [...r.additional],
        aa: true,
        ra: false,
        source: 'kubernetes',
      };
    }
  }
  const fwd = server.forward;
  if (fwd && isSubdomain(name, fwd.from) && !fwd.except.some((z) => isSubdomain(name, z))) {
    const net = internetLookup(name, qtype);
    const upstream =
      fwd.to[0] === '/etc/resolv.conf'
        ? (state.nodeNameserver ?? '172.18.0.1')
        : fwd.to[0]!.replace(/^\w+:\/\//, '');
    return {
      rcode: net.rcode,
      answer: [...net.answer],
      authority: [...net.authority],
      additional: [],
      aa: false,
      ra: true,
      source: 'forward',
      cached: false,
      forwarded: { upstream, to: fwd.to },
    };
  }
  // plugin.NextOrFailure with no next plugin: SERVFAIL.
  return { ...empty, rcode: 'SERVFAIL', aa: false, ra: false, source: 'none' };
}

function hostsLookup(hosts: NonNullable<ServerBlock['hosts']>, name: string, qtype: QType): RR[] {
  if (qtype === 'PTR' && !hosts.noReverse) {
    const ip = addressFromReverse(name);
    return hosts.entries
      .filter((e) => e.ip === ip)
      .flatMap((e) => e.names.map((n) => ({ name, ttl: hosts.ttl, type: 'PTR' as const, target: n })));
  }
  if (qtype !== 'A') return [];
  return hosts.entries
    .filter((e) => e.names.includes(name))
    .map((e) => ({ name, ttl: hosts.ttl, type: 'A' as const, address: e.ip }));
}

function hostsKnows(hosts: NonNullable<ServerBlock['hosts']>, name: string): boolean {
  return hosts.entries.some((e) => e.names.includes(name));
}

/** plugin/rewrite name rules; the first matching `stop` rule ends the list. */
function applyRewrite(
  rules: readonly RewriteRule[],
  qname: string,
): { name: string; auto: boolean } | undefined {
  let name = qname;
  let hit: { name: string; auto: boolean } | undefined;
  for (const r of rules) {
    let next: string | undefined;
    if (r.match === 'exact' && name === r.from) next = r.to;
    else if (r.match === 'prefix' && name.startsWith(r.from)) next = r.to + name.slice(r.from.length);
    else if (r.match === 'suffix' && name.endsWith(r.from)) next = name.slice(0, -r.from.length) + r.to;
    else if (r.match === 'substring' && name.includes(r.from)) next = name.replace(r.from, r.to);
    else if (r.match === 'regex') {
      const m = new RegExp(r.from).exec(name);
      if (m) next = fqdn(r.to.replace(/\{(\d+)\}/g, (_, i: string) => m[Number(i)] ?? ''));
    }
    if (next === undefined) continue;
    name = fqdn(next);
    hit = { name, auto: r.auto || (hit?.auto ?? false) };
    if (r.mode === 'stop') break;
  }
  return hit;
}

/** plugin/loadbalance `roundRobin`: CNAMEs first, then other records, then shuffled addresses and MX. */
function roundRobin(rrs: RR[], rng: Rng): RR[] {
  const cname = rrs.filter((r) => r.type === 'CNAME');
  const address = rrs.filter((r) => r.type === 'A' || r.type === 'AAAA');
  const mx = rrs.filter((r) => r.type === 'MX');
  const rest = rrs.filter((r) => !['CNAME', 'A', 'AAAA', 'MX'].includes(r.type));
  const shuffle = (xs: RR[]) => {
    for (let j = 0; j < xs.length - 1; j++) {
      const p = j + rng.int(xs.length - j);
      [xs[j], xs[p]] = [xs[p]!, xs[j]!];
    }
    return xs;
  };
  return [...cname, ...rest, ...shuffle(address), ...shuffle(mx)];
}

/** A plausible, repeatable server time: ~0.1 ms from memory, a few ms when forwarded. */
function simulatedDuration(inner: Inner, qname: string, id: number): number {
  const jitter = fnv32a(`${qname}#${id}`) % 90000;
  const micros = inner.source === 'forward' ? 4000 + (jitter % 9000) : 60 + (jitter % 140);
  return (micros * 1000 + (jitter % 1000)) / 1e9;
}
