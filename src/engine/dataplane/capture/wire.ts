/**
 * Byte layouts of the headers a capture holds, as the kernel puts them on the wire: Ethernet II,
 * ARP, IPv4 (with its header checksum), UDP and TCP (with the pseudo-header checksum), ICMP, VXLAN
 * (RFC 7348), DNS messages (RFC 1035, with name compression) and Linux cooked capture v2 (what
 * `tcpdump -i any` records). A pcap made of these opens in Wireshark and in Debian's tcpdump as a
 * capture from a real node would.
 */
import { parseIPv4 } from '../../util/ip.ts';
import type { DnsResponse, QType, RR } from '../dns/message.ts';

export const ETHERTYPE_IPV4 = 0x0800;
export const ETHERTYPE_ARP = 0x0806;
export const IPPROTO_ICMP = 1;
export const IPPROTO_IPIP = 4;
export const IPPROTO_TCP = 6;
export const IPPROTO_UDP = 17;

export const TCP_FIN = 0x01;
export const TCP_SYN = 0x02;
export const TCP_RST = 0x04;
export const TCP_PSH = 0x08;
export const TCP_ACK = 0x10;

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function u16(n: number): number[] {
  return [(n >>> 8) & 255, n & 255];
}

function u32(n: number): number[] {
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
}

function ipBytes(ip: string): number[] {
  return u32(parseIPv4(ip) ?? 0);
}

export function macBytes(mac: string): number[] {
  const parts = mac.split(':').map((h) => parseInt(h, 16));
  return parts.length === 6 && parts.every((b) => b >= 0 && b < 256) ? parts : [0, 0, 0, 0, 0, 0];
}

/** The Internet checksum (RFC 1071) over `bytes`, starting from a partial `sum`. */
export function internetChecksum(bytes: Uint8Array, sum = 0): number {
  let s = sum;
  for (let i = 0; i + 1 < bytes.length; i += 2) s += (bytes[i]! << 8) | bytes[i + 1]!;
  if (bytes.length % 2 === 1) s += bytes[bytes.length - 1]! << 8;
  while (s > 0xffff) s = (s & 0xffff) + (s >>> 16);
  return ~s & 0xffff;
}

function pseudoHeaderSum(src: string, dst: string, proto: number, length: number): number {
  const b = [...ipBytes(src), ...ipBytes(dst), 0, proto, ...u16(length)];
  let s = 0;
  for (let i = 0; i < b.length; i += 2) s += (b[i]! << 8) | b[i + 1]!;
  return s;
}

export function ethernet(dst: string, src: string, ethertype: number, payload: Uint8Array): Uint8Array {
  return concat([new Uint8Array([...macBytes(dst), ...macBytes(src), ...u16(ethertype)]), payload]);
}

export interface Ipv4Fields {
  readonly src: string;
  readonly dst: string;
  readonly protocol: number;
  readonly id: number;
  readonly ttl: number;
  /** Don't Fragment: Linux sets it on TCP and on UDP sockets with path MTU discovery. */
  readonly df: boolean;
  readonly tos?: number;
}

export function ipv4(f: Ipv4Fields, payload: Uint8Array): Uint8Array {
  const header = new Uint8Array([
    0x45,
    f.tos ?? 0,
    ...u16(20 + payload.length),
    ...u16(f.id & 0xffff),
    f.df ? 0x40 : 0,
    0,
    f.ttl,
    f.protocol,
    0,
    0,
    ...ipBytes(f.src),
    ...ipBytes(f.dst),
  ]);
  const sum = internetChecksum(header);
  header[10] = sum >>> 8;
  header[11] = sum & 255;
  return concat([header, payload]);
}

/** A UDP datagram with its checksum over the IPv4 pseudo-header (`src`/`dst` of the packet it rides in). */
export function udp(src: string, dst: string, sport: number, dport: number, payload: Uint8Array): Uint8Array {
  const seg = concat([
    new Uint8Array([...u16(sport), ...u16(dport), ...u16(8 + payload.length), 0, 0]),
    payload,
  ]);
  const sum = internetChecksum(seg, pseudoHeaderSum(src, dst, IPPROTO_UDP, seg.length)) || 0xffff;
  seg[6] = sum >>> 8;
  seg[7] = sum & 255;
  return seg;
}

export interface TcpFields {
  readonly sport: number;
  readonly dport: number;
  readonly seq: number;
  readonly ack: number;
  readonly flags: number;
  readonly window: number;
  /** SYN and SYN-ACK options as Linux sends them: MSS, SACK permitted, timestamps, window scale. */
  readonly syn?: {
    readonly mss: number;
    readonly tsval: number;
    readonly tsecr: number;
    readonly wscale: number;
  };
  /** The timestamps option of every other segment. */
  readonly ts?: { readonly tsval: number; readonly tsecr: number };
}

function tcpOptions(f: TcpFields): number[] {
  if (f.syn)
    return [
      2,
      4,
      ...u16(f.syn.mss),
      4,
      2,
      8,
      10,
      ...u32(f.syn.tsval),
      ...u32(f.syn.tsecr),
      1,
      3,
      3,
      f.syn.wscale,
    ];
  if (f.ts) return [1, 1, 8, 10, ...u32(f.ts.tsval), ...u32(f.ts.tsecr)];
  return [];
}

export function tcp(src: string, dst: string, f: TcpFields, payload: Uint8Array): Uint8Array {
  const options = tcpOptions(f);
  const headerLength = 20 + options.length;
  const seg = concat([
    new Uint8Array([
      ...u16(f.sport),
      ...u16(f.dport),
      ...u32(f.seq >>> 0),
      ...u32(f.ack >>> 0),
      (headerLength / 4) << 4,
      f.flags,
      ...u16(f.window),
      0,
      0,
      0,
      0,
      ...options,
    ]),
    payload,
  ]);
  const sum = internetChecksum(seg, pseudoHeaderSum(src, dst, IPPROTO_TCP, seg.length));
  seg[16] = sum >>> 8;
  seg[17] = sum & 255;
  return seg;
}

/** An ICMP message: type, code, the 4 "rest of header" bytes, then the data. */
export function icmp(type: number, code: number, rest: readonly number[], data: Uint8Array): Uint8Array {
  const msg = concat([new Uint8Array([type, code, 0, 0, ...rest]), data]);
  const sum = internetChecksum(msg);
  msg[2] = sum >>> 8;
  msg[3] = sum & 255;
  return msg;
}

export function icmpEcho(reply: boolean, id: number, seq: number, data: Uint8Array): Uint8Array {
  return icmp(reply ? 0 : 8, 0, [...u16(id), ...u16(seq)], data);
}

/** Port unreachable (3/3) or fragmentation needed (3/4 with the next-hop MTU), quoting `original`. */
export function icmpUnreachable(code: 3 | 4, original: Uint8Array, nextHopMtu = 0): Uint8Array {
  const ihl = ((original[0] ?? 0x45) & 15) * 4;
  return icmp(3, code, code === 4 ? [0, 0, ...u16(nextHopMtu)] : [0, 0, 0, 0], original.slice(0, ihl + 8));
}

export function arp(
  op: 'request' | 'reply',
  senderMac: string,
  senderIp: string,
  targetMac: string,
  targetIp: string,
): Uint8Array {
  return new Uint8Array([
    ...u16(1),
    ...u16(ETHERTYPE_IPV4),
    6,
    4,
    ...u16(op === 'request' ? 1 : 2),
    ...macBytes(senderMac),
    ...ipBytes(senderIp),
    ...macBytes(targetMac),
    ...ipBytes(targetIp),
  ]);
}

/** The 8-byte VXLAN header (flags I, the 24-bit VNI) before the inner Ethernet frame. */
export function vxlan(vni: number, innerFrame: Uint8Array): Uint8Array {
  return concat([
    new Uint8Array([0x08, 0, 0, 0, (vni >>> 16) & 255, (vni >>> 8) & 255, vni & 255, 0]),
    innerFrame,
  ]);
}

/**
 * Linux cooked capture v2 (LINKTYPE_LINUX_SLL2): what `-i any` records in place of the link header.
 * `packetType` is the kernel's PACKET_HOST (0), PACKET_BROADCAST (1) or PACKET_OUTGOING (4).
 */
export function sll2(
  protocol: number,
  ifindex: number,
  arphrd: number,
  packetType: number,
  mac: string,
  payload: Uint8Array,
): Uint8Array {
  const addr = arphrd === 1 ? macBytes(mac) : [];
  const padded = [...addr, ...new Array<number>(8 - addr.length).fill(0)];
  return concat([
    new Uint8Array([
      ...u16(protocol),
      0,
      0,
      ...u32(ifindex),
      ...u16(arphrd),
      packetType,
      addr.length,
      ...padded,
    ]),
    payload,
  ]);
}

// ---- DNS ----------------------------------------------------------------------------------------

export const QTYPE_NUMBER: Readonly<Record<QType, number>> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
};

const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'];

/** Writes names with RFC 1035 compression pointers to suffixes already written. */
class DnsWriter {
  readonly bytes: number[] = [];
  private readonly offsets = new Map<string, number>();

  u16(n: number): void {
    this.bytes.push(...u16(n));
  }

  u32(n: number): void {
    this.bytes.push(...u32(n));
  }

  name(name: string): void {
    const labels = name.replace(/\.$/, '').split('.').filter(Boolean);
    for (let i = 0; i < labels.length; i++) {
      const suffix = labels.slice(i).join('.').toLowerCase();
      const known = this.offsets.get(suffix);
      if (known !== undefined) {
        this.u16(0xc000 | known);
        return;
      }
      if (this.bytes.length < 0x3fff) this.offsets.set(suffix, this.bytes.length);
      const label = [...labels[i]!].map((c) => c.charCodeAt(0) & 255);
      this.bytes.push(label.length, ...label);
    }
    this.bytes.push(0);
  }

  rdata(write: () => void): void {
    const at = this.bytes.length;
    this.u16(0);
    write();
    const length = this.bytes.length - at - 2;
    this.bytes[at] = length >>> 8;
    this.bytes[at + 1] = length & 255;
  }

  record(rr: RR): void {
    this.name(rr.name);
    this.u16(QTYPE_NUMBER[rr.type]);
    this.u16(1);
    this.u32(rr.ttl);
    this.rdata(() => {
      switch (rr.type) {
        case 'A':
          this.bytes.push(...ipBytes(rr.address));
          break;
        case 'AAAA':
          this.bytes.push(...ipv6Bytes(rr.address));
          break;
        case 'CNAME':
        case 'PTR':
        case 'NS':
          this.name(rr.target);
          break;
        case 'SRV':
          this.u16(rr.priority);
          this.u16(rr.weight);
          this.u16(rr.port);
          this.name(rr.target);
          break;
        case 'MX':
          this.u16(rr.preference);
          this.name(rr.exchange);
          break;
        case 'TXT':
          for (const t of rr.text) {
            const b = [...t].map((c) => c.charCodeAt(0) & 255).slice(0, 255);
            this.bytes.push(b.length, ...b);
          }
          break;
        case 'SOA':
          this.name(rr.mname);
          this.name(rr.rname);
          for (const n of [rr.serial, rr.refresh, rr.retry, rr.expire, rr.minimum]) this.u32(n);
          break;
      }
    });
  }
}

function ipv6Bytes(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const groups = (s: string | undefined): number[] =>
    s ? s.split(':').map((g) => parseInt(g, 16) || 0) : [];
  const h = groups(head);
  const t = groups(tail);
  const all = tail === undefined ? h : [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
  return all.slice(0, 8).flatMap((g) => u16(g));
}

export interface DnsQueryFields {
  readonly id: number;
  readonly name: string;
  readonly type: QType;
  /** EDNS0 OPT record's UDP size (dig sends one; libc resolvers do not). */
  readonly ednsUdpSize?: number;
}

export function dnsQuery(q: DnsQueryFields): Uint8Array {
  const w = new DnsWriter();
  w.u16(q.id);
  w.u16(0x0100);
  w.u16(1);
  w.u16(0);
  w.u16(0);
  w.u16(q.ednsUdpSize ? 1 : 0);
  w.name(q.name);
  w.u16(QTYPE_NUMBER[q.type]);
  w.u16(1);
  if (q.ednsUdpSize) optRecord(w, q.ednsUdpSize);
  return new Uint8Array(w.bytes);
}

function optRecord(w: DnsWriter, udpSize: number): void {
  w.bytes.push(0);
  w.u16(41);
  w.u16(udpSize);
  w.u32(0);
  w.u16(0);
}

export function dnsResponse(r: DnsResponse): Uint8Array {
  const w = new DnsWriter();
  const rcode = Math.max(0, RCODES.indexOf(r.rcode));
  w.u16(r.id);
  w.u16(
    0x8000 |
      (r.flags.aa ? 0x0400 : 0) |
      (r.flags.tc ? 0x0200 : 0) |
      (r.flags.rd ? 0x0100 : 0) |
      (r.flags.ra ? 0x0080 : 0) |
      rcode,
  );
  w.u16(1);
  w.u16(r.answer.length);
  w.u16(r.authority.length);
  w.u16(r.additional.length + (r.edns ? 1 : 0));
  w.name(r.question.name);
  w.u16(QTYPE_NUMBER[r.question.type]);
  w.u16(1);
  for (const rr of [...r.answer, ...r.authority, ...r.additional]) w.record(rr);
  if (r.edns) optRecord(w, r.edns.udpSize);
  return new Uint8Array(w.bytes);
}

export function ascii(text: string): Uint8Array {
  return new Uint8Array([...text].map((c) => c.charCodeAt(0) & 255));
}

export { concat };
