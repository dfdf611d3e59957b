/**
 * The chains the cluster's network add-on keeps in a node's iptables, beside kube-proxy's: Calico's
 * felix chains; flannel's forward and masquerade chains (kind's kube-flannel and k3s's embedded flannel);
 * on k3s also kube-router's network policy chains, unless k3s runs with --disable-network-policy.
 * Cilium keeps its datapath in eBPF and writes only a few CILIUM_* chains, which are not modelled.
 */
import type { CniName } from '../../../api/cluster-config.ts';
import { distributionOf } from '../../../api/distribution.ts';
import type { NetworkPolicy, Pod } from '../../../api/objects.ts';
import type { DataplaneHost } from '../../network/view.ts';
import { cniDataplane } from '../../network/cni-dataplane.ts';
import type { CniChainSet } from './chain-set.ts';
import { felixChains } from './felix.ts';
import { flannelChains } from './flannel.ts';
import { kindnetChains } from './kindnet.ts';
import { portMappings, portmapChains, type SandboxPorts } from './portmap.ts';
import { cniPlugin, sandboxId } from '../../../node/cni/index.ts';
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

/** What a CNI's chain renderer reads about the node. */
interface ChainInput {
  readonly cluster: DataplaneHost;
  readonly node: string;
  readonly pods: readonly Pod[];
  readonly policies: readonly NetworkPolicy[];
}

/** Each CNI's iptables chains on a node (Cilium's datapath is eBPF: none modelled). */
const CNI_CHAINS: Record<CniName, (input: ChainInput) => CniChainSet[]> = {
  calico: ({ cluster, node, pods, policies }) => [
    felixChains({ node, pods, policies, encapsulation: cniDataplane(cluster, node).encapsulation }),
  ],
  flannel: ({ cluster, node }) => {
    const lease = cluster.store.get('nodes', undefined, node)?.spec?.podCIDR;
    return lease ? [flannelChains(cluster.config.podSubnet, lease)] : [];
  },
  cilium: () => [],
  kindnet: ({ cluster }) => [kindnetChains(cluster.config.podSubnet)],
};

/** The node's pod sandboxes as portmap saw them at CNI ADD (their hostPorts as port mappings). */
export function hostPortSandboxes(cluster: DataplaneHost, node: string): SandboxPorts[] {
  const plugin = cniPlugin(cluster.config.cni);
  if (!plugin.portmap || cluster.config.disableDefaultCNI) return [];
  return cniManagedPods(cluster, node)
    .map((p) => ({
      containerId: sandboxId(p.metadata.uid),
      podIP: p.status?.podIP ?? '',
      podPrefix: plugin.podPrefix,
      mappings: portMappings(p),
    }))
    .filter((s) => s.mappings.length > 0);
}

export function cniChainsFor(cluster: DataplaneHost, node: string): CniChainSet[] {
  const config = cluster.config;
  if (config.disableDefaultCNI) return [];
  const input: ChainInput = {
    cluster,
    node,
    pods: cniManagedPods(cluster, node),
    policies: cluster.store.list('networkpolicies.networking.k8s.io'),
  };
  // portmap inserts its POSTROUTING hook once, at CNI ADD; felix keeps re-inserting its own above it.
  const plugin = cniPlugin(config.cni);
  const sets = [
    ...(plugin.portmap ? [portmapChains(plugin.network, hostPortSandboxes(cluster, node))] : []),
    ...CNI_CHAINS[config.cni](input),
  ];
  if (distributionOf(config).embeddedPolicyController(config))
    sets.push(
      kubeRouterChains({
        nowMs: cluster.clock.now(),
        serviceCIDR: config.serviceSubnet,
        pods: input.pods,
        policies: input.policies,
      }),
    );
  return sets;
}
