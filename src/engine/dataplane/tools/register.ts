/**
 * The dataplane's programs, handed to the command registry (cluster/commands.ts). A pod gets a tool
 * only when its image has it (the registry checks the catalogue), so `curl` in busybox stays
 * `sh: curl: not found`. Node programs are there in every node shell; the learner's machine has curl,
 * nc and ping (reaching node addresses, NodePorts, LoadBalancer VIPs and port-forwards).
 */
import type { Cluster } from '../../cluster/cluster.ts';
import type { CommandHandler } from '../../shell/types.ts';
import type { PodTarget } from '../../cluster/commands.ts';
import { ciliumDbgCommand } from './cilium-dbg.ts';
import { curlCommand } from './curl.ts';
import { digCommand, getentCommand, hostCommand, nslookupCommand } from './dns-tools.ts';
import { ipCommand } from './ip-command.ts';
import { ncCommand } from './nc.ts';
import {
  conntrackCommand,
  ipvsadmCommand,
  iptablesCommand,
  iptablesSaveCommand,
  nftCommand,
} from './netfilter-tools.ts';
import { bridgeCommand, chrootCommand, crictlCommand, sysctlCommand } from './node-tools.ts';
import { pingCommand } from './ping.ts';
import { netstatCommand, ssCommand } from './ss.ts';
import { wgetCommand } from './wget.ts';
import { traceCommand } from '../trace/trace-command.ts';
import { hostToolContext, nodeToolContext, podToolContext, type ToolContext } from './tool-context.ts';

type Factory = (ctx: ToolContext) => CommandHandler;

/** Programs per context; each takes the session's tool context. */
const NETFILTER: [string, Factory][] = [
  ['iptables-save', iptablesSaveCommand],
  ['iptables', iptablesCommand],
  ['ipvsadm', ipvsadmCommand],
  ['nft', nftCommand],
  ['conntrack', conntrackCommand],
];

export const POD_TOOLS: ReadonlyMap<string, Factory> = new Map<string, Factory>([
  ['curl', curlCommand],
  ['wget', wgetCommand],
  ['nc', ncCommand],
  ['ping', pingCommand],
  ['nslookup', nslookupCommand],
  ['dig', digCommand],
  ['host', hostCommand],
  ['getent', (ctx) => getentCommand(ctx)],
  ['ip', ipCommand],
  ['ss', ssCommand],
  ['netstat', netstatCommand],
  ['bridge', bridgeCommand],
  ['sysctl', sysctlCommand],
  // Only Cilium's agent image has it (the registry checks the image's tools).
  ['cilium-dbg', ciliumDbgCommand],
  ...NETFILTER,
]);

/** What a kind node (Debian 12) or a k3s VM (Ubuntu) has, plus crictl. */
export const NODE_TOOLS: ReadonlyMap<string, Factory> = new Map<string, Factory>([
  ['curl', curlCommand],
  ['ping', pingCommand],
  ['getent', (ctx) => getentCommand(ctx)],
  ['ip', ipCommand],
  ['ss', ssCommand],
  ['bridge', bridgeCommand],
  ['sysctl', sysctlCommand],
  ['crictl', crictlCommand],
  ['chroot', chrootCommand],
  ...NETFILTER,
]);

export const HOST_TOOLS: ReadonlyMap<string, Factory> = new Map<string, Factory>([
  ['curl', curlCommand],
  ['nc', ncCommand],
  ['ping', pingCommand],
]);

/** The programs per context, as factories of their handlers. */
export interface CommandTables {
  readonly host: ReadonlyMap<string, (cluster: Cluster) => CommandHandler>;
  readonly pod: ReadonlyMap<string, (target: PodTarget) => CommandHandler>;
  readonly node: ReadonlyMap<string, (cluster: Cluster, node: string) => CommandHandler>;
}

/** The dataplane's programs for the command registry, each bound to the session's tool context. */
export function dataplaneCommands(): CommandTables {
  const pod = new Map<string, (target: PodTarget) => CommandHandler>();
  for (const [name, f] of POD_TOOLS)
    pod.set(name, (target) =>
      f(podToolContext(target.cluster, target.pod, target.container.name, target.profile)),
    );
  const node = new Map<string, (cluster: Cluster, node: string) => CommandHandler>();
  for (const [name, f] of NODE_TOOLS) node.set(name, (cluster, n) => f(nodeToolContext(cluster, n)));
  const host = new Map<string, (cluster: Cluster) => CommandHandler>();
  for (const [name, f] of HOST_TOOLS) host.set(name, (cluster) => f(hostToolContext(cluster)));
  host.set('trace', (cluster) => traceCommand(cluster));
  return { host, pod, node };
}
