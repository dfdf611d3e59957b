/**
 * The Service step of a connection's first packet, on the node where it enters netfilter: kube-proxy's
 * rules in whatever mode runs there (with conntrack: a packet of a known connection follows its entry),
 * or, with Cilium's kube-proxy replacement, Cilium's own socket-level load balancing — no KUBE-* rule
 * exists, the BPF service map picks a backend at connect() time.
 *
 * Simplified for Cilium: random backend choice, no session affinity, no conntrack table of its own;
 * a Service with no backends refuses the connection (the BPF socket LB answers ECONNREFUSED).
 */
import { hostPortSandboxes } from '../netfilter/cni/index.ts';
import { dnatChainName, hostPortTarget, TOP_LEVEL_DNAT_CHAIN } from '../netfilter/cni/portmap.ts';
import { parseCidr } from '../../util/ip.ts';
import { cniPlugin } from '../../node/cni/index.ts';
import type { EndpointSlice } from '../../api/objects.ts';
import type { Rng } from '../../util/rng.ts';
import type { Packet, RuleHit } from '../netfilter/packet.ts';
import { categorizeEndpoints } from '../proxy/categorize-endpoints.ts';
import { buildEndpointsMap } from '../proxy/endpoints-map.ts';
import type { KubeProxy } from '../proxy/kube-proxy.ts';
import type { ProxyRoute } from '../proxy/route.ts';
import { buildServicePortMap, keyOf, type ServicePortInfo } from '../proxy/service-port-map.ts';
import { cniDataplane } from './cni-dataplane.ts';
import { kubeProxyOf } from './kube-proxy-of.ts';
import { masqueradeAddress } from './masquerade-address.ts';
import type { PodRef } from './types.ts';
import type { NetworkView, NodeInfo } from './view.ts';

export interface Translation {
  readonly mode: string;
  readonly verdict: 'DNAT' | 'REJECT' | 'DROP' | 'ACCEPT';
  readonly dnatTo?: string;
  readonly masquerade: boolean;
  readonly matched: readonly RuleHit[];
  readonly evaluatedRules: number;
  readonly established: boolean;
  /** The kube-proxy route, for conntrack updates once the connection is answered and closed. */
  readonly proxyRoute?: ProxyRoute;
  readonly proxy?: KubeProxy;
  /** The Service port the packet was addressed to, when one owns the address and port. */
  readonly service?: ServicePortInfo;
  /** IPVS mode binds every Service address to kube-ipvs0: the node itself owns them. */
  readonly ipvsLocal?: boolean;
}

/** The Service port that owns `ip:port` as ClusterIP, externalIP, LoadBalancer VIP or NodePort on a node IP. */
export function servicePortFor(
  view: NetworkView,
  ip: string,
  port: number | undefined,
  protocol: string,
): ServicePortInfo | undefined {
  const byIP = view.servicesByIP(ip);
  const candidates = byIP.length > 0 ? buildServicePortMap(byIP) : [];
  if (port !== undefined) {
    const hit = candidates.find((sp) => sp.port === port && sp.protocol === protocol);
    if (hit) return hit;
    if (view.nodeByIP(ip) || ip.startsWith('127.')) {
      const all = buildServicePortMap(view.cluster.store.list('services'));
      return all.find((sp) => sp.nodePort === port && sp.protocol === protocol);
    }
  }
  return candidates[0] && port === undefined ? candidates[0] : undefined;
}

export function servicePodRef(sp: ServicePortInfo): PodRef {
  return { namespace: sp.namespace, name: sp.name };
}

function ciliumTranslate(view: NetworkView, node: NodeInfo, p: Packet, rng: Rng): Translation {
  const sp = servicePortFor(view, p.destIP, p.destPort, p.protocol);
  const base = { mode: 'cilium', masquerade: false, evaluatedRules: 1, established: false };
  if (!sp || p.protocol === 'ICMP') return { ...base, verdict: 'ACCEPT', matched: [] };
  const slices = view.cluster.store.list('endpointslices.discovery.k8s.io') as EndpointSlice[];
  const endpoints = buildEndpointsMap(slices, node.name).get(keyOf(sp)) ?? [];
  const cat = categorizeEndpoints(endpoints, sp, node.name, node.labels);
  const external = p.destIP !== sp.clusterIP;
  const pool = external && sp.externalPolicyLocal ? cat.localEndpoints : cat.clusterEndpoints;
  const element = `${p.destIP}:${p.destPort}/${p.protocol}`;
  if (pool.length === 0) {
    const hit = { table: 'bpf', chain: 'cilium_lb4_services_v2', rule: `${element} (no backends)` };
    return {
      ...base,
      verdict: external && sp.externalPolicyLocal && cat.hasAnyEndpoints ? 'DROP' : 'REJECT',
      matched: [hit],
      service: sp,
    };
  }
  const ep = pool[rng.int(pool.length)]!;
  const remote = ep.nodeName !== undefined && ep.nodeName !== node.name;
  return {
    ...base,
    verdict: 'DNAT',
    dnatTo: ep.endpoint,
    // Without DSR, Cilium SNATs NodePort/LoadBalancer traffic it forwards to another node.
    masquerade: external && !sp.externalPolicyLocal && remote,
    matched: [{ table: 'bpf', chain: 'cilium_lb4_services_v2', rule: `${element} → ${ep.endpoint}` }],
    service: sp,
  };
}

/**
 * portmap's DNAT of a hostPort on one of the node's own addresses (netfilter/cni/portmap.ts): the
 * packet walks CNI-HOSTPORT-DNAT into the sandbox's CNI-DN-… chain; hairpin and localhost sources
 * are marked for CNI-HOSTPORT-MASQ.
 */
function hostPortTranslation(view: NetworkView, node: NodeInfo, p: Packet): Translation | undefined {
  if (p.destPort === undefined || (p.destIP !== node.ip && p.destIP !== '127.0.0.1')) return undefined;
  const sandboxes = hostPortSandboxes(view.cluster, node.name);
  const hit = hostPortTarget(sandboxes, p.destIP, p.destPort, p.protocol);
  if (!hit) return undefined;
  const network = cniPlugin(view.config.cni).network;
  const chain = dnatChainName(network, hit.sandbox.containerId);
  const own = parseCidr(`${hit.sandbox.podIP}/${hit.sandbox.podPrefix}`);
  const src = parseCidr(`${p.srcIP}/32`);
  const inContainerNet =
    own !== undefined &&
    src !== undefined &&
    src.base >>> (32 - own.prefix) === own.base >>> (32 - own.prefix);
  const masquerade =
    p.srcIP === '127.0.0.1' || (own?.prefix === 32 ? p.srcIP === hit.sandbox.podIP : inContainerNet);
  return {
    mode: 'portmap',
    verdict: 'DNAT',
    dnatTo: hit.to,
    masquerade,
    matched: [
      { table: 'nat', chain: TOP_LEVEL_DNAT_CHAIN, rule: `-j ${chain}` },
      {
        table: 'nat',
        chain,
        rule: `-p ${p.protocol.toLowerCase()} -m ${p.protocol.toLowerCase()} --dport ${p.destPort} -j DNAT --to-destination ${hit.to}`,
      },
    ],
    evaluatedRules: 2,
    established: false,
  };
}

/** Runs the first packet of a connection through the entry node's Service handling. */
export function translate(view: NetworkView, node: NodeInfo, p: Packet, rng: Rng): Translation {
  if (view.config.kubeProxyMode === 'none') {
    if (cniPlugin(view.config.cni).replacesKubeProxy) return ciliumTranslate(view, node, p, rng);
    return {
      mode: 'none',
      verdict: 'ACCEPT',
      masquerade: false,
      matched: [],
      evaluatedRules: 0,
      established: false,
    };
  }
  const proxy = kubeProxyOf(view.cluster);
  const dp = cniDataplane(view.cluster, node.name);
  const route = proxy.route(node.name, p, rng, (destIP) => masqueradeAddress(view, dp, node, destIP));
  // kube-proxy's KUBE-SERVICES jump comes first in PREROUTING/OUTPUT; portmap's CNI-HOSTPORT-DNAT after.
  if (route.verdict === 'ACCEPT' && !route.established) {
    const mapped = hostPortTranslation(view, node, p);
    if (mapped) return mapped;
  }
  const sp = servicePortFor(view, p.destIP, p.destPort, p.protocol);
  const ipvs = route.mode === 'ipvs' ? proxy.rulesetFor(node.name)?.ipvs : undefined;
  const ipvsLocal = ipvs !== undefined && ipvs.dummyAddresses.includes(p.destIP);
  return {
    mode: route.mode,
    verdict: route.verdict,
    ...(route.dnatTo ? { dnatTo: route.dnatTo } : {}),
    masquerade: route.masquerade,
    matched: route.matched,
    evaluatedRules: route.evaluatedRules,
    established: route.established,
    proxyRoute: route,
    proxy,
    ...(sp ? { service: sp } : {}),
    ...(ipvsLocal ? { ipvsLocal } : {}),
  };
}
