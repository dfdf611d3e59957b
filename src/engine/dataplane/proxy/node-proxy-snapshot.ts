/**
 * One node's kube-proxy and kernel state (NodeProxyState) as plain JSON for the cluster snapshot, and
 * back: the rules in the kernel (which may be a previous process's leftovers, so they are kept, not
 * re-rendered), the process that runs and what it logged, and the per-connection state of the packet
 * path (conntrack, the rule counters, IPVS connections, `recent` and nft set entries). A restored node
 * prints the same `iptables-save -c`, `conntrack -L` and `ipvsadm -Ln --stats` as the original.
 */
import type { ConntrackEntry } from '../netfilter/conntrack.ts';
import { ConntrackTable } from '../netfilter/conntrack.ts';
import { IptablesCounters, type CountersSnapshot } from '../netfilter/counters.ts';
import type { NftTable } from '../netfilter/nft-model.ts';
import type { IptablesRule, IptablesTableName } from '../netfilter/rule.ts';
import {
  emptyRuleset,
  TABLE_ORDER,
  type IptablesChain,
  type IptablesRuleset,
  type IptablesTable,
} from '../netfilter/ruleset.ts';
import { BUILTIN_CHAINS } from '../netfilter/rule.ts';
import type { KubeProxyLogLine } from './ipvs/deprecation.ts';
import type { VirtualServer } from './ipvs/ipvs-model.ts';
import { IpvsState, type IpvsStateSnapshot } from './ipvs/schedulers.ts';
import type { KubeProxySettings } from './kube-proxy-config.ts';
import type { NodeProxyState, ProcessStart } from './kube-proxy.ts';

type Pairs<V> = readonly (readonly [string, V])[];

export interface NodeProxySnapshot {
  readonly running?: { readonly settings: KubeProxySettings; readonly instance: string };
  readonly attempted?: string;
  /** Tables, their chains in order, each with its policy (built-in chains) and rules. */
  readonly iptables: readonly (readonly [
    IptablesTableName,
    readonly {
      readonly name: string;
      readonly policy?: 'ACCEPT' | 'DROP';
      readonly rules: readonly IptablesRule[];
    }[],
  ])[];
  readonly nftables?: NftTable;
  readonly ipvs?: {
    readonly virtualServers: readonly VirtualServer[];
    readonly ipsets: Pairs<readonly string[]>;
    readonly dummyAddresses: readonly string[];
    readonly nodePortAddresses: readonly string[];
  };
  readonly ipvsState: IpvsStateSnapshot;
  readonly conntrack: readonly ConntrackEntry[];
  readonly recent: Pairs<Pairs<number>>;
  readonly counters: CountersSnapshot;
  readonly nftSets: Pairs<Pairs<number>>;
  readonly log: readonly KubeProxyLogLine[];
  readonly starts: Pairs<ProcessStart>;
}

const nested = (m: ReadonlyMap<string, ReadonlyMap<string, number>>): Pairs<Pairs<number>> =>
  [...m].map(([k, inner]) => [k, [...inner]] as const);
const unnest = (pairs: Pairs<Pairs<number>>): Map<string, Map<string, number>> =>
  new Map(pairs.map(([k, inner]) => [k, new Map(inner)]));

function canonicalChains(t: IptablesTable): IptablesChain[] {
  const builtins = BUILTIN_CHAINS[t.name];
  const first = builtins.flatMap((n) => t.chains.get(n) ?? []);
  const rest = [...t.chains.values()]
    .filter((c) => !builtins.includes(c.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return [...first, ...rest];
}

export function nodeProxySnapshot(st: NodeProxyState): NodeProxySnapshot {
  return {
    ...(st.running ? { running: st.running } : {}),
    ...(st.attempted !== undefined ? { attempted: st.attempted } : {}),
    // In the order iptables-save prints them (built-in chains, then the others by name): the order the
    // renders happened to create chains in is not observable, and a snapshot must not depend on it.
    iptables: [...st.iptables.tables]
      .sort(([a], [b]) => TABLE_ORDER.indexOf(a) - TABLE_ORDER.indexOf(b))
      .map(
        ([name, t]) =>
          [
            name,
            canonicalChains(t).map((c) => ({
              name: c.name,
              ...(c.policy ? { policy: c.policy } : {}),
              rules: c.rules,
            })),
          ] as const,
      ),
    ...(st.nftables ? { nftables: st.nftables } : {}),
    ...(st.ipvs
      ? {
          ipvs: {
            virtualServers: st.ipvs.virtualServers,
            ipsets: [...st.ipvs.ipsets].map(([k, v]) => [k, [...v]] as const),
            dummyAddresses: st.ipvs.dummyAddresses,
            nodePortAddresses: st.ipvs.nodePortAddresses,
          },
        }
      : {}),
    ipvsState: st.ipvsState.snapshot(),
    conntrack: st.conntrack.snapshot(),
    recent: nested(st.recent),
    counters: st.counters.snapshot(st.iptables),
    nftSets: nested(st.nftSets),
    log: st.log,
    starts: [...st.starts],
  };
}

export function restoreNodeProxy(snap: NodeProxySnapshot): NodeProxyState {
  const iptables: IptablesRuleset = emptyRuleset();
  for (const [name, chains] of snap.iptables)
    iptables.tables.set(name, {
      name,
      chains: new Map(chains.map((c) => [c.name, { ...c, rules: [...c.rules] }])),
    });
  const ipvsState = new IpvsState();
  ipvsState.restore(snap.ipvsState);
  const conntrack = new ConntrackTable();
  conntrack.restore(snap.conntrack);
  const counters = new IptablesCounters();
  counters.restore(iptables, snap.counters);
  return {
    ...(snap.running ? { running: snap.running } : {}),
    ...(snap.attempted !== undefined ? { attempted: snap.attempted } : {}),
    iptables,
    ...(snap.nftables ? { nftables: snap.nftables } : {}),
    ...(snap.ipvs
      ? {
          ipvs: {
            ...snap.ipvs,
            ipsets: new Map(snap.ipvs.ipsets.map(([k, v]) => [k, new Set(v)])),
            // What the last render restored is in the kernel's tables above; a render writes anew.
            iptables: { jumps: [], ensureChains: [], chains: [] },
          },
        }
      : {}),
    ipvsState,
    conntrack,
    recent: unnest(snap.recent),
    counters,
    nftSets: unnest(snap.nftSets),
    log: [...snap.log],
    starts: new Map(snap.starts),
  };
}
