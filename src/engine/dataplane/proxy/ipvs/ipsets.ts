/**
 * The ipsets IPVS-mode kube-proxy keeps (`pkg/proxy/ipvs/ipset.go` and `ipsetInfo` in proxier.go), with
 * their comments, types and entries written the way `utilipset.Entry.String()` writes them
 * (`10.96.0.1,tcp:443`, `10.244.1.5,tcp:8080,10.244.1.5`, `30080`), and the membership test the
 * iptables `-m set --match-set NAME dst,dst` match performs.
 */
import { cidrContainsText } from '../../../util/ip.ts';
import type { Packet } from '../../netfilter/packet.ts';

export type IpsetType = 'hash:ip,port' | 'hash:ip,port,ip' | 'hash:ip,port,net' | 'bitmap:port' | 'hash:ip';

export interface IpsetDef {
  readonly name: string;
  readonly type: IpsetType;
  readonly comment: string;
}

export const KUBE_LOOP_BACK = 'KUBE-LOOP-BACK';
export const KUBE_CLUSTER_IP = 'KUBE-CLUSTER-IP';
export const KUBE_EXTERNAL_IP = 'KUBE-EXTERNAL-IP';
export const KUBE_EXTERNAL_IP_LOCAL = 'KUBE-EXTERNAL-IP-LOCAL';
export const KUBE_LOAD_BALANCER = 'KUBE-LOAD-BALANCER';
export const KUBE_LOAD_BALANCER_FW = 'KUBE-LOAD-BALANCER-FW';
export const KUBE_LOAD_BALANCER_LOCAL = 'KUBE-LOAD-BALANCER-LOCAL';
export const KUBE_LOAD_BALANCER_SOURCE_IP = 'KUBE-LOAD-BALANCER-SOURCE-IP';
export const KUBE_LOAD_BALANCER_SOURCE_CIDR = 'KUBE-LOAD-BALANCER-SOURCE-CIDR';
export const KUBE_NODE_PORT_TCP = 'KUBE-NODE-PORT-TCP';
export const KUBE_NODE_PORT_LOCAL_TCP = 'KUBE-NODE-PORT-LOCAL-TCP';
export const KUBE_NODE_PORT_UDP = 'KUBE-NODE-PORT-UDP';
export const KUBE_NODE_PORT_LOCAL_UDP = 'KUBE-NODE-PORT-LOCAL-UDP';
export const KUBE_NODE_PORT_SCTP = 'KUBE-NODE-PORT-SCTP-HASH';
export const KUBE_NODE_PORT_LOCAL_SCTP = 'KUBE-NODE-PORT-LOCAL-SCTP-HASH';
export const KUBE_HEALTH_CHECK_NODE_PORT = 'KUBE-HEALTH-CHECK-NODE-PORT';
export const KUBE_IPVS_IPS = 'KUBE-IPVS-IPS';

export const IPSETS: readonly IpsetDef[] = [
  {
    name: KUBE_LOOP_BACK,
    type: 'hash:ip,port,ip',
    comment: 'Kubernetes endpoints dst ip:port, source ip for solving hairpin purpose',
  },
  {
    name: KUBE_CLUSTER_IP,
    type: 'hash:ip,port',
    comment: 'Kubernetes service cluster ip + port for masquerade purpose',
  },
  {
    name: KUBE_EXTERNAL_IP,
    type: 'hash:ip,port',
    comment: 'Kubernetes service external ip + port for masquerade and filter purpose',
  },
  {
    name: KUBE_EXTERNAL_IP_LOCAL,
    type: 'hash:ip,port',
    comment: 'Kubernetes service external ip + port with externalTrafficPolicy=local',
  },
  { name: KUBE_LOAD_BALANCER, type: 'hash:ip,port', comment: 'Kubernetes service lb portal' },
  {
    name: KUBE_LOAD_BALANCER_FW,
    type: 'hash:ip,port',
    comment: 'Kubernetes service load balancer ip + port for load balancer with sourceRange',
  },
  {
    name: KUBE_LOAD_BALANCER_LOCAL,
    type: 'hash:ip,port',
    comment: 'Kubernetes service load balancer ip + port with externalTrafficPolicy=local',
  },
  {
    name: KUBE_LOAD_BALANCER_SOURCE_IP,
    type: 'hash:ip,port,ip',
    comment: 'Kubernetes service load balancer ip + port + source IP for packet filter purpose',
  },
  {
    name: KUBE_LOAD_BALANCER_SOURCE_CIDR,
    type: 'hash:ip,port,net',
    comment: 'Kubernetes service load balancer ip + port + source cidr for packet filter purpose',
  },
  {
    name: KUBE_NODE_PORT_TCP,
    type: 'bitmap:port',
    comment: 'Kubernetes nodeport TCP port for masquerade purpose',
  },
  {
    name: KUBE_NODE_PORT_LOCAL_TCP,
    type: 'bitmap:port',
    comment: 'Kubernetes nodeport TCP port with externalTrafficPolicy=local',
  },
  {
    name: KUBE_NODE_PORT_UDP,
    type: 'bitmap:port',
    comment: 'Kubernetes nodeport UDP port for masquerade purpose',
  },
  {
    name: KUBE_NODE_PORT_LOCAL_UDP,
    type: 'bitmap:port',
    comment: 'Kubernetes nodeport UDP port with externalTrafficPolicy=local',
  },
  {
    name: KUBE_NODE_PORT_SCTP,
    type: 'hash:ip,port',
    comment: "Kubernetes nodeport SCTP port for masquerade purpose with type 'hash ip:port'",
  },
  {
    name: KUBE_NODE_PORT_LOCAL_SCTP,
    type: 'hash:ip,port',
    comment: "Kubernetes nodeport SCTP port with externalTrafficPolicy=local with type 'hash ip:port'",
  },
  { name: KUBE_HEALTH_CHECK_NODE_PORT, type: 'bitmap:port', comment: 'Kubernetes health check node port' },
  { name: KUBE_IPVS_IPS, type: 'hash:ip', comment: 'Addresses on the ipvs interface' },
];

/** Set name → entries, in `Entry.String()` form. */
export type IpsetState = Map<string, Set<string>>;

export function emptyIpsets(): IpsetState {
  return new Map(IPSETS.map((s) => [s.name, new Set<string>()]));
}

export function ipPortEntry(ip: string, protocol: string, port: number): string {
  return `${ip},${protocol}:${port}`;
}

/**
 * `-m set --match-set NAME FLAGS`: each flag says which packet field feeds the next dimension of the
 * set (dst/src address, then protocol:port, then a second address or network).
 */
export function ipsetMatches(
  sets: IpsetState,
  name: string,
  flags: string,
  p: Packet,
  dest: string,
  destPort: number | undefined,
): boolean {
  const def = IPSETS.find((d) => d.name === name);
  const entries = sets.get(name);
  if (!def || !entries || entries.size === 0) return false;
  const dirs = flags.split(',');
  const addr = (dir: string | undefined) => (dir === 'src' ? p.srcIP : dest);
  const proto = p.protocol.toLowerCase();
  const port = dirs[1] === 'src' ? p.srcPort : destPort;
  switch (def.type) {
    case 'hash:ip':
      return entries.has(addr(dirs[0]));
    case 'bitmap:port':
      return destPort !== undefined && entries.has(String(dirs[0] === 'src' ? p.srcPort : destPort));
    case 'hash:ip,port':
      return entries.has(ipPortEntry(addr(dirs[0]), proto, port ?? -1));
    case 'hash:ip,port,ip':
      return entries.has(`${ipPortEntry(addr(dirs[0]), proto, port ?? -1)},${addr(dirs[2])}`);
    case 'hash:ip,port,net': {
      const prefix = `${ipPortEntry(addr(dirs[0]), proto, port ?? -1)},`;
      const ip = addr(dirs[2]);
      return [...entries].some((e) => e.startsWith(prefix) && cidrContainsText(e.slice(prefix.length), ip));
    }
  }
}
