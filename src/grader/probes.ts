/**
 * The adapter between traffic/DNS checks and the engine's dataplane. Checks ask two questions — "does
 * this connection from this pod get through?" and "what does this lookup from this pod return?" — and
 * the dataplane answers them from its packet walk (kube-proxy rules, NetworkPolicy, routes, listening
 * sockets) and its CoreDNS/resolver model. Until the dataplane exposes a pod-level probe, both answer
 * `unavailable`, which the grader turns into an *error* result: never a pass.
 */
import type { GradableCluster } from './engine-api.ts';
import { msg, type Message } from './messages/format.ts';
import type { ProbeTarget } from './probe-target.ts';

/** The pod a probe runs from, already resolved and running. */
export interface ProbeClient {
  readonly namespace: string;
  readonly pod: string;
  readonly ip: string | undefined;
}

/** The hop of the packet walk that decided a verdict, as data; `hopMessage` words it. */
export type Hop =
  | {
      readonly kind: 'network-policy';
      readonly namespace: string;
      readonly name: string;
      readonly direction: 'Ingress' | 'Egress';
    }
  | {
      readonly kind: 'policy-isolation';
      readonly namespace: string;
      readonly pod: string;
      readonly direction: 'Ingress' | 'Egress';
    }
  | { readonly kind: 'netfilter'; readonly table: string; readonly chain: string; readonly verdict: string }
  | { readonly kind: 'no-endpoints'; readonly namespace: string; readonly service: string }
  | {
      readonly kind: 'no-listener';
      readonly namespace: string;
      readonly pod: string;
      readonly ip: string;
      readonly port: number;
    }
  | { readonly kind: 'no-route'; readonly ip: string }
  | {
      readonly kind: 'delivered';
      readonly namespace: string;
      readonly pod: string;
      readonly ip: string;
      readonly port: number;
    }
  | { readonly kind: 'external'; readonly ip: string; readonly port: number };

export type ReachOutcome =
  | { readonly kind: 'connected' | 'timeout' | 'refused'; readonly hop?: Hop }
  | { readonly kind: 'unresolved'; readonly host: string };

export interface DnsOutcome {
  /** Addresses of the final answer, in order; empty when the lookup failed. */
  readonly addresses: readonly string[];
  /** Queries that reached a DNS server (every search-list candidate and type counts). */
  readonly queries: number;
  /** The resolver's error (`Name or service not known`, `NXDOMAIN`…) when it failed. */
  readonly error?: string;
}

/** The dataplane cannot answer: `feature` names what is missing (English, for the error message). */
export interface Unavailable {
  readonly unavailable: string;
}

export interface TrafficProbes {
  reach(cluster: GradableCluster, client: ProbeClient, target: ProbeTarget): ReachOutcome | Unavailable;
  lookup(cluster: GradableCluster, client: ProbeClient, name: string): DnsOutcome | Unavailable;
}

export function isUnavailable(v: object): v is Unavailable {
  return 'unavailable' in v;
}

/** Used until the dataplane lands: every probe is an error result, never a pass. */
export const unavailableProbes: TrafficProbes = {
  reach: () => ({ unavailable: 'the packet walk from a pod (dataplane reachability probe)' }),
  lookup: () => ({ unavailable: 'DNS lookups from a pod (dataplane resolver probe)' }),
};

/**
 * The probes the grader uses by default. The dataplane (src/engine/dataplane/) has CoreDNS answers,
 * stub resolvers and an iptables tracer, but no entry point yet that walks a connection or a lookup
 * from a pod through the whole cluster; wire it here when it exists.
 */
export const defaultProbes: TrafficProbes = unavailableProbes;

export function hopMessage(hop: Hop): Message {
  switch (hop.kind) {
    case 'network-policy':
      return msg('hop.networkPolicy', { ref: `${hop.namespace}/${hop.name}`, direction: hop.direction });
    case 'policy-isolation':
      return msg('hop.policyIsolation', { pod: `${hop.namespace}/${hop.pod}`, direction: hop.direction });
    case 'netfilter':
      return msg('hop.netfilter', { table: hop.table, chain: hop.chain, verdict: hop.verdict });
    case 'no-endpoints':
      return msg('hop.noEndpoints', { ref: `${hop.namespace}/${hop.service}` });
    case 'no-listener':
      return msg('hop.noListener', { ip: hop.ip, port: hop.port, pod: `${hop.namespace}/${hop.pod}` });
    case 'no-route':
      return msg('hop.noRoute', { ip: hop.ip });
    case 'delivered':
      return msg('hop.delivered', { pod: `${hop.namespace}/${hop.pod}`, ip: hop.ip, port: hop.port });
    case 'external':
      return msg('hop.external', { ip: hop.ip, port: hop.port });
  }
}
