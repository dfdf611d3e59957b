/**
 * What the packet path needs to know about the cluster right now, read from the API objects once per
 * connection: nodes with their addresses and pod CIDRs, running pods by IP, Services by the addresses
 * they own (ClusterIP, externalIPs, LoadBalancer ingress). Nothing is kept between connections, so
 * the view always follows the store.
 */
import { distributionOf } from '../../api/distribution.ts';
import type { Node, Pod, Service } from '../../api/objects.ts';
import type { ClusterConfig } from '../../api/cluster-config.ts';
import type { ApiStore } from '../../api/store.ts';
import type { ApiServer } from '../../apiserver/apiserver.ts';
import type { NodeLocalStore } from '../../controllers/runtime.ts';
import type { SimClock } from '../../util/clock.ts';
import type { Rng } from '../../util/rng.ts';
import type { KubeProxy } from '../proxy/kube-proxy.ts';
import { cidrContainsText } from '../../util/ip.ts';

import type { HostForwards } from './host-forwards.ts';
import type { DnsState } from './dns-client.ts';
/**
 * What the dataplane sees of the cluster (cluster/cluster.ts provides it): the objects, read from the
 * store on demand, and watched for the few things that must follow every change (the CoreDNS reload
 * log); the cluster's definition, clock and seeded randomness; kube-proxy's rendered rules; the nodes'
 * local state (CNI settings). Packets are computed from this; the dataplane writes no API objects.
 */
export interface DataplaneHost {
  readonly store: Pick<ApiStore, 'get' | 'list' | 'mustGet'>;
  readonly api: Pick<ApiServer, 'get' | 'list' | 'watch'>;
  readonly config: ClusterConfig;
  readonly clock: SimClock;
  readonly rng: Rng;
  readonly kubeProxy: KubeProxy;
  readonly nodeState: NodeLocalStore;
  /** The `kubectl port-forward` processes on the learner's machine (`curl localhost:PORT`). */
  readonly hostForwards: Pick<HostForwards, 'listening'>;
  /** The CoreDNS replicas' running Corefile, caches and `log` lines. */
  readonly dns: DnsState;
}

export interface NodeInfo {
  readonly name: string;
  readonly ip: string;
  readonly podCIDR: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly object?: Node;
}

export interface NetworkView {
  readonly cluster: DataplaneHost;
  readonly config: ClusterConfig;
  readonly now: number;
  readonly nodes: readonly NodeInfo[];
  nodeByName(name: string): NodeInfo | undefined;
  nodeByIP(ip: string): NodeInfo | undefined;
  /** The running (or terminating but still running) pod with its own network namespace at `ip`. */
  podByIP(ip: string): Pod | undefined;
  /** Every Service owning `ip` as ClusterIP, externalIP or LoadBalancer ingress IP. */
  servicesByIP(ip: string): readonly Service[];
  /** The node whose pod CIDR contains `ip`. */
  nodeForPodIP(ip: string): NodeInfo | undefined;
  inPodNetwork(ip: string): boolean;
  inServiceNetwork(ip: string): boolean;
}

/** The address the learner's machine has on the nodes' network (kind's docker bridge gateway, k3s's VM host). */
export function externalClientIP(config: ClusterConfig): string {
  return distributionOf(config).hostGateway;
}

export function isRunning(pod: Pod): boolean {
  return (
    pod.status?.phase === 'Running' &&
    (pod.status.containerStatuses ?? []).some((s) => s.state?.running !== undefined)
  );
}

export function serviceAddresses(svc: Service): string[] {
  const spec = svc.spec ?? {};
  const out = new Set<string>();
  for (const ip of spec.clusterIPs ?? (spec.clusterIP ? [spec.clusterIP] : []))
    if (ip !== 'None') out.add(ip);
  for (const ip of spec.externalIPs ?? []) out.add(ip);
  for (const ing of svc.status?.loadBalancer?.ingress ?? []) if (ing.ip) out.add(ing.ip);
  return [...out];
}

export function buildView(cluster: DataplaneHost): NetworkView {
  const config = cluster.config;
  const apiNodes = cluster.store.list('nodes');
  const nodes: NodeInfo[] = (
    apiNodes.length > 0
      ? apiNodes.map((n) => ({
          name: n.metadata.name,
          ip:
            n.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ??
            config.nodes.find((c) => c.name === n.metadata.name)?.internalIP ??
            '',
          podCIDR: n.spec?.podCIDR ?? '',
          labels: n.metadata.labels ?? {},
          object: n,
        }))
      : config.nodes.map((n) => ({ name: n.name, ip: n.internalIP, podCIDR: '', labels: n.labels }))
  ).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let pods: Map<string, Pod> | undefined;
  let services: Map<string, Service[]> | undefined;
  const podIndex = (): Map<string, Pod> => {
    if (pods) return pods;
    pods = new Map();
    for (const p of cluster.store.list('pods')) {
      const ip = p.status?.podIP;
      if (!ip || p.spec?.hostNetwork || !isRunning(p)) continue;
      // Two pods never share an address; a terminating one keeps it until its sandbox is gone.
      if (!pods.has(ip) || pods.get(ip)!.metadata.deletionTimestamp) pods.set(ip, p);
    }
    return pods;
  };
  const serviceIndex = (): Map<string, Service[]> => {
    if (services) return services;
    services = new Map();
    for (const s of cluster.store.list('services')) {
      for (const ip of serviceAddresses(s)) {
        const list = services.get(ip) ?? [];
        list.push(s);
        services.set(ip, list);
      }
    }
    return services;
  };
  return {
    cluster,
    config,
    now: cluster.clock.now(),
    nodes,
    nodeByName: (name) => nodes.find((n) => n.name === name),
    nodeByIP: (ip) => nodes.find((n) => n.ip === ip),
    podByIP: (ip) => podIndex().get(ip),
    servicesByIP: (ip) => serviceIndex().get(ip) ?? [],
    nodeForPodIP: (ip) => nodes.find((n) => n.podCIDR !== '' && cidrContainsText(n.podCIDR, ip)),
    inPodNetwork: (ip) => cidrContainsText(config.podSubnet, ip),
    inServiceNetwork: (ip) => cidrContainsText(config.serviceSubnet, ip),
  };
}
