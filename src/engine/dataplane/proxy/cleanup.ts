/**
 * What a starting kube-proxy removes of other modes' rules (`platformCleanup` in
 * `cmd/kube-proxy/app/server_linux.go`, v1.29+): starting in nftables mode it runs the iptables and
 * the IPVS `CleanupLeftovers`; starting in iptables or IPVS mode it deletes the `ip kube-proxy` table.
 * Switching between iptables and IPVS cleans nothing — stale chains and virtual servers stay until
 * `kube-proxy --cleanup` or a reboot, as on a real node. The iptables cleanup leaves the canary
 * chains and kubelet's KUBE-FIREWALL, which no cleanup owns.
 */
import { formatRule } from '../netfilter/iptables-save.ts';
import type { IptablesRuleset } from '../netfilter/ruleset.ts';
import type { IptablesTableName } from '../netfilter/rule.ts';
import { isServiceChainName } from './iptables/chain-names.ts';
import { iptablesJumpRules, KUBE_FIREWALL } from './iptables/jump-chains.ts';
import { IPVS_IPTABLES_CHAINS, ipvsIptablesRestore } from './ipvs/iptables-rules.ts';
import { emptyIpsets } from './ipvs/ipsets.ts';

/** `iptables.CleanupLeftovers`. */
export function cleanupIptablesLeftovers(rs: IptablesRuleset): void {
  unlink(
    rs,
    iptablesJumpRules().filter((j) => j.dstChain !== KUBE_FIREWALL),
  );
  deleteChains(
    rs,
    'nat',
    (c) => ['KUBE-SERVICES', 'KUBE-NODEPORTS', 'KUBE-POSTROUTING'].includes(c) || isServiceChainName(c),
  );
  deleteChains(rs, 'filter', (c) =>
    ['KUBE-SERVICES', 'KUBE-EXTERNAL-SERVICES', 'KUBE-FORWARD', 'KUBE-NODEPORTS'].includes(c),
  );
}

/** The iptables half of `ipvs.CleanupLeftovers` (the IPVS table and ipsets are dropped by the caller). */
export function cleanupIpvsIptables(rs: IptablesRuleset): void {
  unlink(rs, ipvsIptablesRestore(emptyIpsets(), undefined, false).jumps);
  for (const [table, chain] of IPVS_IPTABLES_CHAINS) deleteChains(rs, table, (c) => c === chain);
}

function unlink(
  rs: IptablesRuleset,
  jumps: readonly { table: IptablesTableName; srcChain: string; rule: Parameters<typeof formatRule>[1] }[],
): void {
  for (const j of jumps) {
    const chain = rs.tables.get(j.table)?.chains.get(j.srcChain);
    if (!chain) continue;
    const text = formatRule(j.srcChain, j.rule);
    chain.rules = chain.rules.filter((r) => formatRule(j.srcChain, r) !== text);
  }
}

function deleteChains(
  rs: IptablesRuleset,
  table: IptablesTableName,
  match: (chain: string) => boolean,
): void {
  const t = rs.tables.get(table);
  if (!t) return;
  for (const [name, c] of [...t.chains]) if (!c.policy && match(name)) t.chains.delete(name);
}
