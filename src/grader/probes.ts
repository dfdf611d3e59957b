/**
 * The adapter between traffic/DNS checks and the engine's dataplane. Checks ask two questions — "does
 * this connection from this pod get through?" and "what does this lookup from this pod return?" — and
 * the dataplane answers from its connection model (`src/engine/dataplane/network/`: resolver, kube-proxy
 * rules, NetworkPolicy, routes, listening sockets), naming the hop that decided. Hops use the dataplane's
 * own vocabulary (`network/types.ts`: "a kind is never renamed, only added"); `hopMessage` words them.
 * This module stays engine-free: `dataplaneProbes(connect)` adapts any `connect`, and `dataplane.ts`
 * binds the engine's (the grader's index and the CLI use it). Without an engine, probes answer
 * `unavailable`, which the grader turns into an *error* result: never a pass.
 */
import type {
  ConnectRequest,
  ConnectResult,
  DataplaneHop,
  GradableCluster,
  MatrixCell,
} from './engine-api.ts';
import { msg, type Message } from './messages/format.ts';
import type { ProbeTarget } from './probe-target.ts';

export type Hop = DataplaneHop;

/** The pod a probe runs from, already resolved and running. */
export interface ProbeClient {
  readonly namespace: string;
  readonly pod: string;
  readonly ip: string | undefined;
}

export type ReachOutcome =
  | { readonly kind: 'connected' | 'timeout' | 'refused'; readonly hop?: Hop }
  | { readonly kind: 'unresolved'; readonly host: string; readonly hop?: Hop };

export interface DnsOutcome {
  /** Addresses of the final answer, in order; empty when the lookup failed. */
  readonly addresses: readonly string[];
  /** Queries that reached a DNS server (every search-list candidate and type counts). */
  readonly queries: number;
  /** The resolver's error (`Name or service not known`…) when it failed. */
  readonly error?: string;
}

/** The dataplane cannot answer: `unavailable` names what is missing (English, for the error message). */
export interface Unavailable {
  readonly unavailable: string;
}

export interface TrafficProbes {
  reach(cluster: GradableCluster, client: ProbeClient, target: ProbeTarget): ReachOutcome | Unavailable;
  lookup(cluster: GradableCluster, client: ProbeClient, name: string): DnsOutcome | Unavailable;
  /**
   * Every running pod to every other on each port the destination listens on, with each end's
   * NetworkPolicy verdict (the engine's reachabilityMatrix); absent where the dataplane cannot say.
   */
  connections?(cluster: GradableCluster): readonly MatrixCell[] | Unavailable;
}

export function isUnavailable(v: object): v is Unavailable {
  return 'unavailable' in v;
}

/** Used until the dataplane lands: every probe is an error result, never a pass. */
export const unavailableProbes: TrafficProbes = {
  reach: () => ({ unavailable: 'the packet walk from a pod (dataplane connect)' }),
  lookup: () => ({ unavailable: 'DNS lookups from a pod (dataplane connect)' }),
};

export type Connect = (cluster: GradableCluster, request: ConnectRequest) => ConnectResult;

/**
 * Probes over the dataplane's `connect`. A probe is a connection attempt like `curl`/`nc` would make;
 * unreachable (ICMP) counts as refused, as the client sees it. A DNS probe reads the lookup summary of a
 * connection to the name (the connection itself does not matter).
 */
export function dataplaneProbes(connect: Connect): TrafficProbes {
  return {
    reach(cluster, client, target) {
      const r = connect(cluster, {
        from: { kind: 'pod', namespace: client.namespace, name: client.pod },
        to: target.host,
        port: target.port,
        protocol: target.protocol,
        family: 'both',
        ...(target.url
          ? { payload: { http: { method: 'GET', path: target.url.path, host: target.host, headers: [] } } }
          : {}),
      });
      const hop = r.decidingHop;
      const withHop = <T extends object>(o: T): T & { hop?: Hop } => (hop ? { ...o, hop } : o);
      switch (r.outcome) {
        case 'connected':
          return withHop({ kind: 'connected' as const });
        case 'timeout':
          return withHop({ kind: 'timeout' as const });
        case 'refused':
        case 'unreachable':
          return withHop({ kind: 'refused' as const });
        case 'dns-failure':
          return withHop({ kind: 'unresolved' as const, host: target.host });
      }
    },
    lookup(cluster, client, name) {
      const r = connect(cluster, {
        from: { kind: 'pod', namespace: client.namespace, name: client.pod },
        to: name,
        port: 80,
        protocol: 'TCP',
        family: 'both',
      });
      if (!r.dns) return { addresses: r.remote ? [r.remote.ip] : [], queries: 0 };
      const error = r.dns.error?.message ?? (r.dns.timedOut ? 'timed out' : undefined);
      return { addresses: r.dns.addresses, queries: r.dns.queries, ...(error ? { error } : {}) };
    },
  };
}

/** The probes of an engine-less evaluation (unit tests with a fake cluster); `engine.probes` overrides them. */
export const defaultProbes: TrafficProbes = unavailableProbes;

const ref = (p: { namespace: string; name: string } | undefined): string =>
  p ? `${p.namespace}/${p.name}` : '';

export function hopMessage(hop: Hop): Message {
  switch (hop.kind) {
    case 'network-policy':
      if (hop.verdict === 'allowed' && hop.allowedBy) {
        return msg('hop.policyAllowed', {
          ref: ref(hop.allowedBy),
          rule: hop.allowedBy.rule + 1,
          direction: hop.direction,
        });
      }
      if (hop.verdict === 'blocked') {
        return msg('hop.policyIsolation', {
          pod: ref(hop.pod),
          direction: hop.direction,
          policies: hop.policies.map(ref),
        });
      }
      if (hop.verdict === 'not-enforced')
        return msg('hop.policyNotEnforced', { enforcement: hop.enforcement });
      return msg('hop.policyNotIsolated', { pod: ref(hop.pod), direction: hop.direction });
    case 'netfilter':
      return msg('hop.netfilter', {
        table: hop.table,
        chain: hop.chain,
        verdict: hop.verdict,
        node: hop.node,
      });
    case 'no-endpoints':
      return msg('hop.noEndpoints', { ref: ref(hop.service) });
    case 'service':
      return msg('hop.service', {
        ref: ref(hop.service),
        mode: hop.mode,
        node: hop.node,
        endpoint: hop.endpoint ?? '-',
      });
    case 'no-listener':
      return msg('hop.noListener', {
        ip: hop.ip,
        port: hop.port,
        where: hop.pod ? ref(hop.pod) : (hop.node ?? hop.ip),
      });
    case 'no-route':
      return msg('hop.noRoute', { ip: hop.ip });
    case 'delivered':
      return msg('hop.delivered', {
        where: hop.pod ? ref(hop.pod) : (hop.node ?? hop.ip),
        ip: hop.ip,
        port: hop.port ?? '-',
      });
    case 'external':
      return msg('hop.external', { ip: hop.ip, port: hop.port ?? '-' });
    case 'mtu':
      return msg('hop.mtu', { bytes: hop.bytes, mtu: hop.pathMtu });
    case 'dns-query':
      return msg('hop.dnsQuery', { name: hop.name, server: hop.server, outcome: hop.rcode ?? hop.outcome });
    case 'dns-result':
      return msg('hop.dnsResult', { name: hop.name, error: hop.error ?? '-' });
    case 'route':
      return msg('hop.route', { node: hop.node, via: hop.via, device: hop.device });
    default:
      return msg('hop.other', { kind: hop.kind });
  }
}
