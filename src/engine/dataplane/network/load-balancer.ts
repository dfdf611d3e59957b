/**
 * Which node receives traffic for a LoadBalancer VIP that is not a node address: the MetalLB speaker
 * that answers ARP for it in layer 2 mode. That takes an IPAddressPool holding the address *and* an
 * L2Advertisement covering the pool (and, with externalTrafficPolicy Local, a ready local endpoint on
 * the speaker's node): `announcingNode` (api/edge/metallb-pools.ts), the function the MetalLB
 * controller's `nodeAssigned` event names. An address assigned from a pool nobody advertises gets no ARP reply: nothing reaches the
 * cluster and the client times out (MetalLB docs, "Layer 2 configuration": "the L2Advertisement …
 * without it the IPs are not announced").
 */
import { announcingNode } from '../../api/edge/metallb-pools.ts';
import type { NetworkView, NodeInfo } from './view.ts';

export function announcingNodeInfo(view: NetworkView, ip: string): NodeInfo | undefined {
  const node = announcingNode(view.cluster.api, ip);
  return node ? view.nodeByName(node) : undefined;
}
