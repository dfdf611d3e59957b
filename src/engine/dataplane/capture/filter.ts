/**
 * The part of pcap-filter(7) a learner types: `host`, `net` (CIDR), `port`, `portrange` with
 * `src`/`dst`, the protocols `ip`, `arp`, `tcp`, `udp`, `icmp` (and `ip proto N`), combined with
 * `and`/`&&`, `or`/`||`, `not`/`!` and parentheses. A value after `and`/`or` without its own
 * keywords reuses the previous ones (`host 10.0.0.1 or 10.0.0.2`), as libpcap does. Errors carry
 * libpcap's own wording, which tcpdump prints after `tcpdump: `.
 *
 * Like the BPF program libpcap compiles, the filter sees the outermost headers only: `udp port 53` on
 * a node's eth0 does not match DNS carried inside VXLAN.
 */
import { cidrContains, parseCidr, parseIPv4 } from '../../util/ip.ts';
import type { DecodedFrame } from './decode.ts';
import { IPPROTO_ICMP, IPPROTO_TCP, IPPROTO_UDP } from './wire.ts';

export type FrameFilter = (frame: DecodedFrame) => boolean;

export class FilterError extends Error {}

const SYNTAX = "can't parse filter expression: syntax error";

/** /etc/services names libpcap accepts for ports (Debian's netbase, the ones a lab meets). */
const PORT_NAMES: Readonly<Record<string, number>> = {
  ssh: 22,
  domain: 53,
  bootps: 67,
  bootpc: 68,
  http: 80,
  www: 80,
  ntp: 123,
  https: 443,
  'http-alt': 8080,
  webcache: 8080,
};

const PROTO_NUMBERS: Readonly<Record<string, number>> = {
  tcp: IPPROTO_TCP,
  udp: IPPROTO_UDP,
  icmp: IPPROTO_ICMP,
};

const PROTOCOLS = new Set(['ip', 'arp', 'tcp', 'udp', 'icmp']);
const DIRECTIONS = new Set(['src', 'dst']);
const TYPES = new Set(['host', 'net', 'port', 'portrange']);

interface Qualifiers {
  readonly proto?: string;
  readonly dir?: 'src' | 'dst' | 'either';
  readonly type?: string;
}

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const re = /\s*(\(|\)|&&|\|\||!|[^\s()!&|]+)/y;
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < text.length && (m = re.exec(text))) {
    tokens.push(m[1]!);
    at = re.lastIndex;
  }
  if (text.slice(at).trim() !== '') throw new FilterError(SYNTAX);
  return tokens;
}

function ipOf(proto: number): FrameFilter {
  return (f) => f.ip?.protocol === proto;
}

function portValue(text: string): number {
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    if (n > 65535) throw new FilterError(`illegal port number ${n} > 65535`);
    return n;
  }
  const named = PORT_NAMES[text];
  if (named === undefined) throw new FilterError(`unknown port '${text}'`);
  return named;
}

function portsOf(f: DecodedFrame, proto: string | undefined): { sport: number; dport: number } | undefined {
  const l4 = f.ip?.l4;
  if (!l4 || (l4.kind !== 'tcp' && l4.kind !== 'udp')) return undefined;
  if (proto && proto !== l4.kind) return undefined;
  return l4;
}

function addressesOf(f: DecodedFrame): { src: number; dst: number } | undefined {
  if (f.ip) return { src: parseIPv4(f.ip.src) ?? 0, dst: parseIPv4(f.ip.dst) ?? 0 };
  if (f.arp) return { src: parseIPv4(f.arp.senderIp) ?? 0, dst: parseIPv4(f.arp.targetIp) ?? 0 };
  return undefined;
}

function byDirection<T>(dir: Qualifiers['dir'], src: T, dst: T, test: (v: T) => boolean): boolean {
  if (dir === 'src') return test(src);
  if (dir === 'dst') return test(dst);
  return test(src) || test(dst);
}

function protoFilter(proto: string): FrameFilter {
  switch (proto) {
    case 'ip':
      return (f) => f.ip !== undefined;
    case 'arp':
      return (f) => f.arp !== undefined;
    case 'tcp':
      return ipOf(IPPROTO_TCP);
    case 'udp':
      return ipOf(IPPROTO_UDP);
    default:
      return ipOf(IPPROTO_ICMP);
  }
}

function valueFilter(q: Qualifiers, value: string): FrameFilter {
  const type = q.type ?? 'host';
  const proto = q.proto;
  if (type === 'port' || type === 'portrange') {
    if (proto && proto !== 'tcp' && proto !== 'udp' && proto !== 'ip') throw new FilterError(SYNTAX);
    let lo: number;
    let hi: number;
    if (type === 'port') lo = hi = portValue(value);
    else {
      const m = /^([^-]+)-([^-]+)$/.exec(value);
      if (!m) {
        lo = hi = portValue(value);
      } else {
        try {
          lo = portValue(m[1]!);
          hi = portValue(m[2]!);
        } catch (e) {
          if (e instanceof FilterError && e.message.startsWith('unknown port'))
            throw new FilterError(`unknown port in range '${value}'`);
          throw e;
        }
      }
      if (lo > hi) [lo, hi] = [hi, lo];
    }
    const l4 = proto === 'ip' ? undefined : proto;
    return (f) => {
      const p = portsOf(f, l4);
      return p !== undefined && byDirection(q.dir, p.sport, p.dport, (n) => n >= lo && n <= hi);
    };
  }
  if (type === 'net') {
    const slash = value.includes('/');
    const cidr = slash ? parseCidr(value) : partialNet(value);
    const prefix = Number(value.split('/')[1]);
    if (slash && prefix > 32) throw new FilterError('mask length must be <= 32');
    if (!cidr) throw new FilterError(`invalid IPv4 address '${value.split('/')[0] ?? value}'`);
    const base = parseIPv4(value.split('/')[0] ?? '') ?? cidr.base;
    if (slash && base !== cidr.base) throw new FilterError(`non-network bits set in "${value}"`);
    const match = proto ? protoFilter(proto) : undefined;
    return (f) => {
      const a = addressesOf(f);
      if (!a || (match && !match(f))) return false;
      return byDirection(q.dir, a.src, a.dst, (ip) => cidrContains(cidr, ip));
    };
  }
  const ip = parseIPv4(value);
  if (ip === undefined) {
    if (/^\d+(\.\d+){0,3}$/.test(value)) throw new FilterError(`invalid IPv4 address '${value}'`);
    throw new FilterError(`unknown host '${value}'`);
  }
  const match = proto ? protoFilter(proto) : undefined;
  return (f) => {
    const a = addressesOf(f);
    if (!a || (match && !match(f))) return false;
    return byDirection(q.dir, a.src, a.dst, (x) => x === ip);
  };
}

/** `net 10.244` means 10.244.0.0/16, as libpcap reads a dotted prefix. */
function partialNet(value: string) {
  const parts = value.split('.');
  if (parts.length > 4 || parts.some((p) => !/^\d+$/.test(p) || Number(p) > 255)) return undefined;
  return parseCidr(`${[...parts, '0', '0', '0'].slice(0, 4).join('.')}/${parts.length * 8}`);
}

class Parser {
  private at = 0;
  private last: Qualifiers = {};
  private readonly tokens: string[];

  constructor(tokens: string[]) {
    this.tokens = tokens;
  }

  private peek(): string | undefined {
    return this.tokens[this.at];
  }

  private next(): string {
    const t = this.tokens[this.at++];
    if (t === undefined) throw new FilterError(SYNTAX);
    return t;
  }

  parse(): FrameFilter {
    const f = this.or();
    if (this.at !== this.tokens.length) throw new FilterError(SYNTAX);
    return f;
  }

  private or(): FrameFilter {
    let left = this.and();
    while (this.peek() === 'or' || this.peek() === '||') {
      this.at++;
      const l = left;
      const r = this.and();
      left = (f) => l(f) || r(f);
    }
    return left;
  }

  private and(): FrameFilter {
    let left = this.unary();
    while (this.peek() === 'and' || this.peek() === '&&') {
      this.at++;
      const l = left;
      const r = this.unary();
      left = (f) => l(f) && r(f);
    }
    return left;
  }

  private unary(): FrameFilter {
    const t = this.peek();
    if (t === 'not' || t === '!') {
      this.at++;
      const inner = this.unary();
      return (f) => !inner(f);
    }
    if (t === '(') {
      this.at++;
      const inner = this.or();
      if (this.next() !== ')') throw new FilterError(SYNTAX);
      return inner;
    }
    return this.primitive();
  }

  private primitive(): FrameFilter {
    const first = this.next();
    let proto: string | undefined;
    let dir: Qualifiers['dir'];
    let type: string | undefined;
    let t: string | undefined = first;
    if (PROTOCOLS.has(t)) {
      proto = t;
      t = this.peek();
      if (t === 'proto' && proto === 'ip') {
        this.at++;
        return this.ipProto(this.next());
      }
      if (t === undefined || !(DIRECTIONS.has(t) || TYPES.has(t))) {
        this.last = { proto };
        return protoFilter(proto);
      }
      this.at++;
    }
    if (t === 'proto') return this.ipProto(this.next());
    if (DIRECTIONS.has(t)) {
      dir = t === 'src' ? 'src' : 'dst';
      if ((this.peek() === 'or' || this.peek() === 'and') && DIRECTIONS.has(this.tokens[this.at + 1] ?? '')) {
        dir = this.peek() === 'or' ? 'either' : dir;
        this.at += 2;
      }
      t = this.peek();
      if (t !== undefined && TYPES.has(t)) {
        this.at++;
        type = t;
      } else type = 'host';
    } else if (TYPES.has(t)) type = t;
    else if (t === first && !PROTOCOLS.has(first) && this.last.type && this.canReuse(first)) {
      // A bare value continues the previous primitive's keywords.
      return valueFilter(this.last, first);
    } else throw new FilterError(SYNTAX);
    const q: Qualifiers = { ...(proto ? { proto } : {}), ...(dir ? { dir } : {}), type };
    this.last = q;
    return valueFilter(q, this.next());
  }

  /** A bare value is allowed only right after `and`/`or`. */
  private canReuse(value: string): boolean {
    const before = this.tokens[this.at - 2];
    return (before === 'and' || before === 'or' || before === '&&' || before === '||') && !TYPES.has(value);
  }

  private ipProto(value: string): FrameFilter {
    // `tcp`/`udp`/`icmp` are keywords there: libpcap wants `\tcp` or the number.
    const n = /^\d+$/.test(value) ? Number(value) : PROTO_NUMBERS[value.replace(/^\\/, '')];
    if (n === undefined || !/^(\d+|\\\w+)$/.test(value)) throw new FilterError(SYNTAX);
    return ipOf(n);
  }
}

/** Compiles an expression (the words after the options, joined by spaces); empty matches everything. */
export function compileFilter(expression: string): FrameFilter {
  const tokens = tokenize(expression);
  if (tokens.length === 0) return () => true;
  return new Parser(tokens).parse();
}
