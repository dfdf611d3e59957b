/**
 * The nftables model: a table of sets, maps and chains whose rules are lists of structured
 * expressions, so one rule can be printed the way `nft list` prints it and evaluated by the tracer.
 * Objects keep their creation order, which is the order the kernel (and so `nft list`) returns them.
 */

export type NftField = 'saddr' | 'daddr';

export type NftExpr =
  | { readonly k: 'ct-state-new' }
  | { readonly k: 'ip'; readonly field: NftField; readonly op: '==' | '!='; readonly value: string }
  /** `ip saddr != { a, b }` (an anonymous set). */
  | {
      readonly k: 'ip-anon';
      readonly field: NftField;
      readonly op: '==' | '!=';
      readonly values: readonly string[];
    }
  | { readonly k: 'ip-in-set'; readonly field: NftField; readonly set: string }
  | { readonly k: 'fib-local'; readonly field: NftField }
  | { readonly k: 'l4proto'; readonly proto: 'tcp' | 'udp' | 'sctp' }
  | { readonly k: 'mark-unset'; readonly mask: number }
  | { readonly k: 'jump' | 'goto'; readonly chain: string }
  /** `ip daddr . meta l4proto . th dport vmap @map` or `meta l4proto . th dport vmap @map`. */
  | { readonly k: 'vmap'; readonly key: 'daddr-proto-port' | 'proto-port'; readonly map: string }
  /** `numgen random mod N vmap { 0 : goto a, 1 : goto b }` */
  | { readonly k: 'numgen'; readonly targets: readonly string[] }
  | { readonly k: 'accept' | 'drop' | 'reject' | 'return' | 'masquerade' }
  | { readonly k: 'dnat'; readonly to: string }
  | { readonly k: 'mark-set'; readonly op: 'or' | 'xor'; readonly value: number }
  | { readonly k: 'update'; readonly set: string };

export interface NftRule {
  readonly exprs: readonly NftExpr[];
  readonly comment?: string;
}

export interface NftBaseChain {
  readonly type: 'filter' | 'nat';
  readonly hook: 'prerouting' | 'input' | 'forward' | 'output' | 'postrouting';
  readonly priority: number;
}

export interface NftChain {
  readonly name: string;
  readonly base?: NftBaseChain;
  readonly comment?: string;
  readonly rules: readonly NftRule[];
}

export interface NftElement {
  readonly key: readonly string[];
  /** Maps only: the verdict (`goto chain`, `drop`). */
  readonly value?: string;
  readonly comment?: string;
}

export interface NftSet {
  readonly kind: 'set' | 'map';
  readonly name: string;
  /** `ipv4_addr`, `ipv4_addr . inet_proto . inet_service : verdict`, … */
  readonly type: string;
  readonly flags?: readonly ('dynamic' | 'timeout')[];
  readonly timeoutSeconds?: number;
  readonly comment?: string;
  readonly elements: readonly NftElement[];
}

export interface NftTable {
  readonly family: 'ip';
  readonly name: string;
  readonly comment?: string;
  readonly sets: readonly NftSet[];
  readonly chains: readonly NftChain[];
}

/** The text of one rule as `nft list` prints it. */
export function nftRuleText(rule: NftRule): string {
  const text = rule.exprs.map(nftExprText).join(' ');
  return rule.comment === undefined ? text : `${text} comment "${rule.comment}"`;
}

function nftExprText(e: NftExpr): string {
  switch (e.k) {
    case 'ct-state-new':
      return 'ct state new';
    case 'ip':
      return `ip ${e.field} ${e.op === '!=' ? '!= ' : ''}${e.value}`;
    case 'ip-anon':
      // nft turns a one-element anonymous set into a plain comparison when it evaluates the rule.
      return e.values.length === 1
        ? `ip ${e.field} ${e.op === '!=' ? '!= ' : ''}${e.values[0]}`
        : `ip ${e.field} ${e.op === '!=' ? '!= ' : ''}{ ${e.values.join(', ')} }`;
    case 'ip-in-set':
      return `ip ${e.field} @${e.set}`;
    case 'fib-local':
      return `fib ${e.field} type local`;
    case 'l4proto':
      return `meta l4proto ${e.proto}`;
    case 'mark-unset':
      return `meta mark & ${mark(e.mask)} == ${mark(0)}`;
    case 'jump':
    case 'goto':
      return `${e.k} ${e.chain}`;
    case 'vmap':
      return e.key === 'daddr-proto-port'
        ? `ip daddr . meta l4proto . th dport vmap @${e.map}`
        : `meta l4proto . th dport vmap @${e.map}`;
    case 'numgen':
      return `numgen random mod ${e.targets.length} vmap { ${e.targets.map((t, i) => `${i} : goto ${t}`).join(', ')} }`;
    case 'accept':
    case 'drop':
    case 'reject':
    case 'return':
      return e.k;
    case 'masquerade':
      return 'masquerade fully-random';
    case 'dnat':
      return `dnat to ${e.to}`;
    case 'mark-set':
      return `meta mark set meta mark ${e.op === 'or' ? '|' : '^'} ${mark(e.value)}`;
    case 'update':
      return `update @${e.set} { ip saddr }`;
  }
}

/** nft prints marks as 32-bit hex with leading zeros (`meta mark 0x00004000`). */
function mark(n: number): string {
  return `0x${(n >>> 0).toString(16).padStart(8, '0')}`;
}
