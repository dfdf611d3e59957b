/**
 * The nftables packet walk, after upstream's nftables `tracePacket` (`pkg/proxy/nftables/helpers_test.go`):
 * the base chains of each hook run in priority order (prerouting or output first, then input or
 * forward as routing decides after DNAT, then postrouting); verdict maps are looked up, not scanned,
 * so the number of evaluated rules does not grow with the number of Services; `numgen random mod N`
 * draws from the seeded Rng; `update @affinity-…` and `ip saddr @affinity-…` use timed set entries.
 */
import type { Rng } from '../../util/rng.ts';
import { cidrContainsText } from '../../util/ip.ts';
import { canonicalCidr } from './iptables-save.ts';
import { nftRuleText, type NftChain, type NftExpr, type NftTable } from './nft-model.ts';
import { entryHook, isLocalAddress, type Packet, type RouteResult, type RuleHit } from './packet.ts';

/** Dynamic (affinity) sets: set name → source IP → expiry time (simulated ms). */
export type NftSetState = Map<string, Map<string, number>>;

export interface NftWalkContext {
  readonly localAddresses: readonly string[];
  readonly rng: Rng;
  readonly nowMs: number;
  readonly sets: NftSetState;
}

type Result = 'fallthrough' | 'return' | 'accept' | 'drop' | 'reject';

interface State {
  readonly table: NftTable;
  readonly index: TableIndex;
  readonly p: Packet;
  readonly ctx: NftWalkContext;
  dest: string;
  destPort: number | undefined;
  mark: number;
  dnatTo: string | undefined;
  masquerade: boolean;
  evaluated: number;
  readonly matched: RuleHit[];
}

interface TableIndex {
  readonly chains: Map<string, NftChain>;
  /** set/map name → element key text → value ('' for sets). */
  readonly elements: Map<string, Map<string, string>>;
  readonly timeouts: Map<string, number>;
}

const indexes = new WeakMap<NftTable, TableIndex>();

function indexOf(table: NftTable): TableIndex {
  let idx = indexes.get(table);
  if (!idx) {
    idx = { chains: new Map(table.chains.map((c) => [c.name, c])), elements: new Map(), timeouts: new Map() };
    for (const s of table.sets) {
      idx.elements.set(s.name, new Map(s.elements.map((e) => [e.key.join(' . '), e.value ?? ''])));
      if (s.timeoutSeconds !== undefined) idx.timeouts.set(s.name, s.timeoutSeconds);
    }
    indexes.set(table, idx);
  }
  return idx;
}

const HOOK_ORDER = { prerouting: ['prerouting'], output: ['output'] } as const;

export function traceNftables(table: NftTable, p: Packet, ctx: NftWalkContext): RouteResult {
  const s: State = {
    table,
    index: indexOf(table),
    p,
    ctx,
    dest: p.destIP,
    destPort: p.destPort,
    mark: 0,
    dnatTo: undefined,
    masquerade: false,
    evaluated: 0,
    matched: [],
  };
  const finish = (verdict: RouteResult['verdict']): RouteResult => ({
    verdict,
    ...(s.dnatTo ? { dnatTo: s.dnatTo } : {}),
    masquerade: s.masquerade,
    matched: s.matched,
    evaluatedRules: s.evaluated,
  });
  const entry = entryHook(p, ctx.localAddresses);
  for (const hook of HOOK_ORDER[entry]) {
    const r = runHook(s, hook);
    if (r !== 'accept') return finish(r === 'drop' ? 'DROP' : 'REJECT');
  }
  const next =
    entry === 'output' ? 'postrouting' : isLocalAddress(s.dest, ctx.localAddresses) ? 'input' : 'forward';
  const r = runHook(s, next);
  if (r !== 'accept') return finish(r === 'drop' ? 'DROP' : 'REJECT');
  if (next === 'forward') {
    const post = runHook(s, 'postrouting');
    if (post !== 'accept') return finish(post === 'drop' ? 'DROP' : 'REJECT');
  }
  return finish(s.dnatTo ? 'DNAT' : 'ACCEPT');
}

function runHook(s: State, hook: string): 'accept' | 'drop' | 'reject' {
  const chains = s.table.chains
    .filter((c) => c.base?.hook === hook)
    .sort((a, b) => (a.base?.priority ?? 0) - (b.base?.priority ?? 0));
  for (const c of chains) {
    const r = runChain(s, c.name, 0);
    if (r === 'drop' || r === 'reject') return r;
  }
  return 'accept';
}

function runChain(s: State, name: string, depth: number): Result {
  const chain = s.index.chains.get(name);
  if (!chain || depth > 64) return 'fallthrough';
  rules: for (const rule of chain.rules) {
    s.evaluated++;
    let recorded = false;
    const record = () => {
      if (!recorded) s.matched.push({ table: s.table.name, chain: name, rule: nftRuleText(rule) });
      recorded = true;
    };
    for (const e of rule.exprs) {
      const step = evalExpr(s, e, record, depth);
      if (step === 'nomatch') continue rules;
      if (step === 'next-rule') continue rules;
      if (step !== 'continue') return step;
    }
    record();
  }
  return 'fallthrough';
}

type Step = 'continue' | 'nomatch' | 'next-rule' | Result;

function evalExpr(s: State, e: NftExpr, record: () => void, depth: number): Step {
  const { p, ctx } = s;
  const addr = (field: 'saddr' | 'daddr') => (field === 'saddr' ? p.srcIP : s.dest);
  switch (e.k) {
    case 'ct-state-new':
      return 'continue';
    case 'ip':
      return cidrContainsText(canonicalCidr(e.value), addr(e.field)) === (e.op === '==')
        ? 'continue'
        : 'nomatch';
    case 'ip-anon': {
      const inSet = e.values.some((v) => cidrContainsText(canonicalCidr(v), addr(e.field)));
      return inSet === (e.op === '==') ? 'continue' : 'nomatch';
    }
    case 'ip-in-set': {
      const ip = addr(e.field);
      const dynamic = ctx.sets.get(e.set);
      if (s.index.timeouts.has(e.set)) {
        const exp = dynamic?.get(ip);
        return exp !== undefined && exp > ctx.nowMs ? 'continue' : 'nomatch';
      }
      return s.index.elements.get(e.set)?.has(ip) ? 'continue' : 'nomatch';
    }
    case 'fib-local':
      return isLocalAddress(addr(e.field), ctx.localAddresses) ? 'continue' : 'nomatch';
    case 'l4proto':
      return p.protocol.toLowerCase() === e.proto ? 'continue' : 'nomatch';
    case 'mark-unset':
      return (s.mark & e.mask) === 0 ? 'continue' : 'nomatch';
    case 'mark-set':
      s.mark = e.op === 'or' ? (s.mark | e.value) >>> 0 : (s.mark ^ e.value) >>> 0;
      return 'continue';
    case 'update': {
      let set = ctx.sets.get(e.set);
      if (!set) ctx.sets.set(e.set, (set = new Map()));
      set.set(p.srcIP, ctx.nowMs + (s.index.timeouts.get(e.set) ?? 0) * 1000);
      return 'continue';
    }
    case 'vmap': {
      const proto = p.protocol.toLowerCase();
      const key =
        e.key === 'daddr-proto-port' ? `${s.dest} . ${proto} . ${s.destPort}` : `${proto} . ${s.destPort}`;
      const verdict = s.index.elements.get(e.map)?.get(key);
      if (verdict === undefined) return 'nomatch';
      record();
      s.matched.push({ table: s.table.name, chain: e.map, rule: `${key} : ${verdict}` });
      return applyVerdict(s, verdict, depth);
    }
    case 'numgen': {
      const i = ctx.rng.int(e.targets.length);
      const target = e.targets[i] ?? '';
      record();
      s.matched.push({ table: s.table.name, chain: 'numgen', rule: `${i} : goto ${target}` });
      return applyVerdict(s, `goto ${target}`, depth);
    }
    case 'jump':
    case 'goto':
      record();
      return applyVerdict(s, `${e.k} ${e.chain}`, depth);
    case 'accept':
    case 'drop':
    case 'reject':
    case 'return':
      record();
      return e.k;
    case 'dnat': {
      record();
      s.dnatTo = e.to;
      const [ip, port] = e.to.split(':');
      s.dest = ip ?? s.dest;
      if (port !== undefined) s.destPort = Number(port);
      return 'accept';
    }
    case 'masquerade':
      record();
      s.masquerade = true;
      return 'accept';
  }
}

/** `jump` returns to the next rule; `goto` does not come back to the calling chain. */
function applyVerdict(s: State, verdict: string, depth: number): Step {
  const [kind, chain] = verdict.split(' ');
  if (kind === 'jump' || kind === 'goto') {
    const r = runChain(s, chain ?? '', depth + 1);
    if (r === 'accept' || r === 'drop' || r === 'reject') return r;
    return kind === 'jump' ? 'next-rule' : 'return';
  }
  if (kind === 'drop' || kind === 'reject' || kind === 'accept' || kind === 'return') return kind;
  return 'continue';
}
