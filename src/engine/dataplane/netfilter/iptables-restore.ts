/**
 * Applying kube-proxy's iptables writes to a node's ruleset, the way `iptables-restore --noflush`
 * and `EnsureRule(Prepend, …)` do: jump rules are inserted at the top of built-in chains unless an
 * identical rule is already there; every chain named in the restore input is flushed and rewritten;
 * chains kube-proxy no longer needs are deleted (`-X`); everything else on the node stays as it was.
 */
import type { IptablesRule, IptablesTableName } from './rule.ts';
import { formatRule } from './iptables-save.ts';
import { ensureChain, type IptablesRuleset } from './ruleset.ts';

export interface JumpRule {
  readonly table: IptablesTableName;
  readonly srcChain: string;
  readonly dstChain: string;
  readonly rule: IptablesRule;
}

export interface ChainWrite {
  readonly table: IptablesTableName;
  readonly chain: string;
  readonly rules: readonly IptablesRule[];
}

export interface IptablesRestore {
  /** In the order kube-proxy ensures them; each is prepended, so the last one ends up on top. */
  readonly jumps: readonly JumpRule[];
  /** Chains that must exist but whose content kube-proxy does not manage (the canaries). */
  readonly ensureChains: readonly { readonly table: IptablesTableName; readonly chain: string }[];
  readonly chains: readonly ChainWrite[];
  /** Chains to delete when they exist and were not written (stale service chains). */
  readonly deleteStale?: { readonly table: IptablesTableName; readonly isStale: (chain: string) => boolean };
}

export function applyIptablesRestore(rs: IptablesRuleset, restore: IptablesRestore): void {
  for (const j of restore.jumps) {
    ensureChain(rs, j.table, j.dstChain);
    const src = ensureChain(rs, j.table, j.srcChain);
    const text = formatRule(j.srcChain, j.rule);
    if (!src.rules.some((r) => formatRule(j.srcChain, r) === text)) src.rules.unshift(j.rule);
  }
  for (const e of restore.ensureChains) ensureChain(rs, e.table, e.chain);
  const written = new Set<string>();
  for (const w of restore.chains) {
    // The restore input is built fresh on every sync, so its arrays can be adopted as they are.
    ensureChain(rs, w.table, w.chain).rules = w.rules as IptablesRule[];
    written.add(`${w.table}/${w.chain}`);
  }
  const stale = restore.deleteStale;
  if (stale) {
    const table = rs.tables.get(stale.table);
    for (const name of [...(table?.chains.keys() ?? [])]) {
      if (stale.isStale(name) && !written.has(`${stale.table}/${name}`)) table?.chains.delete(name);
    }
  }
}
