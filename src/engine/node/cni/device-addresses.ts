/**
 * The addresses a CNI gives a node's own devices besides eth0: flannel's VTEP (`flannel.1`, the pod
 * CIDR's network address as a /32) and bridge (`cni0`, its first host address), Calico's tunnel
 * device (`tunl0` or `vxlan.calico`, a /32 from the node's block) and Cilium's router (`cilium_host`).
 * `ip addr` shows them, and they are local addresses of the node: kube-proxy's IPVS proxier binds a
 * NodePort on each of them (the local routing table's addresses, loopback and kube-ipvs0 aside).
 */
import { formatIPv4, parseCidr } from '../../util/ip.ts';
import type { CniDataplane } from './cni-settings.ts';
import { cniPlugin } from './index.ts';

export interface DeviceAddress {
  readonly device: string;
  readonly address: string;
  readonly prefix: number;
  readonly scope: 'global' | 'link';
}

export function cniDeviceAddresses(dp: CniDataplane, podCIDR: string): DeviceAddress[] {
  const cidr = parseCidr(podCIDR);
  if (!cidr) return [];
  const first = formatIPv4(cidr.base);
  const out: DeviceAddress[] = [];
  if (dp.cni === 'flannel') {
    if (dp.encapsulation === 'vxlan')
      out.push({ device: 'flannel.1', address: first, prefix: 32, scope: 'global' });
    out.push({ device: 'cni0', address: formatIPv4(cidr.base + 1), prefix: cidr.prefix, scope: 'global' });
  } else if (dp.cni === 'calico' && dp.encapsulation === 'ipip') {
    out.push({ device: 'tunl0', address: first, prefix: 32, scope: 'global' });
  } else if (dp.cni === 'calico' && dp.encapsulation === 'vxlan') {
    out.push({ device: 'vxlan.calico', address: first, prefix: 32, scope: 'global' });
  } else if (dp.cni === 'cilium') {
    const router = cniPlugin('cilium').gateway(podCIDR);
    if (router) out.push({ device: 'cilium_host', address: router, prefix: 32, scope: 'link' });
  }
  return out;
}
