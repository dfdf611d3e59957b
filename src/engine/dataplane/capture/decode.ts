/**
 * Reads a captured frame back into its layers, for the filter and the printer: both work from the
 * bytes, as tcpdump does, so what is printed live is what `tcpdump -r` prints from the pcap.
 */
import { formatIPv4 } from '../../util/ip.ts';
import {
  ETHERTYPE_ARP,
  ETHERTYPE_IPV4,
  IPPROTO_ICMP,
  IPPROTO_IPIP,
  IPPROTO_TCP,
  IPPROTO_UDP,
} from './wire.ts';

export const LINKTYPE_ETHERNET = 1;
export const LINKTYPE_LINUX_SLL2 = 276;
/** Raw IP, no link header: what tunl0 (ARPHRD_TUNNEL) captures as. */
export const LINKTYPE_RAW = 101;

/** The UDP ports tcpdump decodes as tunnels: VXLAN's IANA port, and OTV's (flannel's and Cilium's 8472). */
export const VXLAN_PORT = 4789;
export const OTV_PORT = 8472;

export interface TcpLayer {
  readonly kind: 'tcp';
  readonly sport: number;
  readonly dport: number;
  readonly seq: number;
  readonly ack: number;
  readonly flags: number;
  readonly window: number;
  readonly options: Uint8Array;
  readonly payload: Uint8Array;
}

export interface UdpLayer {
  readonly kind: 'udp';
  readonly sport: number;
  readonly dport: number;
  readonly payload: Uint8Array;
}

export interface IcmpLayer {
  readonly kind: 'icmp';
  readonly type: number;
  readonly code: number;
  readonly rest: Uint8Array;
  readonly data: Uint8Array;
}

export interface Ipv4Layer {
  readonly src: string;
  readonly dst: string;
  readonly protocol: number;
  readonly tos: number;
  readonly ttl: number;
  readonly id: number;
  readonly df: boolean;
  readonly totalLength: number;
  readonly checksum: number;
  readonly l4?: TcpLayer | UdpLayer | IcmpLayer;
  /** The packet inside an IP-in-IP packet. */
  readonly ipip?: Ipv4Layer;
  /** Bytes after the IP header. */
  readonly payload: Uint8Array;
  /** The whole IP packet (header included). */
  readonly bytes: Uint8Array;
}

export interface ArpLayer {
  readonly op: number;
  readonly senderMac: string;
  readonly senderIp: string;
  readonly targetMac: string;
  readonly targetIp: string;
}

export interface EtherFrame {
  readonly src: string;
  readonly dst: string;
  readonly type: number;
  readonly ip?: Ipv4Layer;
  readonly arp?: ArpLayer;
  /** Bytes after the link header. */
  readonly payload: Uint8Array;
}

export interface Sll2Header {
  readonly protocol: number;
  readonly ifindex: number;
  readonly arphrd: number;
  readonly packetType: number;
  /** The link-layer source address (absent on devices without one, such as lo and tunl0). */
  readonly addr?: string;
}

export interface DecodedFrame {
  readonly linktype: number;
  readonly length: number;
  readonly ether?: EtherFrame;
  readonly sll?: Sll2Header;
  /** The network layer (of the Ethernet frame or after the cooked header). */
  readonly ip?: Ipv4Layer;
  readonly arp?: ArpLayer;
}

function be16(b: Uint8Array, at: number): number {
  return ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
}

function be32(b: Uint8Array, at: number): number {
  return (((b[at] ?? 0) << 24) | ((b[at + 1] ?? 0) << 16) | ((b[at + 2] ?? 0) << 8) | (b[at + 3] ?? 0)) >>> 0;
}

const HEX_BYTES = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** `aa:bb:cc:dd:ee:ff` (by table: it runs for every frame a capture takes or prints). */
export function macText(b: Uint8Array, at: number): string {
  const h = (i: number) => HEX_BYTES[b[at + i] ?? 0]!;
  return `${h(0)}:${h(1)}:${h(2)}:${h(3)}:${h(4)}:${h(5)}`;
}

function ipText(b: Uint8Array, at: number): string {
  return formatIPv4(be32(b, at));
}

export function decodeIpv4(b: Uint8Array): Ipv4Layer | undefined {
  if (b.length < 20 || b[0]! >> 4 !== 4) return undefined;
  const ihl = (b[0]! & 15) * 4;
  const totalLength = be16(b, 2);
  const bytes = b.subarray(0, Math.min(b.length, totalLength));
  const payload = bytes.subarray(ihl);
  const protocol = b[9]!;
  const base = {
    src: ipText(b, 12),
    dst: ipText(b, 16),
    protocol,
    tos: b[1]!,
    ttl: b[8]!,
    id: be16(b, 4),
    df: (b[6]! & 0x40) !== 0,
    totalLength,
    checksum: be16(b, 10),
    payload,
    bytes,
  };
  if (protocol === IPPROTO_TCP && payload.length >= 20) {
    const off = (payload[12]! >> 4) * 4;
    return {
      ...base,
      l4: {
        kind: 'tcp',
        sport: be16(payload, 0),
        dport: be16(payload, 2),
        seq: be32(payload, 4),
        ack: be32(payload, 8),
        flags: payload[13]!,
        window: be16(payload, 14),
        options: payload.subarray(20, off),
        payload: payload.subarray(off),
      },
    };
  }
  if (protocol === IPPROTO_UDP && payload.length >= 8)
    return {
      ...base,
      l4: { kind: 'udp', sport: be16(payload, 0), dport: be16(payload, 2), payload: payload.subarray(8) },
    };
  if (protocol === IPPROTO_ICMP && payload.length >= 8)
    return {
      ...base,
      l4: {
        kind: 'icmp',
        type: payload[0]!,
        code: payload[1]!,
        rest: payload.subarray(4, 8),
        data: payload.subarray(8),
      },
    };
  if (protocol === IPPROTO_IPIP) {
    const inner = decodeIpv4(payload);
    return inner ? { ...base, ipip: inner } : base;
  }
  return base;
}

function decodeArp(b: Uint8Array): ArpLayer | undefined {
  if (b.length < 28) return undefined;
  return {
    op: be16(b, 6),
    senderMac: macText(b, 8),
    senderIp: ipText(b, 14),
    targetMac: macText(b, 18),
    targetIp: ipText(b, 24),
  };
}

export function decodeEther(b: Uint8Array): EtherFrame | undefined {
  if (b.length < 14) return undefined;
  const type = be16(b, 12);
  const payload = b.subarray(14);
  const ip = type === ETHERTYPE_IPV4 ? decodeIpv4(payload) : undefined;
  const arp = type === ETHERTYPE_ARP ? decodeArp(payload) : undefined;
  return {
    dst: macText(b, 0),
    src: macText(b, 6),
    type,
    payload,
    ...(ip ? { ip } : {}),
    ...(arp ? { arp } : {}),
  };
}

export function decodeFrame(linktype: number, b: Uint8Array): DecodedFrame {
  if (linktype === LINKTYPE_LINUX_SLL2 && b.length >= 20) {
    const sll: Sll2Header = {
      protocol: be16(b, 0),
      ifindex: be32(b, 4),
      arphrd: be16(b, 8),
      packetType: b[10]!,
      ...(b[11] === 6 ? { addr: macText(b, 12) } : {}),
    };
    const payload = b.subarray(20);
    const ip = sll.protocol === ETHERTYPE_IPV4 ? decodeIpv4(payload) : undefined;
    const arp = sll.protocol === ETHERTYPE_ARP ? decodeArp(payload) : undefined;
    return { linktype, length: b.length, sll, ...(ip ? { ip } : {}), ...(arp ? { arp } : {}) };
  }
  if (linktype === LINKTYPE_RAW) {
    const ip = decodeIpv4(b);
    return { linktype, length: b.length, ...(ip ? { ip } : {}) };
  }
  const ether = decodeEther(b);
  return {
    linktype,
    length: b.length,
    ...(ether ? { ether } : {}),
    ...(ether?.ip ? { ip: ether.ip } : {}),
    ...(ether?.arp ? { arp: ether.arp } : {}),
  };
}

/** The Ethernet frame a VXLAN (or OTV) datagram carries, with its VNI. */
export function tunnelled(udp: UdpLayer): { readonly vni: number; readonly frame: EtherFrame } | undefined {
  if (udp.dport !== VXLAN_PORT && udp.dport !== OTV_PORT) return undefined;
  const p = udp.payload;
  if (p.length < 8 + 14 || (p[0]! & 0x08) === 0) return undefined;
  const frame = decodeEther(p.subarray(8));
  return frame ? { vni: ((p[4]! << 16) | (p[5]! << 8) | p[6]!) >>> 0, frame } : undefined;
}

export { be16, be32 };
