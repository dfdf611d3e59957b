/**
 * The chains the cluster's network add-on keeps in a node's iptables, beside kube-proxy's: Calico's
 * felix chains; flannel's forward and masquerade chains (kind's kube-flannel and k3s's embedded flannel);
 * on k3s also kube-router's network policy chains, unless k3s runs with --disable-network-policy.
 * Cilium keeps its datapath in eBPF and writes only a few CILIUM_* chains, which are not modelled.
 */
import type { Pod } from '../../../api/objects.ts';
import type { DataplaneHost } from '../../network/view.ts';
import { cniDataplane } from '../../network/cni-dataplane.ts';
import type { CniChainSet } from './chain-set.ts';
import { felixChains } from './felix.ts';
import { flannelChains } from './flannel.ts';
import { kubeRouterChains } from './kube-router.ts';

export { mergeCniChains, type CniChainSet } from './chain-set.ts';

/** The node's pods with a network namespace of their own (what a CNI agent manages). */
export function cniManagedPods(cluster: DataplaneHost, node: string): Pod[] {
  return cluster.store
    .list('pods')
    .filter(
      (p) =>
        p.spec?.nodeName === node &&
        !p.spec.hostNetwork &&
        p.status?.podIP !== undefined &&
        p.status.phase !== 'Succeeded' &&
        p.status.phase !== 'Failed',
    );
}

export function cniChainsFor(cluster: DataplaneHost, node: string): CniChainSet[] {
  const config = cluster.config;
  if (config.disableDefaultCNI) return [];
  const pods = cniManagedPods(cluster, node);
  const policies = cluster.store.list('networkpolicies.networking.k8s.io');
  const sets: CniChainSet[] = [];
  if (config.cni === 'calico')
    sets.push(
      felixChains({ node, pods, policies, encapsulation: cniDataplane(cluster, node).encapsulation }),
    );
  if (config.cni === 'flannel') {
    const lease = cluster.store.get('nodes', undefined, node)?.spec?.podCIDR;
    if (lease) sets.push(flannelChains(config.podSubnet, lease));
    if (config.distribution === 'k3s' && !config.k3sDisableNetworkPolicy)
      sets.push(
        kubeRouterChains({ nowMs: cluster.clock.now(), serviceCIDR: config.serviceSubnet, pods, policies }),
      );
  }
  return sets;
}
