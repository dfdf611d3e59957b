/**
 * NetworkPolicy verdicts as hops. Policies see the connection after kube-proxy's DNAT (the backend
 * pod's IP and port, fact-check #80) and, at the destination, the source after any SNAT: a
 * masqueraded NodePort connection arrives from a node address, so only an ipBlock (or the
 * local-node rule) can allow it. Whether anything is enforced at all is the CNI's business
 * (`policyEnforcement`): flannel alone accepts policies and ignores them.
 */
import type { Pod } from '../../api/objects.ts';
import type { DataplaneHost } from './view.ts';
import { evaluate, type Endpoint, type PodEndpoint, type Verdict } from '../policy/evaluate.ts';
import { policyEnforcement } from '../policy/enforcement.ts';
import { policyIndex, type PolicyIndex } from '../policy/policy-index.ts';
import type { Hop, PolicyHopVerdict } from './types.ts';

const INDEX = new WeakMap<object, PolicyIndex>();

/** The compiled policies, rebuilt when the policy or namespace list changes. */
export function currentPolicyIndex(cluster: DataplaneHost): PolicyIndex {
  const policies = cluster.store.list('networkpolicies.networking.k8s.io');
  const namespaces = cluster.store.list('namespaces');
  const key = `${policies.map((p) => p.metadata.resourceVersion).join(',')}|${namespaces.map((n) => n.metadata.resourceVersion).join(',')}`;
  const cached = INDEX.get(cluster) as (PolicyIndex & { key?: string }) | undefined;
  if (cached && cached.key === key) return cached;
  const idx = Object.assign(policyIndex(policies, namespaces), { key });
  INDEX.set(cluster, idx);
  return idx;
}

export function podEndpoint(pod: Pod, nodeIP: string | undefined): PodEndpoint {
  return {
    kind: 'pod',
    namespace: pod.metadata.namespace ?? 'default',
    name: pod.metadata.name,
    labels: pod.metadata.labels ?? {},
    ip: pod.status?.podIP ?? '',
    ...(pod.spec?.nodeName ? { node: pod.spec.nodeName } : {}),
    ...(pod.spec?.hostNetwork ? { hostNetwork: true } : {}),
    ...(nodeIP ? { nodeIP } : {}),
    ports: (pod.spec?.containers ?? []).flatMap((c) =>
      (c.ports ?? []).map((p) => ({
        ...(p.name ? { name: p.name } : {}),
        containerPort: p.containerPort,
        protocol: (p.protocol ?? 'TCP') as 'TCP' | 'UDP' | 'SCTP',
      })),
    ),
  };
}

function verdictOf(v: Verdict): PolicyHopVerdict {
  if (!v.isolated) return 'not-isolated';
  return v.allowed ? 'allowed' : 'blocked';
}

export interface PolicyCheck {
  readonly allowed: boolean;
  readonly hop?: Hop;
}

/**
 * One direction's verdict for a new connection; no hop when the side is not a pod (nodes and the
 * outside world have no NetworkPolicy).
 */
export function policyCheck(
  cluster: DataplaneHost,
  direction: 'Egress' | 'Ingress',
  src: Endpoint,
  dst: Endpoint,
  port: number | undefined,
  protocol: 'TCP' | 'UDP' | 'ICMP',
): PolicyCheck {
  const subject = direction === 'Egress' ? src : dst;
  if (subject.kind !== 'pod' || subject.hostNetwork) return { allowed: true };
  const pod = { namespace: subject.namespace, name: subject.name };
  const peer = direction === 'Egress' ? dst.ip : src.ip;
  const enforcement = policyEnforcement(cluster.config);
  const base = {
    kind: 'network-policy' as const,
    direction,
    pod,
    enforcement: enforcement.reason,
    ...(enforcement.enforcer ? { enforcer: enforcement.enforcer } : {}),
    peer,
    ...(port !== undefined ? { port } : {}),
  };
  // NetworkPolicy ports only name TCP, UDP and SCTP; an ICMP echo matches a rule only when the rule
  // lists no ports at all — evaluate it as a portless TCP peer check.
  const evaluation = evaluate(
    { src, dst, port: port ?? 0, protocol: protocol === 'ICMP' ? 'TCP' : protocol },
    currentPolicyIndex(cluster),
  );
  const v = direction === 'Egress' ? evaluation.egress : evaluation.ingress;
  const icmpBlocked =
    protocol === 'ICMP' && v.isolated && v.allowedBy !== undefined && !allowsAnyPort(cluster, v, direction);
  if (!enforcement.enforced) {
    return {
      allowed: true,
      hop: { ...base, verdict: 'not-enforced', policies: v.policies },
    };
  }
  const allowed = v.allowed && !icmpBlocked;
  return {
    allowed,
    hop: {
      ...base,
      verdict: icmpBlocked ? 'blocked' : verdictOf(v),
      policies: v.policies,
      ...(v.allowedBy && !icmpBlocked ? { allowedBy: v.allowedBy } : {}),
    },
  };
}

function allowsAnyPort(cluster: DataplaneHost, v: Verdict, direction: 'Egress' | 'Ingress'): boolean {
  const ref = v.allowedBy;
  if (!ref) return false;
  const policy = cluster.store.get('networkpolicies.networking.k8s.io', ref.namespace, ref.name);
  const rules = direction === 'Egress' ? policy?.spec?.egress : policy?.spec?.ingress;
  const rule = rules?.[ref.rule];
  return rule !== undefined && (rule.ports ?? []).length === 0;
}
