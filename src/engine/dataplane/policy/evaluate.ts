/**
 * NetworkPolicy semantics for one new connection (networking/v1 types.go doc comments; kubernetes-facts §5):
 *
 * - A pod no policy selects for a direction is not isolated in that direction: everything passes.
 * - Isolated pods accept only what at least one rule of one selecting policy allows; allows add up, there is
 *   no deny and no order.
 * - A peer's podSelector and namespaceSelector in the same entry are ANDed; separate entries are ORed. A
 *   podSelector alone means the policy's namespace; a namespaceSelector alone means every pod there.
 * - ipBlock matches by address, pods' addresses included: the e2e tests "should allow egress access to server
 *   in CIDR block" and "should enforce except clause…" put pod IPs in ipBlocks, and Cyclonus assumes the same.
 * - Ports: protocol defaults to TCP; a port may be a number (with endPort for a range) or a container port
 *   name, resolved against the destination pod's ports in both directions.
 * - "traffic from the pod's local node" is always allowed in (ingress doc); a hostNetwork pod is its node.
 * - Replies of an allowed connection are not evaluated: the caller tracks connections and calls this only
 *   for new ones.
 */
import type { Namespace, NetworkPolicy } from '../../api/objects.ts';
import { parseIPv4 } from '../../util/ip.ts';
import {
  inIpBlock,
  labelsOfNamespace,
  matches,
  policyIndex,
  type CompiledPeer,
  type CompiledPolicy,
  type CompiledPort,
  type CompiledRule,
  type PolicyIndex,
  type Protocol,
} from './policy-index.ts';

export type { Protocol };

export interface ContainerPort {
  readonly name?: string;
  readonly containerPort: number;
  readonly protocol?: Protocol;
}

export interface PodEndpoint {
  readonly kind: 'pod';
  readonly namespace: string;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly ip: string;
  readonly node?: string;
  readonly hostNetwork?: boolean;
  /** The node's IP, used when the pod is hostNetwork. */
  readonly nodeIP?: string;
  readonly ports?: readonly ContainerPort[];
}

export interface NodeEndpoint {
  readonly kind: 'node';
  readonly node: string;
  readonly ip: string;
}

/** An address outside the cluster (the internet, a client behind a LoadBalancer). */
export interface ExternalEndpoint {
  readonly kind: 'external';
  readonly ip: string;
}

export type Endpoint = PodEndpoint | NodeEndpoint | ExternalEndpoint;

export interface Connection {
  readonly src: Endpoint;
  readonly dst: Endpoint;
  /** Destination port after DNAT (policies see pod ports, not Service ports). */
  readonly port: number;
  readonly protocol: Protocol;
  /** The destination container port's name, when the caller already knows it. */
  readonly namedPort?: string;
}

export interface PolicyState {
  readonly policies: readonly NetworkPolicy[];
  readonly namespaces?: readonly Namespace[];
}

export interface PolicyRef {
  readonly namespace: string;
  readonly name: string;
}

export interface RuleRef extends PolicyRef {
  /** Index in spec.ingress / spec.egress. */
  readonly rule: number;
}

export type VerdictReason =
  | 'not-a-pod'
  | 'not-isolated'
  | 'allowed-by-rule'
  | 'no-rule-allowed'
  | 'from-local-node';

export interface Verdict {
  readonly allowed: boolean;
  readonly isolated: boolean;
  /** Policies selecting the pod for this direction, sorted. */
  readonly policies: readonly PolicyRef[];
  /** The first rule (policy order, then rule order) that allows the connection. */
  readonly allowedBy?: RuleRef;
  readonly reason: VerdictReason;
}

export interface Evaluation {
  readonly allowed: boolean;
  readonly egress: Verdict;
  readonly ingress: Verdict;
}

/** A hostNetwork pod has no identity of its own to policies: it is its node. */
function normalize(e: Endpoint): Endpoint {
  if (e.kind === 'pod' && e.hostNetwork) return { kind: 'node', node: e.node ?? '', ip: e.nodeIP ?? e.ip };
  return e;
}

function peerMatches(peer: CompiledPeer, policyNs: string, other: Endpoint, idx: PolicyIndex): boolean {
  if (peer.invalid) return false;
  if (peer.ipBlock) {
    const ip = parseIPv4(other.ip);
    return ip !== undefined && inIpBlock(peer.ipBlock, ip);
  }
  if (other.kind !== 'pod') return false;
  if (peer.namespaceSelector) {
    if (!matches(peer.namespaceSelector, labelsOfNamespace(idx, other.namespace))) return false;
  } else if (other.namespace !== policyNs) {
    return false;
  }
  return peer.podSelector ? matches(peer.podSelector, other.labels) : true;
}

function portMatches(p: CompiledPort, conn: Connection, dst: Endpoint): boolean {
  if (p.protocol !== conn.protocol) return false;
  if (p.port === undefined) return true;
  if (typeof p.port === 'number')
    return p.endPort !== undefined ? conn.port >= p.port && conn.port <= p.endPort : conn.port === p.port;
  if (conn.namedPort !== undefined) return conn.namedPort === p.port;
  if (dst.kind !== 'pod') return false;
  return (dst.ports ?? []).some(
    (cp) => cp.name === p.port && (cp.protocol ?? 'TCP') === conn.protocol && cp.containerPort === conn.port,
  );
}

function ruleAllows(
  rule: CompiledRule,
  policyNs: string,
  peer: Endpoint,
  conn: Connection,
  dst: Endpoint,
  idx: PolicyIndex,
): boolean {
  if (rule.ports.length > 0 && !rule.ports.some((p) => portMatches(p, conn, dst))) return false;
  if (rule.peers.length === 0) return true;
  return rule.peers.some((p) => peerMatches(p, policyNs, peer, idx));
}

function side(
  direction: 'ingress' | 'egress',
  pod: Endpoint,
  peer: Endpoint,
  conn: Connection,
  dst: Endpoint,
  idx: PolicyIndex,
): Verdict {
  if (pod.kind !== 'pod') return { allowed: true, isolated: false, policies: [], reason: 'not-a-pod' };
  const selecting: CompiledPolicy[] = [];
  for (const p of idx.byNamespace.get(pod.namespace) ?? []) {
    if (!p.invalid && p[direction] !== undefined && matches(p.podSelector, pod.labels)) selecting.push(p);
  }
  const policies = selecting.map((p) => ({ namespace: p.namespace, name: p.name }));
  if (selecting.length === 0) return { allowed: true, isolated: false, policies, reason: 'not-isolated' };
  if (direction === 'ingress' && peer.kind === 'node' && pod.node !== undefined && peer.node === pod.node) {
    return { allowed: true, isolated: true, policies, reason: 'from-local-node' };
  }
  for (const p of selecting) {
    const rules = p[direction]!;
    for (let i = 0; i < rules.length; i++) {
      if (ruleAllows(rules[i]!, p.namespace, peer, conn, dst, idx)) {
        return {
          allowed: true,
          isolated: true,
          policies,
          allowedBy: { namespace: p.namespace, name: p.name, rule: i },
          reason: 'allowed-by-rule',
        };
      }
    }
  }
  return { allowed: false, isolated: true, policies, reason: 'no-rule-allowed' };
}

/** Whether a new connection passes the source's egress and the destination's ingress policies. */
export function evaluate(conn: Connection, state: PolicyState | PolicyIndex): Evaluation {
  const idx = 'byNamespace' in state ? state : policyIndex(state.policies, state.namespaces);
  const src = normalize(conn.src);
  const dst = normalize(conn.dst);
  const egress = side('egress', src, dst, conn, dst, idx);
  const ingress = side('ingress', dst, src, conn, dst, idx);
  return { allowed: egress.allowed && ingress.allowed, egress, ingress };
}
