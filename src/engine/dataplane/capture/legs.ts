/**
 * Where a packet of a modelled flow is seen on its way, and with which headers: the client pod's eth0
 * and the host end of its veth carry it before DNAT; the node's bridge sees it on the way in and, after
 * kube-proxy's DNAT/SNAT, on the way out; between nodes the tunnel device carries the inner packet and
 * the node's eth0 the encapsulated one (flannel and Cilium: VXLAN on UDP 8472; Calico: VXLAN 4789 VNI
 * 4096, or IP-in-IP through tunl0); the server's side sees the translated packet. Replies take the
 * same places in reverse, with conntrack's reverse translation at the node that translated.
 *
 * A leg is one sighting: a network namespace, an interface, a direction, the frame there, and a small
 * delay from the moment the packet left its socket (a bridge hop is microseconds, a node-to-node hop a
 * few hundred).
 */
import type { Pod } from '../../api/objects.ts';
import { fnv32a } from '../../util/rng.ts';
import { cniPlugin } from '../../node/cni/index.ts';
import type { CniDataplane } from '../network/cni-dataplane.ts';
import type { NetworkView, NodeInfo } from '../network/view.ts';
import { hostInterfaceOf } from '../network/routes.ts';
import { macOf, nodeInterfaces, podInterfaces, type Iface } from '../network/interfaces.ts';
import { podSecurityIdentity } from '../network/cilium-identity.ts';
import { ETHERTYPE_IPV4, ethernet, ipv4, udp, vxlan, IPPROTO_IPIP, IPPROTO_UDP } from './wire.ts';

/** A network namespace: a node's (also its hostNetwork pods') or a pod's own. */
export type Netns =
  | { readonly kind: 'node'; readonly node: string }
  | { readonly kind: 'pod'; readonly uid: string; readonly node: string };

export function netnsKey(n: Netns): string {
  return n.kind === 'node' ? `node/${n.node}` : `pod/${n.uid}`;
}

export interface Leg {
  readonly netns: Netns;
  readonly iface: string;
  readonly ifindex: number;
  readonly direction: 'in' | 'out';
  /** The frame with its link header (Ethernet, or none on tunl0). */
  readonly frame: Uint8Array;
  readonly link: 'ether' | 'raw';
  readonly delayUs: number;
}

/** One end of a flow: a pod in its own netns, a node (or hostNetwork pod), or a machine outside. */
export type Place =
  | { readonly kind: 'pod'; readonly pod: Pod; readonly node: NodeInfo }
  | { readonly kind: 'node'; readonly node: NodeInfo }
  | { readonly kind: 'outside'; readonly node?: NodeInfo };

/** The IP packet (header + payload) before and after the translation node's NAT. */
export interface PacketPair {
  /** As the sender's side has it (pre-DNAT for requests, post-reverse-NAT for replies). */
  readonly near: (ttlDrop: number) => Uint8Array;
  /** As the far side has it. */
  readonly far: (ttlDrop: number) => Uint8Array;
}

/** Where the first packet stopped: delivered, or dropped after the sender's side or before the receiver. */
export type Reach = 'all' | 'sender-side' | 'before-receiver';

const DOCKER_GATEWAY_MAC = '02:42:ac:12:00:01';
const OUTSIDE_MAC = '02:42:c0:a8:40:01';

interface NetnsView {
  readonly ifaces: readonly Iface[];
  byName(name: string): Iface | undefined;
}

/** Interface tables of the namespaces a flow touches, built once per flow. */
export class Topology {
  private readonly cache = new Map<string, NetnsView>();
  readonly view: NetworkView;
  readonly dp: (node: string) => CniDataplane;

  constructor(view: NetworkView, dp: (node: string) => CniDataplane) {
    this.view = view;
    this.dp = dp;
  }

  netns(n: Netns): NetnsView {
    const key = netnsKey(n);
    let v = this.cache.get(key);
    if (!v) {
      const ifaces = this.ifacesOf(n);
      v = { ifaces, byName: (name) => ifaces.find((i) => i.name === name) };
      this.cache.set(key, v);
    }
    return v;
  }

  private ifacesOf(n: Netns): readonly Iface[] {
    const node = this.view.nodeByName(n.node);
    if (!node) return [];
    if (n.kind === 'node') return nodeInterfaces(this.view, node).ifaces;
    const pod = this.view.cluster.store.list('pods').find((p) => p.metadata.uid === n.uid);
    return pod ? podInterfaces(this.view, pod) : [];
  }
}

function podNetns(p: { pod: Pod; node: NodeInfo }): Netns {
  return { kind: 'pod', uid: p.pod.metadata.uid, node: p.node.name };
}

function nodeNetns(node: NodeInfo): Netns {
  return { kind: 'node', node: node.name };
}

function podMac(pod: Pod): string {
  return macOf(`eth0/${pod.metadata.uid}`);
}

/** The MAC a pod's default route resolves to: flannel's cni0 bridge, else the host end of its veth. */
function gatewayMac(topo: Topology, pod: Pod, node: NodeInfo): string {
  const name = cniPlugin(topo.dp(node.name).cni).bridge ?? hostInterfaceOf(topo.view, pod);
  return macOf(`${name}/${node.name}`);
}

/** The frames between a pod and its node: pod eth0, host veth, and flannel's bridge. */
function podSideLegs(
  topo: Topology,
  p: { pod: Pod; node: NodeInfo },
  toPod: boolean,
  packet: Uint8Array,
  at: number,
): Leg[] {
  const gw = gatewayMac(topo, p.pod, p.node);
  const mac = podMac(p.pod);
  const frame = toPod ? ethernet(mac, gw, ETHERTYPE_IPV4, packet) : ethernet(gw, mac, ETHERTYPE_IPV4, packet);
  const podNs = podNetns(p);
  const nodeNs = nodeNetns(p.node);
  const veth = hostInterfaceOf(topo.view, p.pod);
  const podIf = topo.netns(podNs).byName('eth0');
  const vethIf = topo.netns(nodeNs).byName(veth);
  const legs: Leg[] = [];
  const push = (netns: Netns, iface: Iface | undefined, direction: 'in' | 'out', delayUs: number): void => {
    if (iface)
      legs.push({ netns, iface: iface.name, ifindex: iface.index, direction, frame, link: 'ether', delayUs });
  };
  const bridgeName = cniPlugin(topo.dp(p.node.name).cni).bridge;
  const bridge = bridgeName ? topo.netns(nodeNs).byName(bridgeName) : undefined;
  if (toPod) {
    push(nodeNs, bridge, 'out', at);
    push(nodeNs, vethIf, 'out', at + 1);
    push(podNs, podIf, 'in', at + 2);
  } else {
    push(podNs, podIf, 'out', at);
    push(nodeNs, vethIf, 'in', at + 1);
    push(nodeNs, bridge, 'in', at + 2);
  }
  return legs;
}

/** The VXLAN source port: Linux hashes the inner flow into the ephemeral range. */
function vxlanSourcePort(inner: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 12; i < 24 && i < inner.length; i++) h = Math.imul(h ^ inner[i]!, 0x01000193);
  return 32768 + ((h >>> 0) % 28232);
}

function vni(topo: Topology, dp: CniDataplane, from: Place): number {
  const id = cniPlugin(dp.cni).vni ?? 0;
  if (id !== 'security-identity') return id;
  // Cilium carries the source's security identity in the VNI (host: 1, world: 2).
  if (from.kind === 'pod') return podSecurityIdentity(topo.view.cluster, from.pod);
  return from.kind === 'node' ? 1 : 2;
}

/**
 * The crossing from node `a` to node `b`: the tunnel device out on `a`, the encapsulated packet on both
 * eth0s, the tunnel device in on `b`; without encapsulation (BGP, native routing) the plain packet on
 * the eth0s.
 */
function crossingLegs(
  topo: Topology,
  a: NodeInfo,
  b: NodeInfo,
  from: Place,
  packet: Uint8Array,
  at: number,
): Leg[] {
  const dp = topo.dp(a.name);
  const nsA = nodeNetns(a);
  const nsB = nodeNetns(b);
  const legs: Leg[] = [];
  const sight = (
    ns: Netns,
    name: string,
    direction: 'in' | 'out',
    frame: Uint8Array,
    link: Leg['link'],
    delayUs: number,
  ): void => {
    const iface = topo.netns(ns).byName(name);
    if (iface) legs.push({ netns: ns, iface: name, ifindex: iface.index, direction, frame, link, delayUs });
  };
  const dev = dp.encapsulation === 'none' ? undefined : dp.tunnelDevice;
  let outer = packet;
  if (dev) {
    const ipip = dp.encapsulation === 'ipip';
    // tunl0 carries bare IP; a VXLAN device is an Ethernet device with its own MAC on each node.
    const inner = ipip
      ? packet
      : ethernet(macOf(`${dev}/${b.name}`), macOf(`${dev}/${a.name}`), ETHERTYPE_IPV4, packet);
    const link: Leg['link'] = ipip ? 'raw' : 'ether';
    sight(nsA, dev, 'out', inner, link, at);
    sight(nsB, dev, 'in', inner, link, at + 160);
    const payload = ipip
      ? packet
      : udp(a.ip, b.ip, vxlanSourcePort(packet), dp.udpPort ?? 8472, vxlan(vni(topo, dp, from), inner));
    // IP-in-IP copies DF from the inner packet; the kernel's VXLAN transmit leaves it clear.
    const fields = { src: a.ip, dst: b.ip, id: fnv32a(`${a.ip}${at}`) & 0xffff, ttl: 64 };
    outer = ipv4({ ...fields, protocol: ipip ? IPPROTO_IPIP : IPPROTO_UDP, df: ipip }, payload);
  }
  const frame = ethernet(macOf(`eth0/${b.name}`), macOf(`eth0/${a.name}`), ETHERTYPE_IPV4, outer);
  sight(nsA, 'eth0', 'out', frame, 'ether', at + 10);
  sight(nsB, 'eth0', 'in', frame, 'ether', at + 150);
  return legs;
}

/** Where the translation of a flow happens, seen from this packet: before it leaves its sender's node, or when it reaches the receiver's. */
export type NatAt = 'sender' | 'receiver' | 'none';

/**
 * Every sighting of one packet from `from` to `to`. `pair.near` is the packet as its sender has it,
 * `pair.far` after the translation (at the sender's node for requests, the receiver's for replies).
 */
export function packetLegs(
  topo: Topology,
  from: Place,
  to: Place,
  natAt: NatAt,
  pair: PacketPair,
  reach: Reach = 'all',
): Leg[] {
  const legs: Leg[] = [];
  const fromNode = from.node;
  const toNode = to.node;
  const between = (drop: number): Uint8Array => (natAt === 'sender' ? pair.far(drop) : pair.near(drop));
  const delivered = (drop: number): Uint8Array => (natAt === 'none' ? pair.near(drop) : pair.far(drop));
  if (from.kind === 'pod') legs.push(...podSideLegs(topo, from, false, pair.near(0), 0));
  else if (from.kind === 'outside' && fromNode) {
    const ns = nodeNetns(fromNode);
    const eth = topo.netns(ns).byName('eth0');
    const frame = ethernet(macOf(`eth0/${fromNode.name}`), OUTSIDE_MAC, ETHERTYPE_IPV4, pair.near(0));
    if (eth)
      legs.push({
        netns: ns,
        iface: 'eth0',
        ifindex: eth.index,
        direction: 'in',
        frame,
        link: 'ether',
        delayUs: 0,
      });
  }
  if (reach === 'sender-side' || !fromNode) return legs;
  // A node forwarding the packet decrements its TTL; one the node's own socket sends does not.
  const forwarded = from.kind === 'node' ? 0 : 1;
  const uplink = (node: NodeInfo, packet: Uint8Array, delayUs: number): void => {
    const ns = nodeNetns(node);
    const eth = topo.netns(ns).byName('eth0');
    const frame = ethernet(DOCKER_GATEWAY_MAC, macOf(`eth0/${node.name}`), ETHERTYPE_IPV4, packet);
    if (eth)
      legs.push({
        netns: ns,
        iface: 'eth0',
        ifindex: eth.index,
        direction: 'out',
        frame,
        link: 'ether',
        delayUs,
      });
  };
  if (to.kind === 'outside' && !toNode) {
    uplink(fromNode, between(forwarded), 15);
    return legs;
  }
  if (!toNode) return legs;
  let drop = forwarded;
  let t = 5;
  if (fromNode.name !== toNode.name) {
    legs.push(...crossingLegs(topo, fromNode, toNode, from, between(forwarded), t));
    t += 170;
    drop += 1;
  }
  if (reach === 'before-receiver') return legs;
  if (to.kind === 'pod') legs.push(...podSideLegs(topo, to, true, delivered(drop), t));
  else if (to.kind === 'outside') uplink(toNode, delivered(drop), t + 10);
  return legs;
}

/** The address a node's ICMP errors to a pod come from (flannel: cni0's; otherwise the node's). */
export function nodeIcmpSource(view: NetworkView, node: NodeInfo): string {
  return cniPlugin(view.config.cni).nodeAddressTowardPods(node.podCIDR, node.ip);
}
