/**
 * What the connection model calls when a packet reaches the north-south components:
 * `loadBalancerTarget` for a LoadBalancer address (MetalLB's L2 speaker node, or ServiceLB's node and
 * its svclb hostPort), then, once a request reaches an Ingress controller or Gateway pod,
 * `routeIngressRequest` / `routeGatewayRequest` with the state built for that pod.
 */
import type { DataplaneHost } from '../network/view.ts';
import { announcingNode } from '../../api/edge/metallb-pools.ts';
import { isPodReady } from '../../api/pod-status.ts';

export { routeIngressRequest, ingressCertificate } from '../../api/edge/ingress-routing.ts';
export type {
  IngressRoutingState,
  IngressRequest,
  IngressRouteResult,
  ServedCertificate,
} from '../../api/edge/ingress-routing.ts';
export { routeGatewayRequest } from '../../api/edge/gateway-routing.ts';
export type {
  GatewayRoutingState,
  GatewayRequest,
  GatewayRouteResult,
} from '../../api/edge/gateway-routing.ts';
export { ingressStateForPod, gatewayStateForPod, runningEdgeProxies } from '../../api/edge/edge-state.ts';
export { edgeImplementationOf } from '../../api/edge/implementations.ts';
export { announcingNode } from '../../api/edge/metallb-pools.ts';

export interface LoadBalancerTarget {
  /** The node whose network stack receives the packet. */
  readonly node: string;
  readonly service: { readonly namespace: string; readonly name: string };
  /** Who made the address answer: a MetalLB speaker (ARP) or a k3s svclb pod's hostPort. */
  readonly via: 'metallb-l2' | 'servicelb';
  /** The svclb pod holding the hostPort (ServiceLB). */
  readonly pod?: { readonly namespace: string; readonly name: string };
}

/**
 * Where a packet to a LoadBalancer address `ip:port` lands, or undefined when nothing answers (an
 * address MetalLB assigned but no speaker announces; a node without a ready svclb pod for that port).
 */
export function loadBalancerTarget(
  cluster: DataplaneHost,
  ip: string,
  port: number,
): LoadBalancerTarget | undefined {
  const api = cluster.api;
  for (const svc of api.list('services')) {
    if (svc.spec?.type !== 'LoadBalancer') continue;
    if (!(svc.status?.loadBalancer?.ingress ?? []).some((i) => i.ip === ip)) continue;
    if (!(svc.spec.ports ?? []).some((p) => p.port === port)) continue;
    const service = { namespace: svc.metadata.namespace ?? 'default', name: svc.metadata.name };
    const node = api.list('nodes').find((n) => (n.status?.addresses ?? []).some((a) => a.address === ip));
    if (node) {
      const pod = api
        .list('pods', 'kube-system')
        .find(
          (p) =>
            p.spec?.nodeName === node.metadata.name &&
            p.metadata.labels?.['svccontroller.k3s.cattle.io/svcname'] === service.name &&
            p.metadata.labels['svccontroller.k3s.cattle.io/svcnamespace'] === service.namespace &&
            isPodReady(p) &&
            (p.spec.containers ?? []).some((c) => (c.ports ?? []).some((cp) => cp.hostPort === port)),
        );
      if (pod)
        return {
          node: node.metadata.name,
          service,
          via: 'servicelb',
          pod: { namespace: 'kube-system', name: pod.metadata.name },
        };
      continue;
    }
    const speaker = announcingNode(api, ip);
    if (speaker) return { node: speaker, service, via: 'metallb-l2' };
  }
  return undefined;
}
