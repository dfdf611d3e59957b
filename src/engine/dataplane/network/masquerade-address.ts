/**
 * The source address MASQUERADE gives a packet: not "the node's IP" but the kernel's choice for the
 * interface the packet leaves through (nf_nat_masquerade_ipv4 → inet_select_addr(out, nexthop,
 * RT_SCOPE_UNIVERSE)): that device's own global address when it has one, otherwise the first global
 * address of any device in creation order. So on a flannel node a NodePort packet DNATed to a pod
 * on the same node leaves through `cni0` and reaches the pod from 10.244.N.1, and one for a pod on
 * another node leaves through `flannel.1` and arrives from 10.244.N.0 — what the backend logs as
 * the client, checked against a real kernel in test/unit/kernel-oracle.test.ts. Devices without an
 * address (Calico's and Cilium's routed veths, eth0-less cases) fall back: on a Calico IP-in-IP node
 * `tunl0` exists before `eth0`, so its address wins; elsewhere the first global address is eth0's.
 */
import { cniDeviceAddresses } from '../../node/cni/device-addresses.ts';
import type { CniDataplane } from './cni-dataplane.ts';
import { routeHops } from './routes.ts';
import type { NetworkView, NodeInfo } from './view.ts';

/** Devices a CNI creates before the node's eth0 (lower ifindex): Calico IP-in-IP's tunl0. */
const BEFORE_ETH0 = new Set(['tunl0']);

export function masqueradeAddress(
  view: NetworkView,
  dp: CniDataplane,
  node: NodeInfo,
  destIP: string,
): string {
  const addresses = cniDeviceAddresses(dp, node.podCIDR).filter((a) => a.scope === 'global');
  const pod = view.podByIP(destIP);
  const first = pod
    ? routeHops(
        view,
        dp,
        { node: node.name, ip: node.ip },
        { node: pod.spec?.nodeName ?? '', ip: destIP, pod },
      )[0]
    : undefined;
  const out = first?.kind === 'route' ? first.device : 'eth0';
  if (out === 'eth0') return node.ip;
  const own = addresses.find((a) => a.device === out);
  if (own) return own.address;
  return addresses.find((a) => BEFORE_ETH0.has(a.device))?.address ?? node.ip;
}
