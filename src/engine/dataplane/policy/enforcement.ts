/**
 * Who enforces NetworkPolicy (fact-check rows 15 and 56): the API server stores every policy, but only the
 * network plugin acts on it. Calico, Cilium and kindnet (kube-network-policies, since kindnetd v1.0) enforce; flannel alone ignores policies silently (the
 * object is accepted and listed, nothing changes). k3s is the exception: it embeds kube-router's network
 * policy controller beside flannel, so policies are enforced unless k3s runs with `--disable-network-policy`
 * (k3s-io/docs networking-services.md).
 */
import { distributionOf } from '../../api/distribution.ts';
import type { ClusterConfig } from '../../api/cluster-config.ts';
import { cniPlugin } from '../../node/cni/index.ts';

/** Reason codes; the packet walk and the grader turn them into i18n keys. */
export type EnforcementReason =
  | 'enforced-by-cni'
  | 'enforced-by-k3s-kube-router'
  | 'not-enforced-by-flannel'
  | 'not-enforced-k3s-disabled'
  | 'no-cni';

export interface Enforcement {
  readonly enforced: boolean;
  readonly reason: EnforcementReason;
  /** The component that enforces (`calico`, `cilium`, `kube-router`), when one does. */
  readonly enforcer?: string;
}

export function policyEnforcement(config: ClusterConfig): Enforcement {
  if (config.disableDefaultCNI) return { enforced: false, reason: 'no-cni' };
  if (cniPlugin(config.cni).enforcesNetworkPolicy)
    return { enforced: true, reason: 'enforced-by-cni', enforcer: config.cni };
  const distribution = distributionOf(config);
  if (distribution.embeddedPolicyController(config))
    return { enforced: true, reason: 'enforced-by-k3s-kube-router', enforcer: 'kube-router' };
  if (distribution.bootstrap === 'k3s') return { enforced: false, reason: 'not-enforced-k3s-disabled' };
  return { enforced: false, reason: 'not-enforced-by-flannel' };
}

export function policyEnforced(config: ClusterConfig): boolean {
  return policyEnforcement(config).enforced;
}
