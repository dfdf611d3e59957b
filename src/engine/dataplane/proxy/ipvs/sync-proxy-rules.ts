/**
 * kube-proxy's IPVS mode, `syncProxyRules` of `pkg/proxy/ipvs/proxier.go`: virtual servers per
 * service address, real servers from `CategorizeEndpoints` (with externalTrafficPolicy Local, only
 * this node's endpoints — or the cluster's when there are none, so local pods still reach the
 * Service, kubernetes#97081), the ipsets, the addresses bound to the `kube-ipvs0` dummy interface and
 * the iptables rules around them. IPVS mode is deprecated since v1.35 (KEP-5495).
 *
 * NodePort virtual servers listen on every local address of the node but loopback and kube-ipvs0's
 * (the proxier skips `IsLoopback()` addresses: a localhost NodePort is an iptables-mode feature, so
 * `curl 127.0.0.1:<nodePort>` is refused here). Simplified: graceful termination (weight 0 while
 * connections drain) is not modelled.
 */
import type { IptablesRestore } from '../../netfilter/iptables-restore.ts';
import { cidrContainsText } from '../../../util/ip.ts';
import { categorizeEndpoints } from '../categorize-endpoints.ts';
import type { EndpointInfo } from '../endpoints-map.ts';
import type { ProxyInput } from '../proxy-input.ts';
import { keyOf, type ServicePortInfo } from '../service-port-map.ts';
import * as ipset from './ipsets.ts';
import { ipvsIptablesRestore } from './iptables-rules.ts';
import type { RealServer, VirtualServer } from './ipvs-model.ts';

export const DEFAULT_SCHEDULER = 'rr';
export const DUMMY_DEVICE = 'kube-ipvs0';

export interface IpvsRuleset {
  readonly virtualServers: readonly VirtualServer[];
  readonly ipsets: ipset.IpsetState;
  /** Addresses bound to kube-ipvs0 (ClusterIPs, external and LoadBalancer IPs), sorted. */
  readonly dummyAddresses: readonly string[];
  /** The node addresses NodePort virtual servers listen on. */
  readonly nodePortAddresses: readonly string[];
  readonly iptables: IptablesRestore;
}

export interface IpvsOptions {
  /** KubeProxyConfiguration `ipvs.scheduler`; empty means rr. */
  readonly scheduler?: string;
}

export function renderIpvs(input: ProxyInput, opts: IpvsOptions = {}): IpvsRuleset {
  const scheduler = opts.scheduler || DEFAULT_SCHEDULER;
  const sets = ipset.emptyIpsets();
  const add = (set: string, entry: string) => sets.get(set)?.add(entry);
  const vss: VirtualServer[] = [];
  const bound = new Set<string>();
  const nodeAddresses = [input.node.ip, ...(input.node.localAddresses ?? [])];

  for (const sp of input.servicePorts) {
    const proto = sp.protocol.toLowerCase();
    const all = input.endpoints.get(keyOf(sp)) ?? [];
    const cat = categorizeEndpoints(all, sp, input.node.name, input.node.labels);
    const pick = (onlyLocal: boolean): readonly EndpointInfo[] =>
      onlyLocal
        ? cat.localEndpoints.length > 0
          ? cat.localEndpoints
          : cat.clusterEndpoints
        : cat.clusterEndpoints;
    const vs = (address: string, port: number, onlyLocal: boolean): VirtualServer => ({
      protocol: sp.protocol,
      address,
      port,
      scheduler,
      ...(sp.sessionAffinityClientIP ? { persistent: sp.stickyMaxAgeSeconds } : {}),
      realServers: realServers(pick(onlyLocal)),
      service: sp.nameString,
    });

    // Hairpin: a local endpoint reaching itself through the Service is masqueraded.
    for (const ep of all)
      if (ep.isLocal) add(ipset.KUBE_LOOP_BACK, `${ipset.ipPortEntry(ep.ip, proto, ep.port)},${ep.ip}`);

    add(ipset.KUBE_CLUSTER_IP, ipset.ipPortEntry(sp.clusterIP, proto, sp.port));
    vss.push(vs(sp.clusterIP, sp.port, sp.internalPolicyLocal));
    bound.add(sp.clusterIP);

    for (const ip of sp.externalIPs) {
      add(
        sp.externalPolicyLocal ? ipset.KUBE_EXTERNAL_IP_LOCAL : ipset.KUBE_EXTERNAL_IP,
        ipset.ipPortEntry(ip, proto, sp.port),
      );
      vss.push(vs(ip, sp.port, sp.externalPolicyLocal));
      if (!nodeAddresses.includes(ip)) bound.add(ip);
    }
    for (const ip of sp.loadBalancerVIPs) {
      const entry = ipset.ipPortEntry(ip, proto, sp.port);
      add(ipset.KUBE_LOAD_BALANCER, entry);
      if (sp.externalPolicyLocal) add(ipset.KUBE_LOAD_BALANCER_LOCAL, entry);
      if (sp.loadBalancerSourceRanges.length > 0) {
        add(ipset.KUBE_LOAD_BALANCER_FW, entry);
        let allowFromNode = false;
        for (const cidr of sp.loadBalancerSourceRanges) {
          add(ipset.KUBE_LOAD_BALANCER_SOURCE_CIDR, `${entry},${cidr}`);
          if (cidrContainsText(cidr, input.node.ip)) allowFromNode = true;
        }
        if (allowFromNode) add(ipset.KUBE_LOAD_BALANCER_SOURCE_IP, `${entry},${ip}`);
      }
      vss.push(vs(ip, sp.port, sp.externalPolicyLocal));
      if (!nodeAddresses.includes(ip)) bound.add(ip);
    }
    if (sp.nodePort !== 0) {
      addNodePortEntries(sets, sp, nodeAddresses);
      for (const ip of nodeAddresses) vss.push(vs(ip, sp.nodePort, sp.externalPolicyLocal));
    }
    if (sp.healthCheckNodePort !== 0) add(ipset.KUBE_HEALTH_CHECK_NODE_PORT, String(sp.healthCheckNodePort));
  }
  const dummyAddresses = [...bound].sort(compareIPs);
  for (const ip of dummyAddresses) add(ipset.KUBE_IPVS_IPS, ip);
  return {
    virtualServers: vss,
    ipsets: sets,
    dummyAddresses,
    nodePortAddresses: nodeAddresses,
    iptables: ipvsIptablesRestore(sets, input.clusterCIDR, input.masqueradeAll ?? false),
  };
}

function addNodePortEntries(
  sets: ipset.IpsetState,
  sp: ServicePortInfo,
  nodeAddresses: readonly string[],
): void {
  const add = (set: string, entry: string) => sets.get(set)?.add(entry);
  const port = String(sp.nodePort);
  if (sp.protocol === 'SCTP') {
    // SCTP uses hash:ip,port sets, one entry per node address.
    for (const ip of nodeAddresses) {
      add(ipset.KUBE_NODE_PORT_SCTP, ipset.ipPortEntry(ip, 'sctp', sp.nodePort));
      if (sp.externalPolicyLocal)
        add(ipset.KUBE_NODE_PORT_LOCAL_SCTP, ipset.ipPortEntry(ip, 'sctp', sp.nodePort));
    }
    return;
  }
  const tcp = sp.protocol === 'TCP';
  add(tcp ? ipset.KUBE_NODE_PORT_TCP : ipset.KUBE_NODE_PORT_UDP, port);
  if (sp.externalPolicyLocal)
    add(tcp ? ipset.KUBE_NODE_PORT_LOCAL_TCP : ipset.KUBE_NODE_PORT_LOCAL_UDP, port);
}

function realServers(eps: readonly EndpointInfo[]): RealServer[] {
  return eps.map((ep) => ({ address: ep.ip, port: ep.port, weight: 1 }));
}

export function compareIPs(a: string, b: string): number {
  const n = (s: string) => s.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
  return n(a) - n(b);
}
