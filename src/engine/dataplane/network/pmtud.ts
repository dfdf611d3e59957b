/**
 * What happens to a TCP segment too big for the path between nodes, per CNI. Linux TCP sends with DF
 * set (ip_no_pmtu_disc=0: IP_PMTUDISC_WANT), so nothing fragments the inner packet; the question is
 * whether the sender learns the path MTU:
 *
 * - flannel (VXLAN through flannel.1, or host-gw) and Calico (IP-in-IP through tunl0, VXLAN through
 *   vxlan.calico, or plain BGP routes): the pod's packet is *routed* by the node into the tunnel
 *   device. `ip_forward()` (net/ipv4/ip_forward.c) compares it with the output device's MTU and, DF
 *   being set, answers `icmp_send(ICMP_DEST_UNREACH, ICMP_FRAG_NEEDED, mtu)` and drops it. The error is
 *   RELATED to the connection (conntrack undoes the Service DNAT in it; NetworkPolicy enforcers accept
 *   RELATED), the sender's TCP lowers its path MTU (tcp_v4_mtu_reduced) and resends smaller segments:
 *   the transfer completes, one round trip later. As flannel's maintainers put it, path MTU
 *   discovery takes care of it (flannel-io/flannel#463).
 * - Cilium's tunnel: the eBPF program on the pod's lxc device redirects the packet straight to
 *   cilium_vxlan/cilium_geneve (bpf_redirect), so ip_forward never sees it, and the tunnel device's own
 *   check, `skb_tunnel_check_pmtu()` (net/ipv4/ip_tunnel_core.c, Linux 5.9+), builds an ICMP reply only
 *   for tunnels that are bridge ports (`netif_is_any_bridge_port`), which Cilium's are not. No ICMP
 *   comes back: the full-size segment is lost every time and the transfer hangs while small requests
 *   work. (Simplified: the outer packet is taken as lost; fragmentation of the outer packet is not
 *   modelled. Cilium normally avoids this by giving pods a route MTU below the tunnel's.)
 */
import { cniPlugin } from '../../node/cni/index.ts';
import type { CniDataplane } from './cni-dataplane.ts';

export interface PmtudOutcome {
  /** Whether a node answers ICMP "fragmentation needed" to the sender. */
  readonly icmp: boolean;
  /** The device whose MTU the oversize packet meets. */
  readonly device: string;
}

export function pmtudOutcome(dp: CniDataplane): PmtudOutcome {
  const device = dp.tunnelDevice ?? 'eth0';
  return { icmp: cniPlugin(dp.cni).tunnelSendsFragNeeded(dp), device };
}
