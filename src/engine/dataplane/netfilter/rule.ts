/**
 * The iptables rule model: what one `-A CHAIN …` line means, kept structured so the same rule can be
 * printed the way `iptables-save` prints it and evaluated by the packet tracer. Address and protocol
 * options are fields (iptables hoists them in front of the matches when it saves); `-m` matches keep
 * the order in which they were given.
 */

export type IptablesTableName = 'raw' | 'mangle' | 'filter' | 'nat';

/** `-s`/`-d` value: an address or CIDR, optionally negated with `!`. */
export interface AddressMatch {
  readonly cidr: string;
  readonly negate?: boolean;
}

export type Match =
  | { readonly kind: 'comment'; readonly comment: string }
  /** `-m tcp|udp|sctp [--dport N] [--sport N]` */
  | {
      readonly kind: 'l4';
      readonly proto: 'tcp' | 'udp' | 'sctp';
      readonly dport?: number;
      readonly sport?: number;
    }
  | {
      readonly kind: 'addrtype';
      readonly srcType?: 'LOCAL';
      readonly dstType?: 'LOCAL';
      readonly negate?: boolean;
    }
  /** `-m statistic --mode random --probability P`; `probability` is kube-proxy's `%0.10f` text. */
  | { readonly kind: 'statistic'; readonly probability: string }
  | {
      readonly kind: 'recent';
      readonly name: string;
      readonly mode: 'set' | 'rcheck';
      readonly seconds?: number;
      readonly reap?: boolean;
    }
  | { readonly kind: 'mark'; readonly value: number; readonly mask: number; readonly negate?: boolean }
  | { readonly kind: 'conntrack'; readonly ctstate: readonly string[]; readonly negate?: boolean }
  /** `-m set --match-set NAME dst,dst` (ipset, IPVS mode). */
  | { readonly kind: 'set'; readonly name: string; readonly flags: string; readonly negate?: boolean }
  /** `-m physdev ! --physdev-is-in` (IPVS mode's external-IP rules). */
  | { readonly kind: 'physdev'; readonly isIn: boolean; readonly negate?: boolean }
  /**
   * A match as iptables-save prints it, verbatim (`-m set --match-set cali40all-hosts-net src`,
   * `-m multiport --dports 4789`). Only the CNIs' chains use it; those are printed, never traced.
   */
  | { readonly kind: 'text'; readonly text: string };

export type Target =
  | { readonly kind: 'jump'; readonly chain: string }
  | { readonly kind: 'ACCEPT' | 'DROP' | 'RETURN' | 'REJECT' }
  | { readonly kind: 'DNAT'; readonly to: string }
  /** kube-proxy writes `--or-mark` / `--xor-mark`; iptables-save prints `--set-xmark`. */
  | { readonly kind: 'MARK'; readonly op: 'or' | 'xor'; readonly value: number }
  | { readonly kind: 'MASQUERADE'; readonly randomFully?: boolean }
  /** `-g CHAIN`: like a jump, but RETURN from CHAIN goes back past the caller (Calico's dispatch). */
  | { readonly kind: 'goto'; readonly chain: string }
  /** A target as iptables-save prints it, verbatim (`-j NFLOG --nflog-group 100`); CNI chains only. */
  | { readonly kind: 'text'; readonly text: string };

export interface IptablesRule {
  readonly source?: AddressMatch;
  readonly destination?: AddressMatch;
  /** `-i IFACE` / `-o IFACE` (`cali+` matches every Calico veth). */
  readonly inInterface?: string;
  readonly outInterface?: string;
  readonly protocol?: 'tcp' | 'udp' | 'sctp' | 'icmp' | 'ipencap';
  readonly matches: readonly Match[];
  /** A rule may have no target (kube-proxy's "other traffic … will be dropped" marker rule). */
  readonly target?: Target;
}

/** Built-in chains of each table, in the order `iptables-save` lists them. */
export const BUILTIN_CHAINS: Readonly<Record<IptablesTableName, readonly string[]>> = {
  raw: ['PREROUTING', 'OUTPUT'],
  mangle: ['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING'],
  filter: ['INPUT', 'FORWARD', 'OUTPUT'],
  nat: ['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING'],
};

/** Comment helper: kube-proxy's `-m comment --comment X`. */
export function comment(text: string): Match {
  return { kind: 'comment', comment: text };
}

export function jump(chain: string): Target {
  return { kind: 'jump', chain };
}
