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
    : `${mode === 'link' ? ' mode DEFAULT' : ''} group default${i.qlen ? ` qlen ${i.qlen}` : ''}`;
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
    const args = argv.slice(1).filter((a) => a !== '-4' && a !== '-o');
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
      out += header(i, object, busybox) + linkLine(i);
      if (object === 'addr') out += addrLines(i, i.name === 'kube-ipvs0' ? all.ipvs.slice(1) : []);
    }
    return { stdout: out, stderr: '', exitCode: 0 };
  };
}
