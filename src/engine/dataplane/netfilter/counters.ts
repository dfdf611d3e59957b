/**
 * The packet and byte counters netfilter keeps for every rule and for each built-in chain's policy
 * (`struct xt_counters`), as `iptables -L -v` and `iptables-save -c` print them. A rule counts a packet
 * when all its matches hold, whatever its target; a built-in chain's policy counts the packets that
 * reach its end.
 *
 * Counters belong to the rule instance in a node's ruleset: a chain rewritten by `iptables-restore`
 * gets new rules and so starts from zero, as in the kernel. kube-proxy restores with `--noflush
 * --counters` and, in its partial syncs, leaves the chains of unchanged Services alone, so their
 * counters survive a sync while KUBE-SERVICES and the other top-level chains, written every time,
 * start again (`carryOver`).
 *
 * Simplified: a connection's first packet is the one that walks the rules (the nat table only ever
 * sees that one, as in the kernel; the filter table would also count the later packets).
 */
import type { IptablesRule, IptablesTableName } from './rule.ts';
import type { IptablesRuleset } from './ruleset.ts';
import { formatRuleSpec } from './iptables-save.ts';

export interface XtCounters {
  readonly pkts: number;
  readonly bytes: number;
}

/** A rule or policy nothing has gone through. */
export const ZERO_COUNTERS: XtCounters = { pkts: 0, bytes: 0 };

interface RuleCount {
  readonly table: IptablesTableName;
  readonly chain: string;
  pkts: number;
  bytes: number;
}

/** Counted chains' rule arrays as they were before a restore (see `IptablesCounters.carryOver`). */
export type CountedChains = ReadonlyMap<string, readonly IptablesRule[]>;

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const chainKey = (table: IptablesTableName, chain: string) => `${table}/${chain}`;

/** Counters by where their rule stands (table, chain, position), since rules are counted by identity. */
export interface CountersSnapshot {
  readonly rules: readonly (readonly [IptablesTableName, string, number, number, number])[];
  readonly policies: readonly (readonly [string, number, number])[];
}

export class IptablesCounters {
  private readonly rules = new Map<IptablesRule, RuleCount>();
  private readonly policies = new Map<string, { pkts: number; bytes: number }>();

  /** The counts of the rules `rs` holds (a rule no longer in its chain can never be shown again). */
  snapshot(rs: IptablesRuleset): CountersSnapshot {
    const rules: [IptablesTableName, string, number, number, number][] = [];
    for (const [rule, c] of this.rules) {
      const at = rs.tables.get(c.table)?.chains.get(c.chain)?.rules.indexOf(rule) ?? -1;
      if (at >= 0) rules.push([c.table, c.chain, at, c.pkts, c.bytes]);
    }
    // Sorted: the order rules were first counted in depends on when renders ran, which no one can see.
    rules.sort((x, y) => cmp(x[0], y[0]) || cmp(x[1], y[1]) || x[2] - y[2]);
    const policies = [...this.policies].sort(([x], [y]) => cmp(x, y));
    return { rules, policies: policies.map(([k, c]) => [k, c.pkts, c.bytes] as const) };
  }

  /** Puts the counts back on the rules now at those positions of `rs` (restored from the same snapshot). */
  restore(rs: IptablesRuleset, snap: CountersSnapshot): void {
    this.rules.clear();
    this.policies.clear();
    for (const [table, chain, at, pkts, bytes] of snap.rules) {
      const rule = rs.tables.get(table)?.chains.get(chain)?.rules[at];
      if (rule) this.rules.set(rule, { table, chain, pkts, bytes });
    }
    for (const [k, pkts, bytes] of snap.policies) this.policies.set(k, { pkts, bytes });
  }

  ruleHit(table: IptablesTableName, chain: string, rule: IptablesRule, bytes: number): void {
    let c = this.rules.get(rule);
    if (!c) this.rules.set(rule, (c = { table, chain, pkts: 0, bytes: 0 }));
    c.pkts++;
    c.bytes += bytes;
  }

  policyHit(table: IptablesTableName, chain: string, bytes: number): void {
    const key = chainKey(table, chain);
    let c = this.policies.get(key);
    if (!c) this.policies.set(key, (c = { pkts: 0, bytes: 0 }));
    c.pkts++;
    c.bytes += bytes;
  }

  rule(rule: IptablesRule): XtCounters {
    return this.rules.get(rule) ?? ZERO_COUNTERS;
  }

  policy(table: IptablesTableName, chain: string): XtCounters {
    return this.policies.get(chainKey(table, chain)) ?? ZERO_COUNTERS;
  }

  /** `iptables [-t TABLE] -Z [CHAIN]`: the rules' and the policy's counters back to zero. */
  zero(table: IptablesTableName, chain?: string): void {
    for (const [rule, c] of this.rules)
      if (c.table === table && (chain === undefined || c.chain === chain)) this.rules.delete(rule);
    for (const key of [...this.policies.keys()])
      if (chain === undefined ? key.startsWith(`${table}/`) : key === chainKey(table, chain))
        this.policies.delete(key);
  }

  /** The rule arrays of every chain that has a counted rule, taken before a restore replaces them. */
  countedChains(rs: IptablesRuleset): CountedChains {
    const out = new Map<string, readonly IptablesRule[]>();
    for (const c of this.rules.values()) {
      const key = chainKey(c.table, c.chain);
      if (out.has(key)) continue;
      const rules = rs.tables.get(c.table)?.chains.get(c.chain)?.rules;
      if (rules) out.set(key, rules);
    }
    return out;
  }

  /**
   * After a restore: a chain the restore did not touch keeps its rules and their counters; a chain it
   * rewrote starts from zero, unless `kept(chain)` says the writer leaves that chain alone when nothing
   * in it changed (kube-proxy's partial sync of an unchanged Service) and the new rules are the same,
   * rule for rule; then each count moves to the rule that replaced it.
   */
  carryOver(before: CountedChains, rs: IptablesRuleset, kept: (chain: string) => boolean): void {
    // What became of each counted chain, decided once per chain: the rules that now stand in for the
    // old ones, position for position, or nothing.
    const successors = new Map<string, readonly IptablesRule[] | undefined>();
    const successorsOf = (table: IptablesTableName, chain: string) => {
      const key = chainKey(table, chain);
      if (!successors.has(key)) {
        const old = before.get(key);
        const now = rs.tables.get(table)?.chains.get(chain)?.rules;
        const same =
          old !== undefined &&
          now !== undefined &&
          (now === old ||
            (kept(chain) &&
              now.length === old.length &&
              old.every((r, i) => formatRuleSpec(r) === formatRuleSpec(now[i]!))));
        successors.set(key, same ? now : undefined);
      }
      return { old: before.get(key), now: successors.get(key) };
    };
    const moved = new Map<IptablesRule, RuleCount>();
    for (const [rule, c] of this.rules) {
      const { old, now } = successorsOf(c.table, c.chain);
      const next = old && now ? now[old.indexOf(rule)] : undefined;
      if (next) moved.set(next, c);
    }
    this.rules.clear();
    for (const [rule, c] of moved) this.rules.set(rule, c);
  }
}
