/**
 * nftables chain and set names, as `pkg/proxy/nftables/proxier.go` builds them (kubernetes-facts §2.1):
 * a readable `ns/name/protocol/port` (plus `__ip/port` for endpoints) prefixed with 8 base32
 * characters of its own sha256, so names that differ in one digit still look different, truncated
 * with `...` past `chainNameBaseLengthMax` (256 − 16).
 */
import { sha256Base32 } from '../hash.ts';

export const SERVICE_CHAIN_PREFIX = 'service-';
export const LOCAL_CHAIN_PREFIX = 'local-';
export const EXTERNAL_CHAIN_PREFIX = 'external-';
export const ENDPOINT_CHAIN_PREFIX = 'endpoint-';
export const AFFINITY_SET_PREFIX = 'affinity-';
export const FIREWALL_CHAIN_PREFIX = 'firewall-';

/** knftables.NameLengthMax (256) minus the longest prefix including its hyphen (16). */
const CHAIN_NAME_BASE_LENGTH_MAX = 256 - 16;

export function hashAndTruncate(name: string): string {
  const full = `${sha256Base32(name).slice(0, 8)}-${name}`;
  return full.length > CHAIN_NAME_BASE_LENGTH_MAX
    ? `${full.slice(0, CHAIN_NAME_BASE_LENGTH_MAX - 3)}...`
    : full;
}

/** `HASH-namespace/serviceName/protocol/portName`, e.g. `ULMVA6XW-ns1/svc1/tcp/p80`. */
export function servicePortChainNameBase(
  namespace: string,
  name: string,
  protocol: string,
  portName: string,
): string {
  return hashAndTruncate(`${namespace}/${name}/${protocol}/${portName}`);
}

/** `HASH-ns/svc/proto/port__endpointIP/endpointPort`, e.g. `5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80`. */
export function servicePortEndpointChainNameBase(
  namespace: string,
  name: string,
  protocol: string,
  portName: string,
  endpoint: string,
): string {
  const colon = endpoint.lastIndexOf(':');
  const ip = endpoint.slice(0, colon).replaceAll(':', '.');
  return hashAndTruncate(`${namespace}/${name}/${protocol}/${portName}__${ip}/${endpoint.slice(colon + 1)}`);
}
