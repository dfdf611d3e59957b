/**
 * A node's iptables state: tables of chains of rules. Kube-proxy writes only its own chains
 * (`iptables-restore --noflush`), so the ruleset is shared: other components (kubelet, the CNI, kind's
 * masq agent) may add chains of their own beside kube-proxy's.
 */
import { BUILTIN_CHAINS, type IptablesRule, type IptablesTableName } from './rule.ts';

export interface IptablesChain {
  readonly name: string;
  /** Only built-in chains have a policy. */
  readonly policy?: 'ACCEPT' | 'DROP';
  rules: IptablesRule[];
}

export interface IptablesTable {
  readonly name: IptablesTableName;
  readonly chains: Map<string, IptablesChain>;
}

export interface IptablesRuleset {
  readonly tables: Map<IptablesTableName, IptablesTable>;
}

/**
 * The order iptables-nft's save walks its table list (xtables' `enum nft_table_type`: mangle,
 * security, raw, filter, nat), whatever order the tables were created in; absent tables are
 * skipped. Checked against Debian 12's iptables 1.8.9 in test/unit/kernel-oracle.test.ts.
 */
export const TABLE_ORDER: readonly IptablesTableName[] = ['mangle', 'raw', 'filter', 'nat'];

export function emptyRuleset(): IptablesRuleset {
  return { tables: new Map() };
}

export function ensureTable(rs: IptablesRuleset, name: IptablesTableName): IptablesTable {
  let t = rs.tables.get(name);
  if (!t) {
    t = { name, chains: new Map() };
    for (const b of BUILTIN_CHAINS[name]) t.chains.set(b, { name: b, policy: 'ACCEPT', rules: [] });
    rs.tables.set(name, t);
  }
  return t;
}

export function ensureChain(rs: IptablesRuleset, table: IptablesTableName, chain: string): IptablesChain {
  const t = ensureTable(rs, table);
  let c = t.chains.get(chain);
  if (!c) {
    c = { name: chain, rules: [] };
    t.chains.set(chain, c);
  }
  return c;
}

/** A deep copy, so a node's previous ruleset can be kept for diffs while the next one is built. */
export function cloneRuleset(rs: IptablesRuleset): IptablesRuleset {
  const out = emptyRuleset();
  for (const [name, t] of rs.tables) {
    const chains = new Map<string, IptablesChain>();
    for (const [cn, c] of t.chains) chains.set(cn, { ...c, rules: [...c.rules] });
    out.tables.set(name, { name, chains });
  }
  return out;
}
