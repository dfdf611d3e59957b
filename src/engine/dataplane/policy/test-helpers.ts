/**
 * Builders mirroring the e2e suite's helpers (test/e2e/network/netpol/policies.go):
 * `GenNetworkPolicyWithNameAndPodSelector` + `SetSpecIngressRules` / `SetSpecEgressRules`, which set the rules
 * and add the matching entry to policyTypes. Conventions: namespaces x, y, z; the namespace label key is
 * `kubernetes.io/metadata.name`.
 */
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import type { NetworkPolicyEgressRule, NetworkPolicyIngressRule } from 'kubernetes-types/networking/v1';
import type { NetworkPolicy } from '../../api/objects.ts';

export const NS_LABEL = 'kubernetes.io/metadata.name';

export function netpol(
  namespace: string,
  name: string,
  podSelector: LabelSelector,
  rules: { ingress?: NetworkPolicyIngressRule[]; egress?: NetworkPolicyEgressRule[] },
): NetworkPolicy {
  const policyTypes: string[] = [];
  if (rules.ingress) policyTypes.push('Ingress');
  if (rules.egress) policyTypes.push('Egress');
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: {
      name,
      namespace,
      uid: `np-${namespace}-${name}`,
      resourceVersion: '1',
      creationTimestamp: '2025-01-01T00:00:00Z',
    },
    spec: { podSelector, policyTypes, ingress: rules.ingress, egress: rules.egress },
  };
}

export const pod = (name: string): LabelSelector => ({ matchLabels: { pod: name } });
export const ns = (name: string): LabelSelector => ({ matchLabels: { [NS_LABEL]: name } });
export const nsNotIn = (...names: string[]): LabelSelector => ({
  matchExpressions: [{ key: NS_LABEL, operator: 'NotIn', values: names }],
});
