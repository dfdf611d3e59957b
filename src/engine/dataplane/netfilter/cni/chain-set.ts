/**
 * Chains a CNI agent writes beside kube-proxy's, and how they join the node's tables: agents hook the
 * built-in chains with rules they keep at the top (`insert`: felix, kube-router) or at the end
 * (`append`: flannel, felix's FORWARD trailer), and own chains of their own. kube-proxy's ruleset is
 * never changed: the merge is a copy made for printing (iptables-save, iptables -S).
 */
import type { IptablesRule, IptablesTableName } from '../rule.ts';
import { cloneRuleset, ensureChain, type IptablesRuleset } from '../ruleset.ts';

export type CniChainSet = {
  readonly table: IptablesTableName;
  readonly chain: string;
  readonly position: 'insert' | 'append' | 'own';
  readonly rules: readonly IptablesRule[];
}[];

/** kube-proxy's rules plus the CNI's, as the kernel holds them after both have synced. */
export function mergeCniChains(base: IptablesRuleset, sets: readonly CniChainSet[]): IptablesRuleset {
  const rs = cloneRuleset(base);
  for (const set of sets)
    for (const c of set) {
      const chain = ensureChain(rs, c.table, c.chain);
      if (c.position === 'insert') chain.rules = [...c.rules, ...chain.rules];
      else chain.rules = [...chain.rules, ...c.rules];
    }
  return rs;
}
