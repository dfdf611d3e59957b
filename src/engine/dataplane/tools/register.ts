/**
 * The dataplane's programs, handed to the command registry (cluster/commands.ts). A pod gets a tool
 * only when its image has it (the registry checks the catalogue), so `curl` in busybox stays
 * `sh: curl: not found`. Node programs are there in every node shell; the learner's machine has curl,
 * nc and ping (reaching node addresses, NodePorts, LoadBalancer VIPs and port-forwards).
 */
import type { ToolHost } from './tool-context.ts';
import type { CommandHandler } from '../../shell/types.ts';
import type { Pod } from '../../api/objects.ts';
import type { ImageProfile } from '../../node/images.ts';
import { agnhostCommand } from './agnhost.ts';
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
import { tcpdumpCommand } from './tcpdump.ts';
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

/**
 * Programs the image catalogue lists (so a real pod has them) that the engine does not run: they say
 * so instead of failing as if the image lacked them.
 */
const NOT_SIMULATED = [
  'mtr',
  'traceroute',
  'iperf3',
  'tshark',
  'nmap',
  'socat',
  'drill',
  'fortio',
  'ethtool',
];

function notSimulated(name: string): Factory {
  return () => () => ({ stdout: '', stderr: `packetpath: ${name} is not simulated\n`, exitCode: 1 });
}

export const POD_TOOLS: ReadonlyMap<string, Factory> = new Map<string, Factory>([
  ['curl', curlCommand],
  ['wget', wgetCommand],
  // Only agnhost's image has it (the registry checks the image's tools).
  ['agnhost', agnhostCommand],
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
  ['tcpdump', tcpdumpCommand],
  // BusyBox's applet and coreutils' program: `chroot /host` in a `kubectl debug node/…` pod.
  ['chroot', chrootCommand],
  ...NETFILTER,
  ...NOT_SIMULATED.map((name): [string, Factory] => [name, notSimulated(name)]),
]);

/**
 * What a kind node (Debian 12) or a k3s VM (Ubuntu) has, plus crictl: kind's base image installs
 * conntrack, iptables, nftables and iproute2 but neither ipvsadm nor ipset (images/base/Dockerfile),
 * so `ipvsadm` there is `bash: ipvsadm: command not found`; a netshoot debug pod has it.
 */
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
  ...NETFILTER.filter(([name]) => name !== 'ipvsadm'),
]);

export const HOST_TOOLS: ReadonlyMap<string, Factory> = new Map<string, Factory>([
  ['curl', curlCommand],
  ['nc', ncCommand],
  ['ping', pingCommand],
]);

/** The container a pod tool runs in (the registry's PodTarget carries more; tools need this much). */
export interface ToolPodTarget<H extends ToolHost> {
  readonly cluster: H;
  readonly pod: Pod;
  readonly container: { readonly name: string };
  readonly profile: ImageProfile;
}

/** The programs per context, as factories of their handlers; generic over the host the root hands in. */
export interface CommandTables<H extends ToolHost, T extends ToolPodTarget<H>> {
  readonly host: ReadonlyMap<string, (cluster: H) => CommandHandler>;
  readonly pod: ReadonlyMap<string, (target: T) => CommandHandler>;
  readonly node: ReadonlyMap<string, (cluster: H, node: string) => CommandHandler>;
}

/** The dataplane's programs for the command registry, each bound to the session's tool context. */
export function dataplaneCommands<H extends ToolHost, T extends ToolPodTarget<H>>(): CommandTables<H, T> {
  const pod = new Map<string, (target: T) => CommandHandler>();
  for (const [name, f] of POD_TOOLS)
    pod.set(name, (target) =>
      f(podToolContext(target.cluster, target.pod, target.container.name, target.profile)),
    );
  const node = new Map<string, (cluster: H, node: string) => CommandHandler>();
  for (const [name, f] of NODE_TOOLS) node.set(name, (cluster, n) => f(nodeToolContext(cluster, n)));
  const host = new Map<string, (cluster: H) => CommandHandler>();
  for (const [name, f] of HOST_TOOLS) host.set(name, (cluster) => f(hostToolContext(cluster)));
  host.set('trace', (cluster) => traceCommand(cluster));
  return { host, pod, node };
}
