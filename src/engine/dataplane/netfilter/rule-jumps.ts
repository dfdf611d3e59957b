/**
 * Consistency checks on a ruleset, after upstream's `checkIPTablesRuleJumps`
 * (`pkg/proxy/iptables/proxier_test.go`): no rule may jump to a chain that does not exist, no service
 * chain may be jumped to while empty, and no service chain may exist unreferenced.
 */
import { isServiceChainName } from '../proxy/iptables/chain-names.ts';
import type { IptablesTableName } from './rule.ts';
import type { IptablesRuleset } from './ruleset.ts';

export interface RuleJumpProblem {
  readonly table: IptablesTableName;
  readonly chain: string;
  readonly problem: 'undefined' | 'empty' | 'unused';
}

export function checkRuleJumps(rs: IptablesRuleset): RuleJumpProblem[] {
  const problems: RuleJumpProblem[] = [];
  for (const table of rs.tables.values()) {
    const jumped = new Set<string>();
    for (const c of table.chains.values()) {
      for (const r of c.rules) if (r.target?.kind === 'jump') jumped.add(r.target.chain);
    }
    for (const j of [...jumped].sort()) {
      const target = table.chains.get(j);
      if (!target) problems.push({ table: table.name, chain: j, problem: 'undefined' });
      else if (target.rules.length === 0 && isServiceChainName(j))
        problems.push({ table: table.name, chain: j, problem: 'empty' });
    }
    for (const name of [...table.chains.keys()].sort()) {
      if (isServiceChainName(name) && !jumped.has(name))
        problems.push({ table: table.name, chain: name, problem: 'unused' });
    }
  }
  return problems;
}
