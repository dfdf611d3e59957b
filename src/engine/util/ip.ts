/** IPv4 arithmetic for IPAM, Service CIDRs, routes and NetworkPolicy ipBlocks. IPv6 is out of scope. */

export interface Cidr {
  /** Network address as an unsigned 32-bit integer. */
  readonly base: number;
  readonly prefix: number;
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

export function parseIPv4(s: string): number | undefined {
  const m = IPV4.exec(s);
  if (!m) return undefined;
  let n = 0;
  for (let i = 1; i <= 4; i++) {
    const part = m[i]!;
    if (part.length > 1 && part.startsWith('0')) return undefined;
    const v = Number(part);
    if (v > 255) return undefined;
    n = n * 256 + v;
  }
  return n >>> 0;
}

export function formatIPv4(n: number): string {
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** Parses "a.b.c.d/n". Host bits are cleared, as `net.ParseCIDR` returns the network. */
export function parseCidr(s: string): Cidr | undefined {
  const slash = s.indexOf('/');
  if (slash < 0) return undefined;
  const ip = parseIPv4(s.slice(0, slash));
  const prefixText = s.slice(slash + 1);
  if (ip === undefined || !/^\d{1,2}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  if (prefix > 32) return undefined;
  return { base: (ip & maskOf(prefix)) >>> 0, prefix };
}

export function formatCidr(c: Cidr): string {
  return `${formatIPv4(c.base)}/${c.prefix}`;
}

export function maskOf(prefix: number): number {
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

export function cidrSize(c: Cidr): number {
  return 2 ** (32 - c.prefix);
}

export function cidrContains(c: Cidr, ip: number): boolean {
  return ((ip & maskOf(c.prefix)) >>> 0) === c.base;
}

export function cidrContainsText(cidr: string, ip: string): boolean {
  const c = parseCidr(cidr);
  const n = parseIPv4(ip);
  return c !== undefined && n !== undefined && cidrContains(c, n);
}

/** The `index`-th address of the block (0 is the network address). */
export function nthAddress(c: Cidr, index: number): number {
  return (c.base + index) >>> 0;
}

/** Splits `c` into consecutive subnets of `prefix` bits and returns the `index`-th one. */
export function nthSubnet(c: Cidr, prefix: number, index: number): Cidr | undefined {
  if (prefix < c.prefix) return undefined;
  const count = 2 ** (prefix - c.prefix);
  if (index < 0 || index >= count) return undefined;
  return { base: (c.base + index * 2 ** (32 - prefix)) >>> 0, prefix };
}
