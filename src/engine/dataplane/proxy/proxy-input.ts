/**
 * What every proxier mode renders from: the node it runs on, the service ports and endpoints it has
 * learned from the API, and its configuration. Built by the kube-proxy controller; the renderers are
 * pure functions of it.
 */
import type { EndpointsMap } from './endpoints-map.ts';
import type { ServicePortInfo } from './service-port-map.ts';

export interface ProxyNode {
  readonly name: string;
  /** The node's primary InternalIP. */
  readonly ip: string;
  readonly labels: Readonly<Record<string, string>>;
  /**
   * The node's other local addresses, loopback aside: what its CNI put on its own devices (flannel.1,
   * cni0, tunl0…). The IPVS proxier listens for NodePorts on each of them.
   */
  readonly localAddresses?: readonly string[];
}

export interface ProxyInput {
  readonly node: ProxyNode;
  /** Sorted by service-port key. */
  readonly servicePorts: readonly ServicePortInfo[];
  readonly endpoints: EndpointsMap;
  /**
   * KubeProxyConfiguration `clusterCIDR`: the local-traffic detector (`detectLocalMode: ClusterCIDR`).
   * Unset means no detector, so off-cluster traffic to ClusterIPs is not masqueraded.
   */
  readonly clusterCIDR?: string;
  /** The ServiceCIDRs (nftables mode drops traffic to unallocated ClusterIPs inside them). */
  readonly serviceCIDRs: readonly string[];
  readonly masqueradeAll?: boolean;
}

/** `1 << masqueradeBit` with the default bit 14 (kubernetes-facts §7). */
export const MASQUERADE_MARK = 0x4000;
