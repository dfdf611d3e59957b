/** The shape every CNI plugin chain has in the simulator (see index.ts). */
import type { IpamRange } from '../ipam.ts';

export interface CniPlugin {
  readonly name: 'flannel' | 'calico' | 'cilium';
  /** The network name in the conflist (`cbr0`, `k8s-pod-network`, `cilium`). */
  readonly network: string;
  /** The first plugin's `type`, as the runtime names it in errors (`plugin type="flannel" failed (add)`). */
  readonly pluginType: string;
  /** The conflist file name under the CNI config directory. */
  readonly confFile: string;
  readonly conflist: string;
  /** Prefix length of the pod's eth0 address (/24 on a bridge, /32 for routed CNIs). */
  readonly podPrefix: number;
  /** Encapsulation overhead subtracted from the node MTU (VXLAN 50, IP-in-IP 20). */
  readonly mtuOverhead: number;
  ipamRange(podCIDR: string): IpamRange | undefined;
  /** The plugin chain's wording around an IPAM failure. */
  wrapIpamError(error: string): string;
  /** The pod's default gateway as seen from inside the pod. */
  gateway(podCIDR: string): string;
  /** The host side of the pod's veth pair (`vethXXXXXXXX`, `caliXXXXXXXXXXX`, `lxcXXXXXXXXXXXX`). */
  hostInterface(namespace: string, name: string, sandboxId: string): string;
  /** Node-level interfaces the plugin creates (bridge, tunnel, host device). */
  readonly nodeInterfaces: readonly string[];
}
