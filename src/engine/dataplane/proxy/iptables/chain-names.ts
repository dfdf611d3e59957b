/**
 * iptables chain names, exactly as `pkg/proxy/iptables/proxier.go` builds them. Chain names must be
 * at most 28 characters, so kube-proxy hashes instead of spelling the Service out:
 * 16 base32 characters of sha256(servicePortName + protocol [+ endpoint]), protocol lower case,
 * servicePortName `ns/name` plus `:port` only for named ports (K-TYPES `ServicePortName.String`).
 */
import { sha256Base32 } from '../hash.ts';

export const SERVICE_CLUSTER_CHAIN_PREFIX = 'KUBE-SVC-';
export const SERVICE_LOCAL_CHAIN_PREFIX = 'KUBE-SVL-';
export const SERVICE_FIREWALL_CHAIN_PREFIX = 'KUBE-FW-';
export const SERVICE_EXTERNAL_CHAIN_PREFIX = 'KUBE-EXT-';
export const SERVICE_ENDPOINT_CHAIN_PREFIX = 'KUBE-SEP-';

/** The 16-character hash shared by a service port's SVC, SVL, EXT and FW chains. */
export function portProtoHash(servicePortName: string, protocol: string): string {
  return sha256Base32(servicePortName + protocol).slice(0, 16);
}

export function servicePortPolicyClusterChain(servicePortName: string, protocol: string): string {
  return SERVICE_CLUSTER_CHAIN_PREFIX + portProtoHash(servicePortName, protocol);
}

export function servicePortPolicyLocalChainName(servicePortName: string, protocol: string): string {
  return SERVICE_LOCAL_CHAIN_PREFIX + portProtoHash(servicePortName, protocol);
}

export function serviceFirewallChainName(servicePortName: string, protocol: string): string {
  return SERVICE_FIREWALL_CHAIN_PREFIX + portProtoHash(servicePortName, protocol);
}

export function serviceExternalChainName(servicePortName: string, protocol: string): string {
  return SERVICE_EXTERNAL_CHAIN_PREFIX + portProtoHash(servicePortName, protocol);
}

/** KUBE-SEP-… for one endpoint; `endpoint` is the endpoint's `IP:port` string. */
export function servicePortEndpointChainName(
  servicePortName: string,
  protocol: string,
  endpoint: string,
): string {
  return SERVICE_ENDPOINT_CHAIN_PREFIX + sha256Base32(servicePortName + protocol + endpoint).slice(0, 16);
}

/** The chains kube-proxy deletes when no service uses them any more (`isServiceChainName`). */
export function isServiceChainName(chain: string): boolean {
  return [
    SERVICE_CLUSTER_CHAIN_PREFIX,
    SERVICE_LOCAL_CHAIN_PREFIX,
    SERVICE_ENDPOINT_CHAIN_PREFIX,
    SERVICE_FIREWALL_CHAIN_PREFIX,
    SERVICE_EXTERNAL_CHAIN_PREFIX,
  ].some((p) => chain.startsWith(p));
}
