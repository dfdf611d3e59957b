/**
 * Who holds a socket at the end of the path. In a pod: what its running containers listen on
 * (`listeningSockets`, from the image and arguments, never from declared containerPorts). On a node:
 * the sockets of its hostNetwork pods (kube-proxy's healthz, the control plane, CNI agents), the
 * kubelet's 10250, and kube-proxy's per-Service health check ports (`healthCheckNodePort`, opened on
 * every node for LoadBalancer Services with externalTrafficPolicy Local).
 */
import { distributionOf } from '../../api/distribution.ts';
import type { Pod } from '../../api/objects.ts';
import { listeningSockets, type ListeningSocket } from '../../node/container-runtime.ts';
import type { Responder } from '../../node/responders.ts';
import { buildEndpointsMap } from '../proxy/endpoints-map.ts';
import { buildServicePortMap, keyOf } from '../proxy/service-port-map.ts';
import { isRunning, type NetworkView } from './view.ts';

export type ListenerResponder =
  | Responder
  | {
      readonly kind: 'kube-proxy-healthcheck';
      readonly namespace: string;
      readonly name: string;
      readonly localEndpoints: number;
    };

export interface Listener {
  readonly port: number;
  readonly protocol: 'TCP' | 'UDP';
  readonly process: string;
  readonly responder: ListenerResponder;
  readonly address: string;
  readonly container?: string;
  /** The pod holding the socket (a hostNetwork pod for node sockets). */
  readonly pod?: Pod;
}

function accepts(address: string, destIP: string, loopback: boolean): boolean {
  if (address === '0.0.0.0') return true;
  if (address.startsWith('127.')) return loopback;
  return address === destIP;
}

export function podListener(
  pod: Pod,
  port: number,
  protocol: 'TCP' | 'UDP',
  destIP: string,
  now: number,
): Listener | undefined {
  const loopback = destIP.startsWith('127.');
  const s = listeningSockets(pod, now).find(
    (l: ListeningSocket) =>
      l.port === port && l.protocol === protocol && accepts(l.address, destIP, loopback),
  );
  return s ? { ...s, pod } : undefined;
}

/** Sockets in a node's own network namespace. */
export function nodeListeners(view: NetworkView, node: string): Listener[] {
  const out: Listener[] = [];
  for (const pod of view.cluster.store.list('pods')) {
    if (!pod.spec?.hostNetwork || pod.spec.nodeName !== node || !isRunning(pod)) continue;
    for (const s of listeningSockets(pod, view.now)) out.push({ ...s, pod });
  }
  out.push({
    port: 10250,
    protocol: 'TCP',
    process: 'kubelet',
    responder: { kind: 'tls' },
    address: '0.0.0.0',
  });
  const apiServerProcess = distributionOf(view.config).apiServerProcess;
  if (apiServerProcess && view.config.nodes.find((n) => n.name === node)?.role === 'control-plane')
    out.push({
      port: 6443,
      protocol: 'TCP',
      process: apiServerProcess,
      responder: { kind: 'tls' },
      address: '0.0.0.0',
    });
  const slices = view.cluster.store.list('endpointslices.discovery.k8s.io');
  let endpoints: ReturnType<typeof buildEndpointsMap> | undefined;
  for (const sp of buildServicePortMap(view.cluster.store.list('services'))) {
    if (sp.healthCheckNodePort === 0 || out.some((l) => l.port === sp.healthCheckNodePort)) continue;
    endpoints ??= buildEndpointsMap(slices, node);
    const local = (endpoints.get(keyOf(sp)) ?? []).filter((e) => e.isLocal && e.ready).length;
    out.push({
      port: sp.healthCheckNodePort,
      protocol: 'TCP',
      process: view.config.kubeProxyMode === 'none' ? 'cilium-agent' : 'kube-proxy',
      responder: {
        kind: 'kube-proxy-healthcheck',
        namespace: sp.namespace,
        name: sp.name,
        localEndpoints: local,
      },
      address: '0.0.0.0',
    });
  }
  return out.sort((a, b) => a.port - b.port || a.protocol.localeCompare(b.protocol));
}

export function nodeListener(
  view: NetworkView,
  node: string,
  port: number,
  protocol: 'TCP' | 'UDP',
  destIP: string,
): Listener | undefined {
  const loopback = destIP.startsWith('127.');
  return nodeListeners(view, node).find(
    (l) => l.port === port && l.protocol === protocol && accepts(l.address, destIP, loopback),
  );
}
