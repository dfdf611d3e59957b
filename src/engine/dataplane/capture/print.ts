/**
 * tcpdump 4.99's one-line dissection of a frame, from its bytes: the timestamp, `-e`'s link header,
 * `-v`'s IP header fields, ARP, ICMP, UDP, DNS (print-domain.c's `id+ A? name. (len)` and
 * `id 1/0/0 A addr (len)`), TCP with relative sequence numbers (print-tcp.c keeps one entry per
 * connection, created by the first ACK-bearing segment it sees), the VXLAN/OTV encapsulation with the
 * inner frame, IP-in-IP, and `-X`/`-XX`/`-A` dumps. One `Printer` per capture carries that TCP state.
 */
import { formatIPv4 } from '../../util/ip.ts';
import {
  be16,
  be32,
  decodeFrame,
  decodeIpv4,
  LINKTYPE_LINUX_SLL2,
  LINKTYPE_RAW,
  OTV_PORT,
  tunnelled,
  type ArpLayer,
  type DecodedFrame,
  type EtherFrame,
  type IcmpLayer,
  type Ipv4Layer,
  type TcpLayer,
  type UdpLayer,
} from './decode.ts';
import {
  ETHERTYPE_ARP,
  ETHERTYPE_IPV4,
  QTYPE_NUMBER,
  TCP_ACK,
  TCP_FIN,
  TCP_PSH,
  internetChecksum,
  TCP_RST,
  TCP_SYN,
} from './wire.ts';

export interface PrintOptions {
  /** 0: names for ports (`-n`); 1: `-nn`. Host names are never looked up (see tcpdump.ts). */
  readonly numericPorts: boolean;
  readonly ether: boolean;
  readonly verbose: number;
  readonly quiet: boolean;
  /** `''` (default), `t` (none), `tt` (epoch). */
  readonly timestamps: 'default' | 'none' | 'epoch';
  /** `-x`/`-X`: 1 hex, 2 hex+ASCII; `-XX` includes the link header. */
  readonly hex: 0 | 1 | 2;
  readonly hexLink: boolean;
  readonly ascii: boolean;
  /** Interface names by ifindex for `-i any` (cooked v2 headers carry only the index). */
  readonly ifnames?: ReadonlyMap<number, string>;
}

/** Port names tcpdump takes from /etc/services (Debian's netbase) when only `-n` is given. */
const SERVICES: Readonly<Record<string, string>> = {
  'tcp/22': 'ssh',
  'tcp/53': 'domain',
  'udp/53': 'domain',
  'udp/67': 'bootps',
  'udp/68': 'bootpc',
  'tcp/80': 'http',
  'udp/123': 'ntp',
  'tcp/443': 'https',
  'tcp/8080': 'http-alt',
  'udp/8472': 'otv',
  'udp/4789': 'vxlan',
};

const QTYPE_NAME = new Map(Object.entries(QTYPE_NUMBER).map(([k, v]) => [v, k]));
const RCODE_TEXT = ['', ' FormErr', ' ServFail', ' NXDomain', ' NotImp', ' Refused'];

interface SeqEntry {
  /** Base subtracted from this direction's sequence numbers (and the other's acks). */
  readonly forward: string;
  readonly seqBase: number;
  readonly ackBase: number;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

export function timestamp(ms: number, micros: number, style: PrintOptions['timestamps']): string {
  if (style === 'none') return '';
  const us = String(micros).padStart(6, '0');
  if (style === 'epoch') return `${Math.floor(ms / 1000)}.${us} `;
  const d = new Date(ms);
  return `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}.${us} `;
}

export class Printer {
  private readonly seqs = new Map<string, SeqEntry>();
  private readonly opts: PrintOptions;

  constructor(opts: PrintOptions) {
    this.opts = opts;
  }

  /** The lines tcpdump prints for one frame (without the trailing newline). */
  print(frame: Uint8Array, linktype: number, timeMs: number, micros: number): string {
    const d = decodeFrame(linktype, frame);
    const head = timestamp(timeMs, micros, this.opts.timestamps);
    let text = head + this.link(d);
    if (this.opts.hex > 0 || this.opts.ascii) text += this.dump(d, frame);
    return text;
  }

  private link(d: DecodedFrame): string {
    if (d.linktype === LINKTYPE_LINUX_SLL2 && d.sll) {
      const name = this.opts.ifnames?.get(d.sll.ifindex) ?? '?';
      const dir = ['In ', 'B  ', 'M  ', 'P  ', 'Out'][d.sll.packetType] ?? '   ';
      const prefix = `${name.padEnd(5)} ${dir} `;
      const addr = d.sll.addr ? `${d.sll.addr} ` : '';
      const eth = this.opts.ether
        ? `ifindex ${d.sll.ifindex} ${addr}ethertype ${etherName(d.sll.protocol)}, length ${d.length}: `
        : '';
      return prefix + eth + this.network(d.sll.protocol, d.ip, d.arp, d.length - 20, this.opts.ether);
    }
    if (d.linktype === LINKTYPE_RAW) return this.network(ETHERTYPE_IPV4, d.ip, undefined, d.length, false);
    if (!d.ether) return '[|ether]';
    return this.etherLine(d.ether, d.length);
  }

  private etherLine(e: EtherFrame, length: number): string {
    const prefix = this.opts.ether
      ? `${e.src} > ${e.dst}, ethertype ${etherName(e.type)}, length ${length}: `
      : '';
    return prefix + this.network(e.type, e.ip, e.arp, length - 14, this.opts.ether);
  }

  /** With `-e` the link header already named the protocol: no `IP `/`ARP, ` tag. */
  private network(
    type: number,
    ip: Ipv4Layer | undefined,
    arp: ArpLayer | undefined,
    length: number,
    named: boolean,
  ): string {
    if (type === ETHERTYPE_ARP && arp) {
      const tag = named ? '' : 'ARP, ';
      const v = this.opts.verbose > 0 ? 'Ethernet (len 6), IPv4 (len 4), ' : '';
      return `${tag}${v}${arpText(arp)}, length ${length}`;
    }
    if (type === ETHERTYPE_IPV4 && ip) return this.ipLine(ip, named);
    return `ethertype Unknown (0x${type.toString(16).padStart(4, '0')}), length ${length}`;
  }

  private ipLine(ip: Ipv4Layer, named = false): string {
    const verbose = this.opts.verbose > 0;
    let head = named ? '' : 'IP ';
    if (verbose) {
      const proto = PROTO_NAME[ip.protocol] ?? String(ip.protocol);
      head +=
        `(tos 0x${ip.tos.toString(16)}, ttl ${ip.ttl}, id ${ip.id}, offset 0, flags [${ip.df ? 'DF' : 'none'}], ` +
        `proto ${proto} (${ip.protocol}), length ${ip.totalLength})\n    `;
    }
    if (ip.ipip) return `${head}${ip.src} > ${ip.dst}: ${this.ipLine(ip.ipip, named)}`;
    const l4 = ip.l4;
    if (l4?.kind === 'tcp') return head + this.tcpText(ip, l4);
    if (l4?.kind === 'udp') return head + this.udpText(ip, l4);
    if (l4?.kind === 'icmp') return `${head}${ip.src} > ${ip.dst}: ${this.icmpText(l4, ip)}`;
    return `${head}${ip.src} > ${ip.dst}: ip-proto-${ip.protocol} ${ip.payload.length}`;
  }

  private port(proto: 'tcp' | 'udp', port: number): string {
    return this.opts.numericPorts ? String(port) : (SERVICES[`${proto}/${port}`] ?? String(port));
  }

  private udpText(ip: Ipv4Layer, u: UdpLayer): string {
    const ends = `${ip.src}.${this.port('udp', u.sport)} > ${ip.dst}.${this.port('udp', u.dport)}: `;
    const sum = '';
    const tunnel = tunnelled(u);
    if (tunnel && !this.opts.quiet) {
      const flags = `flags [I] (0x08), `;
      const header =
        u.dport === OTV_PORT
          ? `OTV, ${flags}overlay 0, instance ${tunnel.vni}\n`
          : `VXLAN, ${flags}vni ${tunnel.vni}\n`;
      return ends + sum + header + this.etherLine(tunnel.frame, u.payload.length - 8);
    }
    if ((u.sport === 53 || u.dport === 53) && !this.opts.quiet) {
      const dns = dnsText(u.payload, this.opts.verbose);
      if (dns) return ends + sum + dns;
    }
    return `${ends}${sum}UDP, length ${u.payload.length}`;
  }

  private tcpText(ip: Ipv4Layer, t: TcpLayer): string {
    const ends = `${ip.src}.${this.port('tcp', t.sport)} > ${ip.dst}.${this.port('tcp', t.dport)}: `;
    const length = t.payload.length;
    if (this.opts.quiet) return `${ends}tcp ${length}`;
    let seq = t.seq;
    let ack = t.ack;
    if (t.flags & TCP_ACK) {
      const a = `${ip.src}:${t.sport}`;
      const b = `${ip.dst}:${t.dport}`;
      const key = a < b ? `${a}-${b}` : `${b}-${a}`;
      const entry = this.seqs.get(key);
      if (!entry) this.seqs.set(key, { forward: a, seqBase: t.seq, ackBase: t.ack - 1 });
      else if (entry.forward === a) {
        seq = (t.seq - entry.seqBase) >>> 0;
        ack = (t.ack - entry.ackBase) >>> 0;
      } else {
        seq = (t.seq - entry.ackBase) >>> 0;
        ack = (t.ack - entry.seqBase) >>> 0;
      }
    }
    let out = `${ends}Flags [${tcpFlags(t.flags)}]`;
    if (this.opts.verbose > 0) out += `, cksum ${tcpChecksumText(ip)}`;
    if (length > 0 || t.flags & (TCP_SYN | TCP_FIN | TCP_RST)) {
      out += `, seq ${seq}`;
      if (length > 0) out += `:${(seq + length) >>> 0}`;
    }
    if (t.flags & TCP_ACK) out += `, ack ${ack}`;
    out += `, win ${t.window}`;
    if (t.options.length > 0) out += `, options [${tcpOptionsText(t.options)}]`;
    out += `, length ${length}`;
    if (length > 0 && (t.sport === 80 || t.dport === 80 || t.sport === 8080 || t.dport === 8080)) {
      const line = httpFirstLine(t.payload);
      // A segment in the middle of a body (no request or status line) is only named.
      if (this.opts.verbose > 0 && line) out += `: HTTP, length: ${length}${httpLines(t.payload)}`;
      else if (line) out += `: HTTP: ${line}`;
      else out += ': HTTP';
    }
    return out;
  }

  private icmpText(m: IcmpLayer, ip: Ipv4Layer): string {
    const length = ip.payload.length;
    if (m.type === 8 || m.type === 0) {
      const id = be16(m.rest, 0);
      const seq = be16(m.rest, 2);
      return `ICMP echo ${m.type === 8 ? 'request' : 'reply'}, id ${id}, seq ${seq}, length ${length}`;
    }
    if (m.type === 3) {
      const inner = decodeIpUnder(m.data);
      const quoted = this.opts.verbose > 0 ? this.quoted(m.data) : '';
      if (m.code === 3 && inner) {
        const l4 = inner.proto === 17 ? 'udp' : 'tcp';
        return `ICMP ${inner.dst} ${l4} port ${this.port(l4, inner.dport)} unreachable, length ${length}${quoted}`;
      }
      if (m.code === 4 && inner)
        return `ICMP ${inner.dst} unreachable - need to frag (mtu ${be16(m.rest, 2)}), length ${length}${quoted}`;
      return `ICMP ${inner?.dst ?? ''} unreachable, length ${length}`;
    }
    return `ICMP type-#${m.type}, length ${length}`;
  }

  /** `-v` prints the IP header an ICMP error quotes, and what of its transport header fits. */
  private quoted(data: Uint8Array): string {
    const ip = decodeIpv4(data);
    if (!ip) return '';
    const full = ip.totalLength <= data.length;
    if (full) return `\n\t${this.ipLine(ip)}`;
    const proto = PROTO_NAME[ip.protocol] ?? String(ip.protocol);
    const head =
      `IP (tos 0x${ip.tos.toString(16)}, ttl ${ip.ttl}, id ${ip.id}, offset 0, flags [${ip.df ? 'DF' : 'none'}], ` +
      `proto ${proto} (${ip.protocol}), length ${ip.totalLength})`;
    const p = data.subarray((data[0]! & 15) * 4);
    const ports = `${ip.src}.${be16(p, 0)} > ${ip.dst}.${be16(p, 2)}`;
    // The UDP header fits in the 8 quoted bytes; TCP's does not.
    const rest = ip.protocol === 17 ? ` UDP, length ${be16(p, 4) - 8}` : `  [|${proto.toLowerCase()}]`;
    return `\n\t${head}\n    ${ports}:${rest}`;
  }

  private dump(d: DecodedFrame, frame: Uint8Array): string {
    const linkLength = d.linktype === LINKTYPE_LINUX_SLL2 ? 20 : 14;
    const bytes = this.opts.hexLink ? frame : frame.subarray(linkLength);
    if (this.opts.ascii && this.opts.hex === 0) return `\n${asciiDump(bytes)}`;
    return hexDump(bytes, this.opts.hex === 2);
  }
}

const hex4 = (n: number): string => `0x${n.toString(16).padStart(4, '0')}`;

/**
 * `-v`'s TCP checksum: the field and whether it verifies over the pseudo-header. A sender's capture
 * with checksum offload holds only the partial sum (`incorrect -> 0x…` names the right value).
 */
function tcpChecksumText(ip: Ipv4Layer): string {
  const seg = ip.payload.slice();
  const field = be16(seg, 16);
  seg[16] = 0;
  seg[17] = 0;
  const pseudo = new Uint8Array([
    ...ipv4Bytes(ip.src),
    ...ipv4Bytes(ip.dst),
    0,
    ip.protocol,
    seg.length >> 8,
    seg.length & 255,
  ]);
  const sum = internetChecksum(seg, onesSum(pseudo));
  return sum === field ? `${hex4(field)} (correct)` : `${hex4(field)} (incorrect -> ${hex4(sum)})`;
}

function ipv4Bytes(ip: string): number[] {
  return ip.split('.').map(Number);
}

function onesSum(b: Uint8Array): number {
  let s = 0;
  for (let i = 0; i + 1 < b.length; i += 2) s += (b[i]! << 8) | b[i + 1]!;
  return s;
}

const PROTO_NAME: Readonly<Record<number, string>> = { 1: 'ICMP', 4: 'IPIP', 6: 'TCP', 17: 'UDP' };

function etherName(type: number): string {
  const hex = `0x${type.toString(16).padStart(4, '0')}`;
  if (type === ETHERTYPE_IPV4) return `IPv4 (${hex})`;
  if (type === ETHERTYPE_ARP) return `ARP (${hex})`;
  return `Unknown (${hex})`;
}

function arpText(a: ArpLayer): string {
  if (a.op === 1) return `Request who-has ${a.targetIp} tell ${a.senderIp}`;
  if (a.op === 2) return `Reply ${a.senderIp} is-at ${a.senderMac}`;
  return `Unknown (${a.op})`;
}

function tcpFlags(f: number): string {
  let s = '';
  if (f & TCP_FIN) s += 'F';
  if (f & TCP_SYN) s += 'S';
  if (f & TCP_RST) s += 'R';
  if (f & TCP_PSH) s += 'P';
  if (f & 0x20) s += 'U';
  if (f & 0x40) s += 'E';
  if (f & 0x80) s += 'W';
  if (f & TCP_ACK) s += '.';
  return s || 'none';
}

function tcpOptionsText(o: Uint8Array): string {
  const parts: string[] = [];
  for (let i = 0; i < o.length; ) {
    const kind = o[i]!;
    if (kind === 0) {
      parts.push('eol');
      break;
    }
    if (kind === 1) {
      parts.push('nop');
      i++;
      continue;
    }
    const len = o[i + 1] ?? 2;
    if (kind === 2) parts.push(`mss ${be16(o, i + 2)}`);
    else if (kind === 3) parts.push(`wscale ${o[i + 2]}`);
    else if (kind === 4) parts.push('sackOK');
    else if (kind === 8) parts.push(`TS val ${be32(o, i + 2)} ecr ${be32(o, i + 6)}`);
    else parts.push(`unknown-${kind}`);
    i += Math.max(2, len);
  }
  return parts.join(',');
}

function httpFirstLine(p: Uint8Array): string | undefined {
  const end = p.indexOf(13);
  const line = String.fromCharCode(...p.subarray(0, end < 0 ? Math.min(p.length, 200) : end));
  return /^(GET|POST|PUT|DELETE|HEAD|OPTIONS|PATCH|HTTP\/\d\.\d) /.test(line) ? line : undefined;
}

/** `-v`'s HTTP body: each CRLF-ended line on its own tab-indented line; an unended rest is cut. */
function httpLines(p: Uint8Array): string {
  const text = String.fromCharCode(...p);
  const lines = text.split('\r\n');
  const rest = lines.pop() ?? '';
  return lines.map((l) => `\n\t${l}`).join('') + (rest ? `\n\t${rest} [|http]` : '');
}

function decodeIpUnder(b: Uint8Array): { dst: string; proto: number; dport: number } | undefined {
  if (b.length < 28) return undefined;
  const ihl = (b[0]! & 15) * 4;
  return { dst: formatIPv4(be32(b, 16)), proto: b[9]!, dport: be16(b, ihl + 2) };
}

// ---- DNS (print-domain.c) -------------------------------------------------------------------------

interface NameRead {
  readonly name: string;
  readonly next: number;
}

function readName(m: Uint8Array, at: number): NameRead | undefined {
  const labels: string[] = [];
  let i = at;
  let next = -1;
  for (let hops = 0; hops < 64; hops++) {
    const len = m[i];
    if (len === undefined) return undefined;
    if (len === 0) {
      if (next < 0) next = i + 1;
      return { name: labels.length === 0 ? '.' : `${labels.join('.')}.`, next };
    }
    if ((len & 0xc0) === 0xc0) {
      if (next < 0) next = i + 2;
      i = ((len & 0x3f) << 8) | (m[i + 1] ?? 0);
      continue;
    }
    labels.push(String.fromCharCode(...m.subarray(i + 1, i + 1 + len)));
    i += 1 + len;
  }
  return undefined;
}

function rrText(m: Uint8Array, at: number): { owner: string; text: string; next: number } | undefined {
  const owner = readName(m, at);
  if (!owner) return undefined;
  const p = owner.next;
  const type = be16(m, p);
  const rdlen = be16(m, p + 8);
  const rd = p + 10;
  const next = rd + rdlen;
  const name = QTYPE_NAME.get(type) ?? `Type${type}`;
  let data = '';
  if (type === 1) data = ` ${formatIPv4(be32(m, rd))}`;
  else if (type === 28) data = ` ${ipv6Text(m.subarray(rd, rd + 16))}`;
  else if (type === 5 || type === 12 || type === 2) data = ` ${readName(m, rd)?.name ?? ''}`;
  else if (type === 33)
    data = `: ${readName(m, rd + 6)?.name ?? ''} ${be16(m, rd + 4)} ${be16(m, rd)} ${be16(m, rd + 2)}`;
  else if (type === 6) data = '';
  return { owner: owner.name, text: ` ${name}${data}`, next };
}

function ipv6Text(b: Uint8Array): string {
  const groups = Array.from({ length: 8 }, (_, i) => be16(b, i * 2));
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i > 1) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

/** print-domain.c's summary of a DNS message, or undefined when it does not parse. */
function dnsText(m: Uint8Array, verbose: number): string | undefined {
  if (m.length < 12) return undefined;
  const id = be16(m, 0);
  const flags = be16(m, 2);
  const qd = be16(m, 4);
  const an = be16(m, 6);
  const ns = be16(m, 8);
  const ar = be16(m, 10);
  const q = readName(m, 12);
  if (!q) return undefined;
  const qtype = QTYPE_NAME.get(be16(m, q.next)) ?? `Type${be16(m, q.next)}`;
  if ((flags & 0x8000) === 0) {
    let s = `${id}${flags & 0x0100 ? '+' : ''}`;
    if (qd !== 1) s += ` [${qd}q]`;
    if (an) s += ` [${an}a]`;
    if (ns) s += ` [${ns}n]`;
    if (ar) s += ` [${ar}au]`;
    return `${s} ${qtype}? ${q.name} (${m.length})`;
  }
  let s = `${id}${RCODE_TEXT[flags & 15] ?? ` Resp${flags & 15}`}`;
  if (flags & 0x0400) s += '*';
  if ((flags & 0x0080) === 0) s += '-';
  if (flags & 0x0200) s += '|';
  s += ` ${an}/${ns}/${ar}`;
  let at = q.next + 4;
  const answers: { owner: string; text: string }[] = [];
  for (let i = 0; i < an; i++) {
    const rr = rrText(m, at);
    if (!rr) break;
    answers.push({ owner: rr.owner, text: rr.text });
    at = rr.next;
  }
  s += answers.map((a) => (verbose > 0 ? ` ${a.owner}${a.text}` : a.text)).join(',');
  return `${s} (${m.length})`;
}

// ---- dumps ----------------------------------------------------------------------------------------

function printable(b: number): string {
  return b > 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
}

/** `-x` / `-X`: 16 bytes a line, offset in hex, groups of two bytes, then the ASCII column. */
function hexDump(bytes: Uint8Array, withAscii: boolean): string {
  let out = '';
  for (let off = 0; off < bytes.length; off += 16) {
    const row = bytes.subarray(off, off + 16);
    let hex = '';
    for (let i = 0; i < row.length; i += 2) {
      hex +=
        ' ' +
        row[i]!.toString(16).padStart(2, '0') +
        (i + 1 < row.length ? row[i + 1]!.toString(16).padStart(2, '0') : '');
    }
    const line = `\n\t0x${off.toString(16).padStart(4, '0')}: ${hex}`;
    out += withAscii
      ? `${line.padEnd(line.length + (41 - hex.length))} ${[...row].map(printable).join('')}`
      : line;
  }
  return out;
}

/** `-A`: the packet as ASCII, newlines kept, other unprintable bytes as dots. */
function asciiDump(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) {
    if (b === 10 || b === 13) {
      if (b === 10) out += '\n';
    } else out += printable(b);
  }
  return out;
}
