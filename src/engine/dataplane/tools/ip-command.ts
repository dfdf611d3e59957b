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
} from '../network/interfaces.ts';
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

/** A bridge port's place on its bridge, for the `bridge_slave` line. */
interface BridgePort {
  /** 1 for the first port enslaved, 2 for the next… (the kernel's port_no). */
  readonly portNo: number;
  readonly bridgeMac: string;
}

/** iproute2's `%4i.%.2i` timer format. */
function timer(centis: number): string {
  return `${String(Math.floor(centis / 100)).padStart(4)}.${String(centis % 100).padStart(2, '0')}`;
}

/**
 * iplink_bridge.c bridge_print_opt for a bridge created as the CNI bridge plugin creates cni0 (kernel
 * defaults: STP off, 300 s ageing, VLAN filtering off, multicast snooping on, the bridge's own
 * nf_call_* off), as iproute2 6.1 prints it on a kernel with VLAN filtering, IGMP snooping and bridge
 * netfilter built in. The bridge ID is priority 0x8000 and the bridge's MAC, which the plugin pins so
 * it no longer follows the lowest port MAC. The FDB garbage collector's countdown (`gc_timer`) restarts
 * every ageing period of the simulated clock (the kernel reschedules it at most that far ahead).
 */
function bridgeOptions(mac: string, nowMs: number): string {
  const id = `8000.${mac}`;
  const gc = 30000 - (Math.floor(nowMs / 10) % 30000);
  return (
    `forward_delay 1500 hello_time 200 max_age 2000 ageing_time 30000 stp_state 0 priority 32768 ` +
    `vlan_filtering 0 vlan_protocol 802.1Q bridge_id ${id} designated_root ${id} root_port 0 ` +
    `root_path_cost 0 topology_change 0 topology_change_detected 0 hello_timer ${timer(0)} ` +
    `tcn_timer ${timer(0)} topology_change_timer ${timer(0)} gc_timer ${timer(gc)} ` +
    `vlan_default_pvid 1 vlan_stats_enabled 0 vlan_stats_per_port 0 group_fwd_mask 0 ` +
    `group_address 01:80:c2:00:00:00 mcast_snooping 1 no_linklocal_learn 0 mcast_vlan_snooping 0 ` +
    `mcast_router 1 mcast_query_use_ifaddr 0 mcast_querier 0 mcast_hash_elasticity 16 ` +
    `mcast_hash_max 4096 mcast_last_member_count 2 mcast_startup_query_count 2 ` +
    `mcast_last_member_interval 100 mcast_membership_interval 26000 mcast_querier_interval 25500 ` +
    `mcast_query_interval 12500 mcast_query_response_interval 1000 ` +
    `mcast_startup_query_interval 3124 mcast_stats_enabled 0 mcast_igmp_version 2 ` +
    `mcast_mld_version 1 nf_call_iptables 0 nf_call_ip6tables 0 nf_call_arptables 0 `
  );
}

/**
 * iplink_bridge_slave.c bridge_slave_print_opt (iproute2 6.1) for a pod's veth on cni0: forwarding
 * at once (STP off), port priority 32 and cost 2 (a veth reports 10 Gb/s), hairpin on as flannel's
 * conflist asks (`"hairpinMode": true`), port_id 0x8000 | port_no, designated to its own bridge.
 */
function bridgeSlaveOptions(port: BridgePort): string {
  const id = `8000.${port.bridgeMac}`;
  const portId = 0x8000 | port.portNo;
  return (
    `bridge_slave state forwarding priority 32 cost 2 hairpin on guard off root_block off ` +
    `fastleave off learning on flood on port_id 0x${portId.toString(16)} port_no 0x${port.portNo.toString(16)} ` +
    `designated_port ${portId} designated_cost 0 designated_bridge ${id} designated_root ${id} ` +
    `hold_timer ${timer(0)} message_age_timer ${timer(0)} forward_delay_timer ${timer(0)} ` +
    `topology_change_ack 0 config_pending 0 proxy_arp off proxy_arp_wifi off mcast_router 1 ` +
    `mcast_fast_leave off mcast_flood on bcast_flood on mcast_to_unicast off neigh_suppress off ` +
    `group_fwd_mask 0 group_fwd_mask_str 0x0 vlan_tunnel off isolated off locked off `
  );
}

/**
 * `ip -d` (iproute2 6.1 ipaddress.c print_linkinfo with show_details): on the link/ line
 * " promiscuity %u " "minmtu %u " "maxmtu %u "; print_linktype opens a new line with "    %s " and
 * the kind's print_opt (iplink_vxlan.c vxlan_print_opt for VXLAN, the bridge options for a bridge;
 * veth and dummy print none), then a bridge port's `bridge_slave` options on a line of their own;
 * `ip link` adds the inet6 addrgenmode (print_af_spec); then the queue and GSO/TSO/GRO limits of a
 * 6.1 kernel. Every token carries its own trailing space.
 */
function detailsText(i: Iface, mode: 'addr' | 'link', nowMs: number, port: BridgePort | undefined): string {
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
    else if (k.type === 'bridge') out += bridgeOptions(i.mac, nowMs);
  }
  if (port) out += `\n    ${bridgeSlaveOptions(port)}`;
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
    // Ports are numbered on each bridge in the order they were enslaved (interface index order).
    const ports = new Map<string, BridgePort>();
    const portCount = new Map<string, number>();
    for (const i of all.ifaces) {
      const bridge = i.master ? all.ifaces.find((b) => b.name === i.master) : undefined;
      if (!bridge) continue;
      const portNo = (portCount.get(bridge.name) ?? 0) + 1;
      portCount.set(bridge.name, portNo);
      ports.set(i.name, { portNo, bridgeMac: bridge.mac });
    }
    const nowMs = ctx.cluster.clock.now();
    let out = '';
    for (const i of shown) {
      const link = linkLine(i);
      out +=
        header(i, object, busybox) +
        (details ? `${link.slice(0, -1)}${detailsText(i, object, nowMs, ports.get(i.name))}\n` : link);
      if (object === 'addr') out += addrLines(i, i.name === 'kube-ipvs0' ? all.ipvs.slice(1) : []);
    }
    return { stdout: out, stderr: '', exitCode: 0 };
  };
}
