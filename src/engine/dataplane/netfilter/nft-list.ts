/**
 * `nft list table ip kube-proxy`, formatted as nft 1.0.x prints it: tabs, sets and maps first then
 * chains (each in kernel creation order, separated by blank lines), `type … : verdict`, base chains
 * with symbolic priorities (`dstnat - 10`), `elements = { … }` wrapped the way nft's
 * `calculate_delim` wraps them (two addresses or five ports per line, one concatenation per line),
 * elements in the order of nft's mergesort.c: a plain value by its number (`10.96.0.10` before
 * `10.96.3.4`), a concatenation by its key data read as one little-endian number (as observed in real
 * listings: `10.43.0.10 . tcp . 53`, `… . 8000`, `… . 3001`). Both checked against Debian 12's nft
 * 1.0.6 in test/oracle/kernel.test.ts.
 */
import { parseIPv4 } from '../../util/ip.ts';
import {
  nftRuleText,
  type NftBaseChain,
  type NftChain,
  type NftElement,
  type NftSet,
  type NftTable,
} from './nft-model.ts';

export function nftListTable(table: NftTable): string {
  const out: string[] = [`table ${table.family} ${table.name} {`];
  if (table.comment !== undefined) out.push(`\tcomment "${table.comment}"`);
  const blocks = [...table.sets.map(setBlock), ...table.chains.map(chainBlock)];
  out.push(blocks.join('\n\n'));
  out.push('}');
  return out.join('\n') + '\n';
}

function setBlock(s: NftSet): string {
  const lines = [`\t${s.kind} ${s.name} {`, `\t\ttype ${s.type}`];
  if (s.flags?.length) lines.push(`\t\tflags ${s.flags.join(',')}`);
  if (s.timeoutSeconds !== undefined) lines.push(`\t\ttimeout ${nftTime(s.timeoutSeconds)}`);
  if (s.comment !== undefined) lines.push(`\t\tcomment "${s.comment}"`);
  if (s.elements.length > 0) lines.push(`\t\telements = ${elementsText(s)}`);
  lines.push('\t}');
  return lines.join('\n');
}

function chainBlock(c: NftChain): string {
  const lines = [`\tchain ${c.name} {`];
  if (c.comment !== undefined) lines.push(`\t\tcomment "${c.comment}"`);
  if (c.base)
    lines.push(
      `\t\ttype ${c.base.type} hook ${c.base.hook} priority ${priorityText(c.base)}; policy accept;`,
    );
  for (const r of c.rules) lines.push(`\t\t${nftRuleText(r)}`);
  lines.push('\t}');
  return lines.join('\n');
}

const NEWLINE_DELIM = ',\n\t\t\t     ';

function elementsText(s: NftSet): string {
  const keyTypes = s.type.split(' : ')[0]?.split(' . ') ?? [];
  const compare = keyTypes.length > 1 ? compareLittleEndian : compareBigEndian;
  const sorted = [...s.elements].sort((a, b) => compare(keyBytes(a, keyTypes), keyBytes(b, keyTypes)));
  // nft's calculate_delim: concatenations one per line, addresses two per line, ports five.
  const perLine =
    keyTypes.length > 1 ? 1 : keyTypes[0] === 'ipv4_addr' ? 2 : keyTypes[0] === 'inet_service' ? 5 : 1;
  let text = '{ ';
  sorted.forEach((e, i) => {
    if (i > 0) text += i % perLine === 0 ? NEWLINE_DELIM : ', ';
    text += elementText(e);
  });
  return `${text} }`;
}

function elementText(e: NftElement): string {
  let t = e.key.join(' . ');
  if (e.comment !== undefined) t += ` comment "${e.comment}"`;
  if (e.value !== undefined) t += ` : ${e.value}`;
  return t;
}

const PROTO_NUMBERS: Readonly<Record<string, number>> = { tcp: 6, udp: 17, sctp: 132 };

/** The element key as the kernel stores it: each component padded to a 32-bit register. */
function keyBytes(e: NftElement, types: readonly string[]): number[] {
  const out: number[] = [];
  types.forEach((t, i) => {
    const v = e.key[i] ?? '';
    if (t === 'ipv4_addr') {
      const n = parseIPv4(v) ?? 0;
      out.push((n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
    } else if (t === 'inet_proto') {
      out.push(PROTO_NUMBERS[v] ?? 0, 0, 0, 0);
    } else {
      const n = Number(v);
      out.push((n >>> 8) & 255, n & 255, 0, 0);
    }
  });
  return out;
}

/** concat_expr_msort_value: the concatenated key bytes imported in host (little-endian) order. */
function compareLittleEndian(a: number[], b: number[]): number {
  for (let i = Math.max(a.length, b.length) - 1; i >= 0; i--) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** A plain value sorts by its mpz number: its network-order bytes, most significant first. */
function compareBigEndian(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

const STANDARD_PRIORITIES: readonly [string, number][] = [
  ['raw', -300],
  ['mangle', -150],
  ['dstnat', -100],
  ['filter', 0],
  ['security', 50],
  ['srcnat', 100],
];

/**
 * nft's `prio2str`: the first standard priority within ±10 is used if it suits the hook (dstnat only on
 * prerouting/output, srcnat only on input/postrouting); otherwise the number — so a filter chain at
 * -110 on the input hook prints `priority -110`, the same on prerouting `priority dstnat - 10`.
 */
export function priorityText(base: NftBaseChain): string {
  for (const [name, value] of STANDARD_PRIORITIES) {
    if (Math.abs(base.priority - value) > 10) continue;
    const ok =
      name === 'dstnat'
        ? base.hook === 'prerouting' || base.hook === 'output'
        : name === 'srcnat'
          ? base.hook === 'input' || base.hook === 'postrouting'
          : true;
    if (!ok) break;
    const offset = base.priority - value;
    return offset === 0 ? name : offset > 0 ? `${name} + ${offset}` : `${name} - ${-offset}`;
  }
  return String(base.priority);
}

/** nft's time_print: `3h`, `1d2h`, `10s`. */
export function nftTime(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const text = `${d ? `${d}d` : ''}${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}`;
  return text || '0s';
}
