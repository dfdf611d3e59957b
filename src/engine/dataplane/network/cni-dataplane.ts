/**
 * How the cluster's CNI carries pod traffic, read from the add-on's own configuration the way the
 * agents read it:
 *
 * - flannel: `net-conf.json` in the `kube-flannel-cfg` ConfigMap (`Backend.Type`: vxlan by default,
 *   host-gw without encapsulation); the pod MTU is `FLANNEL_MTU` from subnet.env (node MTU − 50 for
 *   VXLAN) unless `cni-conf.json` sets `"mtu"` in its delegate (the flannel CNI plugin only fills the
 *   MTU in when the delegate has none — that is how a wrong 1500 gets inside VXLAN). k3s runs flannel
 *   in-process with VXLAN.
 * - calico: the `calico-node` env `CALICO_IPV4POOL_IPIP` / `CALICO_IPV4POOL_VXLAN` (calico.yaml ships
 *   IPIP Always; Never on both means plain BGP routes); `veth_mtu` in a `calico-config` ConfigMap when
 *   set, else auto-detected (node MTU − encapsulation).
 * - cilium: `cilium-config` (`routing-mode`, `tunnel-protocol`, `mtu`), VXLAN on UDP 8472 by default.
 *
 * The settings are read per node as its agent read them (node/cni/cni-settings.ts).
 *
 * Simplified: one encapsulation for the whole cluster; CrossSubnet counts as native (all nodes share
 * one L2 network in kind and k3s-on-multipass).
 */
import type { Pod } from '../../api/objects.ts';
import type { DataplaneHost } from './view.ts';
import {
  currentCniSettings,
  dataplaneFor,
  nodeCniSettings,
  recordedPodMtu,
  type CniDataplane,
} from '../../node/cni/cni-settings.ts';

export type { CniDataplane, Encapsulation } from '../../node/cni/cni-settings.ts';

/**
 * The CNI dataplane with the settings in force on `node` (what its agent read when it started), or
 * with the cluster's current settings when no node is named.
 */
export function cniDataplane(cluster: DataplaneHost, node?: string): CniDataplane {
  const { cni, nodeMTU } = cluster.config;
  const settings =
    node === undefined
      ? currentCniSettings(cluster.store, cni)
      : nodeCniSettings(cluster.store, cluster.nodeState, cni, node);
  return dataplaneFor(cni, settings, nodeMTU);
}

/**
 * The MTU of a pod's eth0: what CNI ADD gave it when its sandbox was created (a pod keeps it until
 * it is recreated), else what its node's settings give a new pod. hostNetwork pods use the node's.
 */
export function podMtuOf(cluster: DataplaneHost, pod: Pod): number {
  const node = pod.spec?.nodeName ?? '';
  if (pod.spec?.hostNetwork) return cluster.config.nodeMTU;
  return recordedPodMtu(cluster.nodeState, node, pod.metadata.uid) ?? cniDataplane(cluster, node).podMtu;
}

/**
 * The largest inner packet that crosses between nodes. A pod MTU above it is the classic black hole:
 * the handshake and small requests fit, a full-size segment is dropped at the tunnel and TCP
 * retransmits it until it gives up.
 */
export function pathMtu(dp: CniDataplane, crossNode: boolean): number {
  return crossNode ? dp.nodeMtu - dp.overhead : dp.podMtu;
}
