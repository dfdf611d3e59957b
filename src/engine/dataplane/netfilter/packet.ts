/**
 * The packet the tracers walk through a node's rules, and what they report: the verdict, the DNAT
 * target, whether the reply path masquerades, every rule (or map element, or virtual server) that
 * matched, and how many rules were evaluated — linear in the number of Services in iptables mode,
 * constant in nftables and IPVS mode (the scale chapter prints it).
 */
import { cidrContainsText } from '../../util/ip.ts';

export type PacketProtocol = 'TCP' | 'UDP' | 'SCTP' | 'ICMP';

export interface Packet {
  readonly srcIP: string;
  readonly destIP: string;
  /** Absent for ICMP. */
  readonly destPort?: number;
  readonly srcPort?: number;
  readonly protocol: PacketProtocol;
  /** Sent by a pod on this node: it enters the node's stack from the pod's veth (PREROUTING). */
  readonly fromLocalPod?: boolean;
  /**
   * The interface the packet arrives on (`eth0` for traffic from outside the node). A packet that is
   * neither from a local pod nor arriving on an interface, and whose source is one of the node's own
   * addresses, is sent by the node itself (hostNetwork pods, `kubectl debug node`): the OUTPUT path.
   */
  readonly inboundInterface?: string;
}

/**
 * The first packet's IP total length, which netfilter's byte counters add up: a TCP SYN as Linux
 * sends it (20-byte IPv4 header, 20-byte TCP header, 20 bytes of options: MSS, SACK permitted,
 * timestamps, window scale) is 60; ping's default echo request (56 data bytes) 84. The connection
 * model does not carry payloads on its first packet, so a UDP datagram counts its two headers.
 */
export function ipLength(p: Packet): number {
  switch (p.protocol) {
    case 'TCP':
      return 60;
    case 'ICMP':
      return 84;
    case 'UDP':
      return 28;
    case 'SCTP':
      // An INIT chunk without optional parameters: IPv4 20 + common header 12 + INIT 20.
      return 52;
  }
}

export type Verdict = 'DNAT' | 'REJECT' | 'DROP' | 'ACCEPT';

export interface RuleHit {
  /** `nat`/`filter` for iptables, the nftables table, or `ipvs`. */
  readonly table: string;
  /** Chain name, set or map name, or the IPVS virtual server. */
  readonly chain: string;
  /** The rule as the node tool prints it (map element, real server line). */
  readonly rule: string;
}

export interface RouteResult {
  /** ACCEPT: no Service rule took the packet; it continues unchanged. */
  readonly verdict: Verdict;
  /** `ip:port` after DNAT. */
  readonly dnatTo?: string;
  readonly masquerade: boolean;
  readonly matched: readonly RuleHit[];
  readonly evaluatedRules: number;
}

/** Where the packet first meets netfilter: PREROUTING (arriving) or OUTPUT (node-originated). */
export function entryHook(p: Packet, localAddresses: readonly string[]): 'prerouting' | 'output' {
  if (p.fromLocalPod || p.inboundInterface !== undefined) return 'prerouting';
  return isLocalAddress(p.srcIP, localAddresses) ? 'output' : 'prerouting';
}

/** `addrtype LOCAL` / `fib … type local`: the node's addresses and all of 127.0.0.0/8. */
export function isLocalAddress(ip: string, localAddresses: readonly string[]): boolean {
  return cidrContainsText('127.0.0.0/8', ip) || localAddresses.includes(ip);
}
