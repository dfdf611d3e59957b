/**
 * The IPVS table kube-proxy programs: one virtual server per ClusterIP:port, externalIP:port,
 * LoadBalancer IP:port and NodePort on each node address, each with its real servers (endpoints,
 * forwarding method Masq, weight 1). ClientIP affinity is IPVS persistence (`persistent 10800`).
 */
export type IpvsProtocol = 'TCP' | 'UDP' | 'SCTP';

export interface RealServer {
  readonly address: string;
  readonly port: number;
  readonly weight: number;
}

export interface VirtualServer {
  readonly protocol: IpvsProtocol;
  readonly address: string;
  readonly port: number;
  readonly scheduler: string;
  /** Persistence timeout in seconds (ClientIP session affinity). */
  readonly persistent?: number;
  readonly realServers: readonly RealServer[];
  /** The service port it belongs to (`ns/name:port`), for traces. */
  readonly service: string;
}

export function virtualServerKey(vs: { protocol: string; address: string; port: number }): string {
  return `${vs.protocol} ${vs.address}:${vs.port}`;
}

export function realServerKey(rs: { address: string; port: number }): string {
  return `${rs.address}:${rs.port}`;
}
