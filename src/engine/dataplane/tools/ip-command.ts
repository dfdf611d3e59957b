/**
 * `ip addr|a|address`, `ip link|l`, `ip route|r|ro` (iproute2 6.1 format, captured on Debian 12; BusyBox's
 * applet prints the same layout without `group default qlen`, with `M-DOWN` on veths). Route lines keep
 * iproute2's trailing space.
 */
import type { CommandHandler } from '../../shell/types.ts';
import { buildView, type NetworkView } from '../network/view.ts';
import {
  ipvsAddresses,
  nodeInterfaces,
  nodeRoutes,
  podInterfaces,
  podRoutes,
  type Iface,
} from './interfaces.ts';
import { isBusybox, type ToolContext } from './tool-context.ts';

function eui64(mac: string): string {
  const b = mac.split(':').map((x) => parseInt(x, 16));
  if (b.length !== 6 || b.some((x) => Number.isNaN(x))) return 'fe80::1';
  const h = (x: number, y: number) => ((x << 8) | y).toString(16);
  return `fe80::${h(b[0]! ^ 2, b[1]!)}:${h(b[2]!, 0xff)}:${h(0xfe, b[3]!)}:${h(b[4]!, b[5]!)}`;
}

function header(i: Iface, mode: 'addr' | 'link', busybox: boolean): string {
  const flags = busybox && i.peer?.startsWith('if') ? `${i.flags},M-DOWN` : i.flags;
  const master = i.master ? ` master ${i.master}` : '';
  const tail = busybox
    ? ''
    : // ipaddress.c: "group %s " keeps its trailing space; "qlen %u" (none for a noqueue device) has none.
      `${mode === 'link' ? ' mode DEFAULT' : ''} group default ${i.qlen ? `qlen ${i.qlen}` : ''}`;
  return `${i.index}: ${i.name}${i.peer ? `@${i.peer}` : ''}: <${flags}> mtu ${i.mtu} qdisc ${i.qdisc}${master} state ${i.state}${tail}\n`;
}

function linkLine(i: Iface): string {
  if (i.linkType === 'loopback') return '    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n';
  if (i.linkType === 'ipip') return '    link/ipip 0.0.0.0 brd 0.0.0.0\n';
  const netns =
    i.linkNetns === undefined
      ? ''
      : /^\d+$/.test(i.linkNetns)
        ? ` link-netnsid ${i.linkNetns}`
        : ` link-netns ${i.linkNetns}`;
  return `    link/ether ${i.mac} brd ff:ff:ff:ff:ff:ff${netns}\n`;
}

/**
 * `ip -d` (iproute2 6.1 ipaddress.c print_linkinfo with show_details): on the link/ line
 * " promiscuity %u " "minmtu %u " "maxmtu %u "; print_linktype opens a new line with "    %s " and
 * the kind's print_opt (iplink_vxlan.c vxlan_print_opt for VXLAN; veth, bridge and dummy print no
 * options of their own here); `ip link` adds the inet6 addrgenmode (print_af_spec); then the queue and
 * GSO/TSO/GRO limits of a 6.1 kernel. Every token carries its own trailing space.
 */
function detailsText(i: Iface, mode: 'addr' | 'link'): string {
  const noMtuRange = i.linkType === 'loopback' || i.linkType === 'ipip' || i.kind?.type === 'dummy';
  // A bridge port (the pod veths on cni0) is put in promiscuous mode by the bridge.
  let out = ` promiscuity ${i.master ? 1 : 0} minmtu ${noMtuRange ? 0 : 68} maxmtu ${noMtuRange ? 0 : 65535} `;
  const k = i.kind;
  if (k) {
    out += `\n    ${k.type} `;
    if (k.type === 'vxlan') {
      if (k.external) out += 'external ';
      out += `id ${k.id} `;
      if (k.local) out += `local ${k.local} `;
      if (k.dev) out += `dev ${k.dev} `;
      out += `srcport 0 0 dstport ${k.dstport} nolearning ttl auto ageing 300 udpcsum noudp6zerocsumtx noudp6zerocsumrx `;
    } else if (k.type === 'ipip') out += 'any remote any local any ttl inherit nopmtudisc ';
  }
  if (mode === 'link') out += 'addrgenmode eui64 ';
  const tso = i.linkType === 'loopback' ? 524280 : 65536;
  out += `numtxqueues 1 numrxqueues 1 gso_max_size 65536 gso_max_segs 65535 tso_max_size ${tso} tso_max_segs 65535 gro_max_size 65536 `;
  return out;
}

/** iproute2's `matches()`: the word is a prefix of the option's full name. */
function matchesOption(word: string, full: string, min = 2): boolean {
  return word.length >= min && full.startsWith(word);
}

function addrLines(i: Iface, extra: readonly string[]): string {
  let out = '';
  const inet = (cidr: string, brd: string | undefined, scope: string) =>
    `    inet ${cidr}${brd ? ` brd ${brd}` : ''} scope ${scope}${scope === 'host' ? ' lo' : ` ${i.name}`}\n       valid_lft forever preferred_lft forever\n`;
  if (i.inet) out += inet(i.inet.cidr, i.inet.brd, i.inet.scope);
  for (const ip of extra) out += inet(`${ip}/32`, undefined, 'global');
  if (i.linkType === 'loopback')
    out += '    inet6 ::1/128 scope host \n       valid_lft forever preferred_lft forever\n';
  else if (i.linkType === 'ether' && i.state !== 'DOWN')
    out += `    inet6 ${eui64(i.mac)}/64 scope link \n       valid_lft forever preferred_lft forever\n`;
  return out;
}

function interfacesOf(
  ctx: ToolContext,
  view: NetworkView,
): { ifaces: Iface[]; ipvs: readonly string[] } | undefined {
  if (ctx.pod) {
    const ifaces = podInterfaces(view, ctx.pod);
    const node = ctx.pod.spec?.hostNetwork ? ctx.pod.spec.nodeName : undefined;
    return { ifaces, ipvs: node ? ipvsAddresses(view, node) : [] };
  }
  const node = view.nodeByName(ctx.node ?? '');
  if (!node) return undefined;
  return { ifaces: nodeInterfaces(view, node).ifaces, ipvs: ipvsAddresses(view, node.name) };
}

const OBJECTS: Record<string, 'addr' | 'link' | 'route'> = {
  a: 'addr',
  ad: 'addr',
  addr: 'addr',
  address: 'addr',
  l: 'link',
  li: 'link',
  link: 'link',
  r: 'route',
  ro: 'route',
  route: 'route',
};

export function ipCommand(ctx: ToolContext): CommandHandler {
  return (argv) => {
    // Global options come before the object (ip.c main loop): `ip -d link`, `ip -details link show dev X`.
    let details = false;
    let rest = argv.slice(1);
    while (rest[0]?.startsWith('-')) {
      const opt = rest[0].startsWith('--') ? rest[0].slice(1) : rest[0];
      if (matchesOption(opt, '-details')) details = true;
      else if (!['-4', '-o', '-n', '-oneline', '-numeric'].includes(opt) && !matchesOption(opt, '-brief', 3))
        return { stdout: '', stderr: `Option "${rest[0]}" is unknown, try "ip -help".\n`, exitCode: 255 };
      rest = rest.slice(1);
    }
    const args = rest.filter((a) => a !== '-4' && a !== '-o');
    const objectText = args[0];
    const busybox = isBusybox(ctx);
    if (!objectText)
      return {
        stdout: '',
        stderr: busybox
          ? 'BusyBox v1.37.0 (2024-09-26 21:31:42 UTC) multi-call binary.\n\nUsage: ip [OPTIONS] address|route|link|tunnel|neigh|rule [ARGS]\n'
          : 'Usage: ip [ OPTIONS ] OBJECT { COMMAND | help }\n       ip [ -force ] -batch filename\nwhere  OBJECT := { address | addrlabel | amt | fou | help | ila | ioam | l2tp | link |\n                   macsec | maddress | monitor | mptcp | mroute | mrule |\n                   neighbor | neighbour | netconf | netns | nexthop | ntable |\n                   ntbl | route | rule | sr | tap | tcpmetrics |\n                   token | tunnel | tuntap | vrf | xfrm }\n',
        exitCode: busybox ? 1 : 255,
      };
    const object = OBJECTS[objectText];
    if (!object)
      return { stdout: '', stderr: `Object "${objectText}" is unknown, try "ip help".\n`, exitCode: 1 };
    const view = buildView(ctx.cluster);
    const sub = args[1];
    if (sub?.startsWith('-'))
      return {
        stdout: '',
        stderr: `Command "${sub}" is unknown, try "ip ${object === 'addr' ? 'address' : object} help".\n`,
        exitCode: 255,
      };
    if (sub !== undefined && !['show', 'list', 'ls', 'sh', 'dev'].includes(sub))
      return { stdout: '', stderr: 'RTNETLINK answers: Operation not permitted\n', exitCode: 2 };
    const devFilter =
      sub === 'dev'
        ? args[2]
        : args[1] === 'show' && args[2] === 'dev'
          ? args[3]
          : args[1] === 'show'
            ? args[2]
            : undefined;
    if (object === 'route') {
      const lines = ctx.pod
        ? podRoutes(view, ctx.pod)
        : (() => {
            const node = view.nodeByName(ctx.node ?? '');
            return node ? nodeRoutes(view, node) : [];
          })();
      return { stdout: lines.map((l) => `${l}\n`).join(''), stderr: '', exitCode: 0 };
    }
    const all = interfacesOf(ctx, view);
    if (!all) return { stdout: '', stderr: '', exitCode: 0 };
    const shown = devFilter ? all.ifaces.filter((i) => i.name === devFilter) : all.ifaces;
    if (devFilter && shown.length === 0)
      return { stdout: '', stderr: `Device "${devFilter}" does not exist.\n`, exitCode: 1 };
    let out = '';
    for (const i of shown) {
      const link = linkLine(i);
      out +=
        header(i, object, busybox) + (details ? `${link.slice(0, -1)}${detailsText(i, object)}\n` : link);
      if (object === 'addr') out += addrLines(i, i.name === 'kube-ipvs0' ? all.ipvs.slice(1) : []);
    }
    return { stdout: out, stderr: '', exitCode: 0 };
  };
}
