/**
 * Which node receives traffic for a LoadBalancer VIP that is not a node address. MetalLB in layer 2
 * mode has one speaker answer ARP for the VIP: the nodes that may announce (with
 * externalTrafficPolicy Local, only those with a ready local endpoint) are sorted by
 * sha256(node + "#" + ip) and the first wins (metallb `speaker/layer2_controller.go` ShouldAnnounce).
 * A VIP nobody announces gets no ARP reply: nothing reaches the cluster.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Service } from '../../api/objects.ts';
import type { NetworkView, NodeInfo } from './view.ts';

function localEndpointNodes(view: NetworkView, svc: Service): Set<string> {
  const out = new Set<string>();
  for (const slice of view.cluster.store.list('endpointslices.discovery.k8s.io', svc.metadata.namespace)) {
    if (slice.metadata.labels?.['kubernetes.io/service-name'] !== svc.metadata.name) continue;
    for (const ep of slice.endpoints ?? []) {
      if (ep.conditions?.ready !== false && ep.nodeName) out.add(ep.nodeName);
    }
  }
  return out;
}

export function announcingNode(view: NetworkView, ip: string): NodeInfo | undefined {
  const svc = view
    .servicesByIP(ip)
    .find((s) => (s.status?.loadBalancer?.ingress ?? []).some((i) => i.ip === ip));
  if (!svc || svc.spec?.type !== 'LoadBalancer') return undefined;
  const local = svc.spec.externalTrafficPolicy === 'Local' ? localEndpointNodes(view, svc) : undefined;
  const candidates = view.nodes.filter((n) => !local || local.has(n.name));
  const key = (n: NodeInfo) => bytesToHex(sha256(utf8ToBytes(`${n.name}#${ip}`)));
  return [...candidates].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))[0];
}
