/**
 * IP address management for pod sandboxes, after the CNI IPAM plugins:
 *
 * - host-local (containernetworking/plugins `plugins/ipam/host-local`, used by flannel's bridge): a
 *   range `rangeStart-rangeEnd` inside the node's podCIDR, gateway excluded; allocation walks forward
 *   from the last reserved address (`/var/lib/cni/networks/<net>/last_reserved_ip.0`) and wraps, so a
 *   freed address is reused only after the range has gone round. Exhausted ⇒
 *   `no IP addresses available in range set: 10.244.1.1-10.244.1.254`, wrapped by the plugin chain as
 *   `failed to allocate for range 0: …`.
 * - calico-ipam: the same walk over the node's block (ordinal 0 holds the node's tunnel address).
 * - cilium (`ipam: kubernetes`): a random free address of the node's podCIDR.
 *
 * Simplified: the allocated set is derived from the pods on the node (no leaked leases), and the
 * last-reserved pointer is the only persisted state (the kubelet keeps it on the Node object).
 */
import { formatIPv4, parseCidr, parseIPv4 } from '../util/ip.ts';
import type { Rng } from '../util/rng.ts';

export interface IpamRange {
  /** First and last allocatable address (as integers). */
  readonly start: number;
  readonly end: number;
  /** Addresses inside the range that are never handed out (the bridge gateway, cilium_host). */
  readonly reserved: readonly number[];
  readonly strategy: 'sequential' | 'random';
  /** The range set as host-local prints it: `10.244.1.1-10.244.1.254`. */
  readonly text: string;
}

export type Allocation = { readonly ip: string } | { readonly error: string };

/** host-local's default range for a subnet: network+1 … broadcast-1, minus the gateway (network+1). */
export function hostLocalRange(podCIDR: string): IpamRange | undefined {
  const c = parseCidr(podCIDR);
  if (!c) return undefined;
  const size = 2 ** (32 - c.prefix);
  const start = (c.base + 1) >>> 0;
  const end = (c.base + size - 2) >>> 0;
  return {
    start,
    end,
    reserved: [start],
    strategy: 'sequential',
    text: `${formatIPv4(start)}-${formatIPv4(end)}`,
  };
}

/**
 * Allocates one address. `allocated` holds the addresses in use; `lastReserved` is the previous
 * allocation (sequential strategy); `rng` picks for the random strategy.
 */
export function allocateIP(
  range: IpamRange,
  allocated: ReadonlySet<string>,
  lastReserved: string | undefined,
  rng: Rng,
): Allocation {
  // Candidates are checked as the strings pods carry rather than by parsing every allocated address
  // on every call: a node's hundredth pod would otherwise parse the other ninety-nine.
  const reserved = new Set(range.reserved);
  const isFree = (n: number) => !reserved.has(n) && !allocated.has(formatIPv4(n));
  const size = range.end - range.start + 1;
  if (size <= 0) return { error: `no IP addresses available in range set: ${range.text}` };
  if (range.strategy === 'random') {
    const free: number[] = [];
    for (let n = range.start; n <= range.end; n++) if (isFree(n)) free.push(n);
    if (free.length === 0) return { error: `no IP addresses available in range set: ${range.text}` };
    return { ip: formatIPv4(free[rng.int(free.length)]!) };
  }
  const last = lastReserved === undefined ? undefined : parseIPv4(lastReserved);
  const from = last !== undefined && last >= range.start && last <= range.end ? last - range.start + 1 : 0;
  for (let i = 0; i < size; i++) {
    const n = range.start + ((from + i) % size);
    if (isFree(n)) return { ip: formatIPv4(n) };
  }
  return { error: `no IP addresses available in range set: ${range.text}` };
}
