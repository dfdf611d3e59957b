/**
 * The DNS message model shared by CoreDNS, the resolvers and the tool printers: resource records,
 * responses, the presentation format of RDATA (as `dig` and zone files print it) and the uncompressed
 * wire size of a message.
 *
 * Sizes are uncompressed on purpose: CoreDNS's `request.Scrub` sets `reply.Compress = false` unless the
 * reply would exceed the client's buffer (coredns `request/request.go`), and the log plugin's `{rsize}` is
 * documented as "raw (uncompressed)". A real kubeadm capture confirms it: the log line
 * `"A IN api.exemplo.com.default.svc.cluster.local. udp 59 false 512" NXDOMAIN qr,aa,rd 152` is a 59-byte
 * question plus one uncompressed SOA record (93 bytes).
 */

export type QType = 'A' | 'AAAA' | 'SRV' | 'PTR' | 'CNAME' | 'TXT' | 'NS' | 'SOA' | 'MX';
export type Rcode = 'NOERROR' | 'FORMERR' | 'SERVFAIL' | 'NXDOMAIN' | 'NOTIMP' | 'REFUSED';

/** Numeric rcodes, as `host` prints them (`3(NXDOMAIN)`). */
export const RCODE_NUMBER: Readonly<Record<Rcode, number>> = {
  NOERROR: 0,
  FORMERR: 1,
  SERVFAIL: 2,
  NXDOMAIN: 3,
  NOTIMP: 4,
  REFUSED: 5,
};

interface RRBase {
  /** Owner name, fully qualified with the trailing dot, lower case. */
  readonly name: string;
  readonly ttl: number;
}

export type RR =
  | (RRBase & { readonly type: 'A'; readonly address: string })
  | (RRBase & { readonly type: 'AAAA'; readonly address: string })
  | (RRBase & { readonly type: 'CNAME' | 'PTR' | 'NS'; readonly target: string })
  | (RRBase & {
      readonly type: 'SRV';
      readonly priority: number;
      readonly weight: number;
      readonly port: number;
      readonly target: string;
    })
  | (RRBase & { readonly type: 'TXT'; readonly text: readonly string[] })
  | (RRBase & { readonly type: 'MX'; readonly preference: number; readonly exchange: string })
  | (RRBase & {
      readonly type: 'SOA';
      readonly mname: string;
      readonly rname: string;
      readonly serial: number;
      readonly refresh: number;
      readonly retry: number;
      readonly expire: number;
      readonly minimum: number;
    });

/** EDNS0 as the client sent it (dig sends udp 1232 and an 8-byte client cookie; libc resolvers send none). */
export interface Edns {
  readonly udpSize: number;
  readonly do?: boolean;
  /** Client cookie as 16 hex digits. */
  readonly cookie?: string;
}

export interface DnsQuestion {
  readonly name: string;
  readonly type: QType;
}

export interface DnsFlags {
  readonly aa: boolean;
  readonly tc: boolean;
  readonly rd: boolean;
  readonly ra: boolean;
}

/** Which part of the server produced the answer; the packet walk prints it. */
export type AnswerSource = 'kubernetes' | 'hosts' | 'forward' | 'cache' | 'chaos' | 'none';

export interface DnsResponse {
  readonly id: number;
  readonly rcode: Rcode;
  readonly flags: DnsFlags;
  readonly question: DnsQuestion;
  readonly answer: readonly RR[];
  readonly authority: readonly RR[];
  readonly additional: readonly RR[];
  /** The OPT record CoreDNS copies back from the request (`request.SizeAndDo`), if the query had one. */
  readonly edns?: Edns;
  readonly cached: boolean;
  readonly source: AnswerSource;
  /** Set when `forward` sent the query upstream. */
  readonly forwarded?: { readonly upstream: string; readonly to: readonly string[] };
}

/** Lower-cases and adds the trailing dot, as `request.Name()` does. */
export function fqdn(name: string): string {
  const n = name.toLowerCase();
  return n.endsWith('.') ? n : `${n}.`;
}

/** Drops the trailing dot, as `dns_name_format` does for nslookup/host output. */
export function withoutDot(name: string): string {
  return name.length > 1 && name.endsWith('.') ? name.slice(0, -1) : name;
}

/** The labels of a name (no empty root label). */
export function labels(name: string): string[] {
  const n = withoutDot(name);
  return n === '' || n === '.' ? [] : n.split('.');
}

/** True when `name` equals `zone` or is below it. Both fully qualified. */
export function isSubdomain(name: string, zone: string): boolean {
  if (zone === '.') return true;
  return name === zone || name.endsWith(`.${zone}`);
}

/** Wire length of an uncompressed domain name: one length byte per label plus the root byte. */
export function nameWireLength(name: string): number {
  let n = 1;
  for (const l of labels(name)) n += l.length + 1;
  return n;
}

function rdataLength(rr: RR): number {
  switch (rr.type) {
    case 'A':
      return 4;
    case 'AAAA':
      return 16;
    case 'CNAME':
    case 'PTR':
    case 'NS':
      return nameWireLength(rr.target);
    case 'SRV':
      return 6 + nameWireLength(rr.target);
    case 'TXT':
      return rr.text.reduce((sum, t) => sum + 1 + t.length, 0);
    case 'MX':
      return 2 + nameWireLength(rr.exchange);
    case 'SOA':
      return nameWireLength(rr.mname) + nameWireLength(rr.rname) + 20;
  }
}

/** Owner + type/class/TTL/RDLENGTH (10 bytes) + RDATA. */
export function rrWireLength(rr: RR): number {
  return nameWireLength(rr.name) + 10 + rdataLength(rr);
}

/** OPT pseudo-record: root owner (1) + 10 + options (4-byte option header + 8-byte client cookie). */
export function optWireLength(edns: Edns | undefined): number {
  if (!edns) return 0;
  return 11 + (edns.cookie ? 4 + edns.cookie.length / 2 : 0);
}

/** Size of a query: header, one question, the OPT record. */
export function queryWireLength(q: DnsQuestion, edns?: Edns): number {
  return 12 + nameWireLength(q.name) + 4 + optWireLength(edns);
}

/** Size of a response as CoreDNS writes it (uncompressed). */
export function responseWireLength(r: DnsResponse): number {
  let n = queryWireLength(r.question, r.edns);
  for (const rr of r.answer) n += rrWireLength(rr);
  for (const rr of r.authority) n += rrWireLength(rr);
  for (const rr of r.additional) n += rrWireLength(rr);
  return n;
}

/** RDATA in presentation format (`dns_rdata_totext`): what dig prints after the type. */
export function rdataText(rr: RR): string {
  switch (rr.type) {
    case 'A':
    case 'AAAA':
      return rr.address;
    case 'CNAME':
    case 'PTR':
    case 'NS':
      return rr.target;
    case 'SRV':
      return `${rr.priority} ${rr.weight} ${rr.port} ${rr.target}`;
    case 'TXT':
      return rr.text.map((t) => `"${t}"`).join(' ');
    case 'MX':
      return `${rr.preference} ${rr.exchange}`;
    case 'SOA':
      return `${rr.mname} ${rr.rname} ${rr.serial} ${rr.refresh} ${rr.retry} ${rr.expire} ${rr.minimum}`;
  }
}

/** A copy of the record with another TTL (cache aging and capping). */
export function withTtl(rr: RR, ttl: number): RR {
  return { ...rr, ttl };
}

/** A copy of the record with another owner name (rewrite's answer reversal). */
export function withName(rr: RR, name: string): RR {
  return { ...rr, name };
}

/** `in-addr.arpa` name of an IPv4 address. */
export function reverseName(ip: string): string {
  return `${ip.split('.').reverse().join('.')}.in-addr.arpa.`;
}

/** The IPv4 address a `d.c.b.a.in-addr.arpa.` name stands for, if it is a full one. */
export function addressFromReverse(name: string): string | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.in-addr\.arpa\.$/.exec(name);
  if (!m) return undefined;
  const parts = [m[4]!, m[3]!, m[2]!, m[1]!];
  if (parts.some((p) => Number(p) > 255 || (p.length > 1 && p.startsWith('0')))) return undefined;
  return parts.join('.');
}
