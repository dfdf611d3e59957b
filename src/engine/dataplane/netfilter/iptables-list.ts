/**
 * `iptables -L [CHAIN] [-n] [-v] [-x] [--line-numbers]`, printed the way iptables 1.8 prints a listing
 * (xshared.c print_header / print_rule_details / print_ifaces, the same layout in iptables-nft):
 * `Chain NAME (policy P)` (with -v `(policy P 0 packets, 0 bytes)`) or `(N references)`, the column
 * header, then per rule the rule number (`%-4u `), the -v counters, the target padded to 9, the
 * protocol to 5, `--`, -v's in/out interfaces (`%-6s`), source and destination padded to 19
 * (`anywhere` for 0.0.0.0/0 unless -n), then each match's and the target's own print function
 * (libxt_comment ` /* … *\/`, libxt_tcp ` tcp dpt:80`, libxt_mark ` mark match 0x4000/0x4000`,
 * libxt_conntrack ` ctstate RELATED,ESTABLISHED`, libxt_addrtype ` ADDRTYPE match dst-type LOCAL`,
 * libxt_MARK ` MARK or 0x4000` / ` MARK and 0xfff1ffff`, libxt_DNAT ` to:IP:PORT`, …).
 *
 * Simplified: without -n, ports are named from a small /etc/services subset (Debian's names for the
 * ports the course uses) and addresses are never reverse-resolved (cluster addresses have no PTR
 * records in the node's resolver).
 */
import { iptablesSaveProbability } from '../proxy/iptables/probability.ts';
import { canonicalCidr, orderedChains } from './iptables-save.ts';
import type { IptablesRule, IptablesTableName, Match, Target } from './rule.ts';
import type { IptablesRuleset, IptablesTable } from './ruleset.ts';
import { ZERO_COUNTERS, type IptablesCounters } from './counters.ts';

const SERVICES: Record<number, string> = {
  22: 'ssh',
  53: 'domain',
  80: 'http',
  443: 'https',
  8080: 'http-alt',
};

const PROTOS_NUMERIC: Record<string, string> = { ipencap: '4' };

function port(p: number, numeric: boolean): string {
  return numeric ? String(p) : (SERVICES[p] ?? String(p));
}

function address(cidr: string | undefined, numeric: boolean): string {
  if (!cidr) return numeric ? '0.0.0.0/0' : 'anywhere';
  const c = canonicalCidr(cidr);
  if (c === '0.0.0.0/0') return numeric ? c : 'anywhere';
  return c.endsWith('/32') ? c.slice(0, -3) : c;
}

const CT_ORDER = ['INVALID', 'NEW', 'RELATED', 'ESTABLISHED', 'UNTRACKED', 'SNAT', 'DNAT'];

/** A verbatim save-syntax match (the CNI chains') in listing syntax. */
function textMatch(text: string, numeric: boolean): string {
  let m = /^-m multiport --dports (\S+)$/.exec(text);
  if (m)
    return ` multiport dports ${m[1]!
      .split(',')
      .map((p) => (/^\d+$/.test(p) ? port(Number(p), numeric) : p))
      .join(',')}`;
  m = /^-m addrtype (! )?--(src|dst)-type (\w+)( --limit-iface-out)?$/.exec(text);
  if (m) return ` ADDRTYPE match ${m[2]}-type ${m[1] ? '!' : ''}${m[3]}${m[4] ? ' limit-out' : ''}`;
  m = /^-m limit --limit (\S+) --limit-burst (\d+)$/.exec(text);
  if (m) return ` limit: avg ${m[1]} burst ${m[2]}`;
  if (text === '-m physdev --physdev-is-bridged') return ' PHYSDEV match --physdev-is-bridged';
  // libxt_rpfilter prints its flags without the dashes it saves them with.
  m = /^-m rpfilter((?: --(?:loose|validmark|accept-local|invert))+)$/.exec(text);
  if (m) return ` rpfilter${m[1]!.replace(/ --/g, ' ')}`;
  return ` ${text}`;
}

function matchText(m: Match, numeric: boolean): string {
  switch (m.kind) {
    case 'comment':
      return ` /* ${m.comment} */`;
    case 'l4':
      return ` ${m.proto}${m.sport !== undefined ? ` spt:${port(m.sport, numeric)}` : ''}${m.dport !== undefined ? ` dpt:${port(m.dport, numeric)}` : ''}`;
    case 'addrtype':
      return ` ADDRTYPE match${m.srcType ? ` src-type ${m.negate ? '!' : ''}${m.srcType}` : ''}${m.dstType ? ` dst-type ${m.negate ? '!' : ''}${m.dstType}` : ''}`;
    case 'statistic':
      return ` statistic mode random probability ${iptablesSaveProbability(m.probability)}`;
    case 'recent':
      return ` recent: ${m.mode === 'set' ? 'SET' : 'CHECK'}${m.seconds !== undefined ? ` seconds: ${m.seconds}` : ''}${m.reap ? ' reap' : ''} name: ${m.name} side: source mask: 255.255.255.255`;
    case 'mark':
      return ` mark match${m.negate ? ' !' : ''} 0x${m.value.toString(16)}/0x${m.mask.toString(16)}`;
    case 'conntrack':
      return `${m.negate ? ' !' : ''} ctstate ${[...m.ctstate].sort((a, b) => CT_ORDER.indexOf(a) - CT_ORDER.indexOf(b)).join(',')}`;
    case 'set':
      return ` ${m.negate ? '! ' : ''}match-set ${m.name} ${m.flags}`;
    case 'physdev':
      return ` PHYSDEV match ${m.negate ? '! ' : ''}--physdev-is-in`;
    case 'text':
      return textMatch(m.text, numeric);
  }
}

/** libxt_MARK's print: and/or/xor/set/xset from the (mark, mask) pair. */
function markText(mark: number, mask: number): string {
  if (mark === 0) return ` MARK and 0x${(~mask >>> 0).toString(16)}`;
  if (mark === mask) return ` MARK or 0x${mark.toString(16)}`;
  if (mask === 0) return ` MARK xor 0x${mark.toString(16)}`;
  if (mask >>> 0 === 0xffffffff) return ` MARK set 0x${mark.toString(16)}`;
  return ` MARK xset 0x${mark.toString(16)}/0x${mask.toString(16)}`;
}

/** The target's name column and the text its print function appends. */
function targetParts(t: Target | undefined): [string, string] {
  if (!t) return ['', ''];
  switch (t.kind) {
    case 'jump':
    case 'goto':
      return [t.chain, ''];
    case 'ACCEPT':
    case 'DROP':
    case 'RETURN':
      return [t.kind, ''];
    case 'REJECT':
      return ['REJECT', ' reject-with icmp-port-unreachable'];
    case 'DNAT':
      return ['DNAT', ` to:${t.to}`];
    case 'MARK':
      return ['MARK', t.op === 'or' ? markText(t.value, t.value) : markText(t.value, 0)];
    case 'MASQUERADE':
      return ['MASQUERADE', t.randomFully ? ' random-fully' : ''];
    case 'text': {
      const mark = /^-j MARK --set-xmark 0x([0-9a-f]+)\/0x([0-9a-f]+)$/.exec(t.text);
      if (mark) return ['MARK', markText(parseInt(mark[1]!, 16), parseInt(mark[2]!, 16))];
      const nflog = /^-j NFLOG --nflog-group (\d+)$/.exec(t.text);
      if (nflog) return ['NFLOG', ` nflog-group ${nflog[1]}`];
      const j = /^-j (\S+)(.*)$/.exec(t.text);
      return [j?.[1] ?? t.text, j?.[2] ?? ''];
    }
  }
}

function references(table: IptablesTable, chain: string): number {
  let n = 0;
  for (const c of table.chains.values())
    for (const r of c.rules)
      if ((r.target?.kind === 'jump' || r.target?.kind === 'goto') && r.target.chain === chain) n++;
  return n;
}

/** `iptables -L` options: -n, -v (counters and interfaces), -x (exact counters), --line-numbers. */
export interface IptablesListOptions {
  readonly chain?: string;
  readonly numeric: boolean;
  readonly verbose?: boolean;
  readonly exact?: boolean;
  readonly lineNumbers?: boolean;
  /** The node's counters (-v prints them); absent, every count is 0 (a netns nobody sent through). */
  readonly counters?: IptablesCounters;
}

/**
 * libxtables `xtables_print_num`: with -x the exact count (`%8llu `); otherwise up to 99999 as it is
 * (`%5llu `), above that rounded to thousands with a K, M, G or T (`%4lluK `). In a table the exact
 * byte column (`%8llu`) is two narrower than its `%10s` header, as in the real tool; the policy line
 * prints without padding (FMT_NOTABLE).
 */
export function xtablesNum(n: number, opts: { exact: boolean; table: boolean }): string {
  const pad = (text: string, width: number) => (opts.table ? text.padStart(width) : text);
  if (opts.exact) return `${pad(String(n), 8)} `;
  if (n <= 99999) return `${pad(String(n), 5)} `;
  let v = n;
  for (const unit of ['K', 'M', 'G']) {
    v = Math.floor((v + 500) / 1000);
    if (v <= 9999) return `${pad(String(v), 4)}${unit} `;
  }
  v = Math.floor((v + 500) / 1000);
  return `${pad(String(v), 4)}T `;
}

function ruleLine(r: IptablesRule, num: number, opts: IptablesListOptions): string {
  const numeric = opts.numeric;
  const [target, targetText] = targetParts(r.target);
  const proto = r.protocol ? (numeric ? (PROTOS_NUMERIC[r.protocol] ?? r.protocol) : r.protocol) : 'all';
  const src = `${r.source?.negate ? '!' : ' '}${address(r.source?.cidr, numeric).padEnd(19)} `;
  const dst = `${r.destination?.negate ? '!' : ' '}${address(r.destination?.cidr, numeric).padEnd(19)} `;
  // print_firewall prints `[goto] ` right after the addresses, before the matches.
  const goto = r.target?.kind === 'goto' ? '[goto] ' : '';
  let head = opts.lineNumbers ? `${String(num).padEnd(4)} ` : '';
  if (opts.verbose) {
    const c = opts.counters?.rule(r) ?? ZERO_COUNTERS;
    const format = { exact: opts.exact === true, table: true };
    head += xtablesNum(c.pkts, format) + xtablesNum(c.bytes, format);
  }
  // print_ifaces (verbose only): " %-6s " then "%-6s ", `*` for any interface with -n, else `any`.
  const any = numeric ? '*' : 'any';
  const ifaces = opts.verbose
    ? ` ${(r.inInterface ?? any).padEnd(6)} ${(r.outInterface ?? any).padEnd(6)} `
    : '';
  return `${head}${target.padEnd(9)}  ${proto.padEnd(5)}-- ${ifaces}${src}${dst}${goto}${r.matches.map((m) => matchText(m, numeric)).join('')}${targetText}`;
}

/** print_header's column line: each column as wide as the rows' fields. */
function headerLine(opts: IptablesListOptions): string {
  let h = opts.lineNumbers ? 'num  ' : '';
  if (opts.verbose) h += opts.exact ? `${'pkts'.padStart(8)} ${'bytes'.padStart(10)} ` : ' pkts bytes ';
  h += `${'target'.padEnd(9)}  prot opt`;
  if (opts.verbose) h += ` ${'in'.padEnd(6)} ${'out'.padEnd(6)} `;
  return `${h} ${'source'.padEnd(19)}  ${'destination'.padEnd(19)} `;
}

/** `iptables [-t TABLE] -L [CHAIN] [-n] [-v] [-x] [--line-numbers]`; undefined when the chain does not exist. */
export function iptablesList(
  rs: IptablesRuleset,
  table: IptablesTableName,
  opts: IptablesListOptions,
): string | undefined {
  const t = rs.tables.get(table);
  const chains = t ? orderedChains(t) : [];
  const picked = opts.chain ? chains.filter((c) => c.name === opts.chain) : chains;
  if (opts.chain && picked.length === 0) return undefined;
  const header = headerLine(opts);
  // print_header: ` (policy P` then, with -v, ` N packets, N bytes` (FMT_NOTABLE: no padding).
  const policyCounters = (chain: string) => {
    if (!opts.verbose) return '';
    const c = opts.counters?.policy(table, chain) ?? ZERO_COUNTERS;
    const format = { exact: opts.exact === true, table: false };
    return ` ${xtablesNum(c.pkts, format)}packets, ${xtablesNum(c.bytes, format)}bytes`;
  };
  return picked
    .map((c) => {
      const title = c.policy
        ? `Chain ${c.name} (policy ${c.policy}${policyCounters(c.name)})`
        : `Chain ${c.name} (${t ? references(t, c.name) : 0} references)`;
      return [title, header, ...c.rules.map((r, i) => ruleLine(r, i + 1, opts))].join('\n') + '\n';
    })
    .join('\n');
}
