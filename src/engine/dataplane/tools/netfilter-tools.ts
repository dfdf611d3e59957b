/**
 * The node's netfilter and IPVS tools, printing what kube-proxy left in the kernel (proxy/kube-proxy.ts
 * renders; the printers are netfilter/iptables-save.ts, nft-list.ts, proxy/ipvs/ipvsadm.ts, conntrack.ts):
 * `iptables-save [-t TABLE]`, `iptables [-t TABLE] -S [CHAIN]`, `ipvsadm -Ln`,
 * `nft list table ip kube-proxy` / `nft list ruleset` / `nft list tables`, `conntrack -L`.
 * With Cilium's kube-proxy replacement the tables hold no KUBE-* chain at all. The CNI's own chains
 * (Calico's cali-*, flannel's, k3s's kube-router) are printed beside kube-proxy's (netfilter/cni/).
 */
import type { CommandHandler, Shows } from '../../shell/types.ts';
import type { IptablesTableName } from '../netfilter/rule.ts';
import { iptablesListRules, iptablesSave } from '../netfilter/iptables-save.ts';
import { iptablesList } from '../netfilter/iptables-list.ts';
import { emptyRuleset, ensureTable, type IptablesRuleset } from '../netfilter/ruleset.ts';
import { cniChainsFor, mergeCniChains } from '../netfilter/cni/index.ts';
import { conntrackList } from '../netfilter/conntrack.ts';
import type { IptablesCounters } from '../netfilter/counters.ts';
import { kubeProxyOf } from '../network/kube-proxy-of.ts';
import type { ToolContext } from './tool-context.ts';

const TABLES = new Set<IptablesTableName>(['filter', 'nat', 'mangle', 'raw'] as IptablesTableName[]);

function nodeOf(ctx: ToolContext): string {
  return ctx.node ?? ctx.pod?.spec?.nodeName ?? '';
}

/** The node's rule counters (a pod's own netns has no rules, so nothing to count). */
function nodeCounters(ctx: ToolContext): IptablesCounters | undefined {
  return privileged(ctx) ? kubeProxyOf(ctx.cluster).rulesetFor(nodeOf(ctx))?.counters : undefined;
}

/** What the node's kernel holds: kube-proxy's rules with the CNI agent's chains beside them. */
function nodeRuleset(ctx: ToolContext): IptablesRuleset {
  const node = nodeOf(ctx);
  const base = kubeProxyOf(ctx.cluster).rulesetFor(node)?.iptables ?? emptyRuleset();
  const cni = cniChainsFor(ctx.cluster, node);
  return cni.length > 0 ? mergeCniChains(base, cni) : base;
}

/**
 * What a listing showed, for the grader's observation checks (shell/sightings.ts): the node's tables
 * (`node:iptables` with the tables printed, `node:nftables`, `node:ipvs`, `node:conntrack`) and where
 * they came from, the node or the pod whose netns was listed.
 */
function shown(
  ctx: ToolContext,
  resource: string,
  names: readonly string[],
  stream: Shows['stream'] = 'stdout',
): Shows {
  const on = privileged(ctx)
    ? nodeOf(ctx)
    : ctx.source.kind === 'pod'
      ? `${ctx.source.namespace}/${ctx.source.name}`
      : nodeOf(ctx);
  // A node's tables can be empty (Cilium replaces kube-proxy): the listing succeeded all the same.
  return { stream, sightings: [{ resource, names, ...(on ? { on } : {}) }], evenEmpty: privileged(ctx) };
}

function privileged(ctx: ToolContext): boolean {
  // A pod sees its own netns: kube-proxy's rules live in the node's (hostNetwork pods share it).
  return ctx.source.kind !== 'pod' || ctx.pod?.spec?.hostNetwork === true;
}

function tableArg(args: readonly string[]): { table?: IptablesTableName; rest: string[]; error?: string } {
  const rest: string[] = [];
  let table: IptablesTableName | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-t' || a === '--table') {
      const t = args[++i] ?? '';
      if (!TABLES.has(t as IptablesTableName)) return { rest, error: t };
      table = t as IptablesTableName;
    } else if (a.startsWith('--table=')) table = a.slice(8) as IptablesTableName;
    else rest.push(a);
  }
  return { ...(table ? { table } : {}), rest };
}

export function iptablesSaveCommand(ctx: ToolContext): CommandHandler {
  return (argv) => {
    const t = tableArg(argv.slice(1));
    if (t.error !== undefined)
      return {
        stdout: '',
        stderr: `iptables-save v1.8.9 (nf_tables): Cannot initialize: table '${t.error}' does not exist\n`,
        exitCode: 1,
      };
    if (!privileged(ctx)) return { stdout: '', stderr: '', exitCode: 0 };
    const counters = nodeCounters(ctx);
    const ruleset = nodeRuleset(ctx);
    const out = iptablesSave(ruleset, {
      ...(t.table ? { table: t.table } : {}),
      header: { nowMs: ctx.cluster.clock.now() },
      ...(counters ? { counters } : {}),
      ruleCounters: t.rest.includes('-c') || t.rest.includes('--counters'),
    });
    const tables = t.table ? [t.table] : [...ruleset.tables.keys()];
    return { stdout: out, stderr: '', exitCode: 0, shows: shown(ctx, 'node:iptables', tables) };
  };
}

export function iptablesCommand(ctx: ToolContext): CommandHandler {
  return (argv) => {
    const t = tableArg(argv.slice(1));
    if (t.error !== undefined)
      return {
        stdout: '',
        stderr: `iptables v1.8.9 (nf_tables): table '${t.error}' does not exist\nPerhaps iptables or your kernel needs to be upgraded.\n`,
        exitCode: 3,
      };
    const shortFlags = t.rest.filter((a) => /^-[a-zA-Z]+$/.test(a)).join('');
    const list = /L/.test(shortFlags) || t.rest.includes('--list');
    const zero = /Z/.test(shortFlags) || t.rest.includes('--zero');
    const table = t.table ?? 'filter';
    const chainArg = t.rest.find((a) => !a.startsWith('-'));
    const counters = nodeCounters(ctx);
    const noChain = () => ({
      stdout: '',
      stderr: `iptables v1.8.9 (nf_tables): chain \`${chainArg ?? ''}' in table \`${table}' is incompatible, use 'nft' tool.\n`,
      exitCode: 1,
    });
    // -Z: the counters back to zero; with -L, right after they are listed (iptables(8)).
    if (zero && !list) {
      const rs = privileged(ctx) ? nodeRuleset(ctx) : emptyRuleset();
      if (chainArg && !rs.tables.get(table)?.chains.has(chainArg)) return noChain();
      counters?.zero(table, chainArg);
      return { stdout: '', stderr: '', exitCode: 0 };
    }
    if (list && !/S/.test(shortFlags)) {
      let rs = privileged(ctx) ? nodeRuleset(ctx) : emptyRuleset();
      if (!rs.tables.has(table)) {
        // A netns without rules still lists the table's built-in chains.
        rs = emptyRuleset();
        ensureTable(rs, table);
      }
      const out = iptablesList(rs, table, {
        ...(chainArg ? { chain: chainArg } : {}),
        numeric: /n/.test(shortFlags) || t.rest.includes('--numeric'),
        verbose: /v/.test(shortFlags) || t.rest.includes('--verbose'),
        exact: /x/.test(shortFlags) || t.rest.includes('--exact'),
        // getopt_long takes any unambiguous prefix: --line, --line-num.
        lineNumbers: t.rest.some((a) => a.length >= 6 && '--line-numbers'.startsWith(a)),
        ...(counters ? { counters } : {}),
      });
      if (out === undefined) return noChain();
      if (zero) counters?.zero(table, chainArg);
      return { stdout: out, stderr: '', exitCode: 0, shows: shown(ctx, 'node:iptables', [table]) };
    }
    const listRules = t.rest.find((a) => a === '-S' || a === '--list-rules');
    if (!listRules)
      return {
        stdout: '',
        stderr:
          "iptables v1.8.9 (nf_tables): this simulator prints rules with -L, -S or iptables-save\nTry `iptables -h' or 'iptables --help' for more information.\n",
        exitCode: 2,
      };
    const chain = t.rest.find((a) => !a.startsWith('-'));
    const rs = privileged(ctx) ? nodeRuleset(ctx) : undefined;
    const all = rs?.tables.has(t.table ?? 'filter') ? iptablesListRules(rs, t.table ?? 'filter') : '';
    const listed = shown(ctx, 'node:iptables', [t.table ?? 'filter']);
    if (!chain)
      return {
        stdout: all || '-P INPUT ACCEPT\n-P FORWARD ACCEPT\n-P OUTPUT ACCEPT\n',
        stderr: '',
        exitCode: 0,
        shows: listed,
      };
    const lines = all
      .split('\n')
      .filter((l) => l === `-N ${chain}` || l.startsWith(`-A ${chain} `) || l.startsWith(`-P ${chain} `));
    if (lines.length === 0)
      return {
        stdout: '',
        stderr: `iptables v1.8.9 (nf_tables): chain \`${chain}' in table \`${t.table ?? 'filter'}' is incompatible, use 'nft' tool.\n`,
        exitCode: 1,
      };
    return { stdout: `${lines.join('\n')}\n`, stderr: '', exitCode: 0, shows: listed };
  };
}

export function ipvsadmCommand(ctx: ToolContext): CommandHandler {
  return (argv) => {
    const args = argv.slice(1);
    if (args.some((a) => !/^-[Lln]+$|^--(list|numeric)$/.test(a)))
      return {
        stdout: '',
        stderr: `ipvsadm: invalid option -- '${(args.find((a) => !/^-[Lln]+$/.test(a)) ?? '').replace(/^-+/, '')}'\nTry \`ipvsadm -h' or 'ipvsadm --help' for more information.\n`,
        exitCode: 2,
      };
    if (!privileged(ctx))
      return {
        stdout: '',
        stderr:
          "Can't initialize ipvs: Protocol not available\nAre you sure that IP Virtual Server is built in the kernel or as module?\n",
        exitCode: 1,
      };
    return {
      stdout: kubeProxyOf(ctx.cluster).ipvsadmList(nodeOf(ctx)),
      stderr: '',
      exitCode: 0,
      shows: shown(ctx, 'node:ipvs', []),
    };
  };
}

export function nftCommand(ctx: ToolContext): CommandHandler {
  return (argv) => {
    const args = argv.slice(1).filter((a) => a !== '-a' && a !== '--handle');
    const words = args.join(' ');
    const proxy = kubeProxyOf(ctx.cluster);
    const table = privileged(ctx) ? proxy.nftListTable(nodeOf(ctx)) : undefined;
    const kubeProxyTable = shown(ctx, 'node:nftables', ['kube-proxy']);
    if (words === 'list ruleset')
      return { stdout: table ?? '', stderr: '', exitCode: 0, shows: kubeProxyTable };
    if (words === 'list tables')
      return { stdout: table ? 'table ip kube-proxy\n' : '', stderr: '', exitCode: 0 };
    const chain = /^list chain (?:(ip|ip6|inet) )?kube-proxy (\S+)$/.exec(words);
    if (chain && (chain[1] ?? 'ip') === 'ip' && table) {
      const listed = nftChainOf(table, chain[2]!);
      if (listed) return { stdout: listed, stderr: '', exitCode: 0, shows: kubeProxyTable };
    }
    const m = /^list table (?:(ip|ip6|inet) )?(\S+)$/.exec(words);
    if (m) {
      if (m[2] === 'kube-proxy' && (m[1] ?? 'ip') === 'ip' && table)
        return { stdout: table, stderr: '', exitCode: 0, shows: kubeProxyTable };
      return {
        stdout: '',
        stderr: `Error: No such file or directory\n${words}\n${' '.repeat(words.length - m[2]!.length)}${'^'.repeat(m[2]!.length)}\n`,
        exitCode: 1,
      };
    }
    return { stdout: '', stderr: `Error: syntax error, unexpected end of file\n${words}\n`, exitCode: 1 };
  };
}

/** `nft list chain ip kube-proxy NAME`: the chain's block of the table, inside its `table` line. */
function nftChainOf(table: string, name: string): string | undefined {
  const lines = table.split('\n');
  const start = lines.findIndex((l) => l === `\tchain ${name} {`);
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && l === '\t}');
  if (end < 0) return undefined;
  return `${lines[0]}\n${lines.slice(start, end + 1).join('\n')}\n}\n`;
}

/**
 * conntrack's tuple filters (conntrack(8)): -s/-d/--sport/--dport match the original direction,
 * -r/-q the reply direction (where a NAT shows: the reply's source is the DNAT target, its
 * destination the SNAT address).
 */
const CONNTRACK_TUPLE_FILTERS = [
  { names: ['-s', '--src', '--orig-src'], field: 'src' },
  { names: ['-d', '--dst', '--orig-dst'], field: 'dst' },
  { names: ['--sport', '--orig-port-src'], field: 'sport' },
  { names: ['--dport', '--orig-port-dst'], field: 'dport' },
  { names: ['-r', '--reply-src'], field: 'replySrc' },
  { names: ['-q', '--reply-dst'], field: 'replyDst' },
] as const;

type TupleField = (typeof CONNTRACK_TUPLE_FILTERS)[number]['field'];

/** The original and reply tuples of one `conntrack -L` line (`src= dst= sport= dport=`, twice). */
function tupleFieldsOf(line: string): Partial<Record<TupleField, string>> {
  const pairs = [...line.matchAll(/\b(src|dst|sport|dport)=(\S+)/g)].map((m) => [m[1]!, m[2]!] as const);
  const original = Object.fromEntries(pairs.slice(0, 4));
  const reply = Object.fromEntries(pairs.slice(4, 8));
  return { ...original, replySrc: reply['src'], replyDst: reply['dst'] };
}

export function conntrackCommand(ctx: ToolContext): CommandHandler {
  return (argv) => {
    const args = argv.slice(1);
    if (!args.includes('-L') && !args.includes('--dump'))
      return {
        stdout: '',
        stderr:
          "conntrack v1.4.7 (conntrack-tools): no command specified\nTry `conntrack -h' or 'conntrack --help' for more information.\n",
        exitCode: 2,
      };
    const st = privileged(ctx) ? kubeProxyOf(ctx.cluster).rulesetFor(nodeOf(ctx)) : undefined;
    if (!st)
      return {
        stdout: '',
        stderr: 'conntrack v1.4.7 (conntrack-tools): 0 flow entries have been shown.\n',
        exitCode: 0,
      };
    const valueOf = (...names: string[]) => {
      const i = args.findIndex((a) => names.includes(a));
      return i >= 0 ? args[i + 1] : undefined;
    };
    const proto = valueOf('-p', '--proto')?.toLowerCase();
    const tupleFilters = CONNTRACK_TUPLE_FILTERS.flatMap(({ names, field }) => {
      const value = valueOf(...names);
      return value === undefined ? [] : [{ field, value }];
    });
    const listing = conntrackList(st.conntrack, ctx.cluster.clock.now());
    // The count line on stderr is printed even when no flow matched: the table was read all the same.
    const flows = shown(ctx, 'node:conntrack', [], 'stderr');
    if (!proto && tupleFilters.length === 0)
      return { stdout: listing.stdout, stderr: listing.stderr, exitCode: 0, shows: flows };
    const lines = listing.stdout
      .split('\n')
      .filter((l) => l !== '' && (!proto || l.startsWith(`${proto} `)))
      .filter((l) => {
        const tuple = tupleFieldsOf(l);
        return tupleFilters.every(({ field, value }) => tuple[field] === value);
      });
    return {
      stdout: lines.map((l) => `${l}\n`).join(''),
      stderr: `conntrack v1.4.7 (conntrack-tools): ${lines.length} flow entries have been shown.\n`,
      exitCode: 0,
      shows: flows,
    };
  };
}
