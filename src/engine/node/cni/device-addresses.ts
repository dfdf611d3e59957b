/**
 * The addresses a CNI gives a node's own devices besides eth0 (each plugin's `deviceAddresses`):
 * flannel's VTEP and bridge, Calico's tunnel device, Cilium's router. `ip addr` shows them, and they
 * are local addresses of the node: kube-proxy's IPVS proxier binds a NodePort on each of them (the
 * local routing table's addresses, loopback and kube-ipvs0 aside).
 */
import type { CniDataplane, DeviceAddress } from './types.ts';
import { cniPlugin } from './index.ts';

export type { DeviceAddress } from './types.ts';

export function cniDeviceAddresses(dp: CniDataplane, podCIDR: string): DeviceAddress[] {
  return cniPlugin(dp.cni).deviceAddresses(dp, podCIDR);
}
