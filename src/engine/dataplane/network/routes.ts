/**
 * The route a packet takes between two network namespaces, per CNI (the routes `ip route` prints on
 * the nodes, see tools/ip-node.ts):
 *
 * - flannel: pods hang off the `cni0` bridge; another node's /24 is `via 10.244.N.0 dev flannel.1
 *   onlink`, so the packet is wrapped in VXLAN (outer node IP → node IP, UDP 8472). host-gw routes it
 *   `via <node IP> dev eth0` unwrapped.
 * - calico: no bridge; each local pod has a /32 route to its `cali…` veth, other nodes' blocks are
 *   `via <node IP> dev tunl0 proto bird onlink` (IP-in-IP, protocol 4) or plain BGP routes via eth0.
 * - cilium: `lxc…` veths; eBPF redirects locally, `cilium_vxlan` (UDP 8472) between nodes.
 */
import type { Pod } from '../../api/objects.ts';
import { cniPlugin, sandboxId } from '../../node/cni/index.ts';
import { pathMtu, podMtuOf, type CniDataplane } from './cni-dataplane.ts';
import type { Hop } from './types.ts';
import type { NetworkView } from './view.ts';

/** A network namespace a packet leaves or enters. */
export interface Place {
  readonly node: string;
  readonly ip: string;
  /** The pod owning the namespace (absent for the node's own namespace, hostNetwork pods included). */
  readonly pod?: Pod;
}

export function hostInterfaceOf(view: NetworkView, pod: Pod): string {
  return cniPlugin(view.config.cni).hostInterface(
    pod.metadata.namespace ?? 'default',
    pod.metadata.name,
    sandboxId(pod.metadata.uid),
  );
}

function podDevice(view: NetworkView, pod: Pod): string {
  return hostInterfaceOf(view, pod);
}

function localHop(view: NetworkView, dp: CniDataplane, from: Place, to: Place): Hop {
  const node = from.node;
  if (from.pod && to.pod && from.pod.metadata.uid === to.pod.metadata.uid)
    return { kind: 'route', node, via: 'loopback', device: 'lo', text: `inside the pod's network namespace` };
  if (!from.pod && !to.pod)
    return { kind: 'route', node, via: 'local', device: 'lo', text: `local to node ${node}` };
  const inDev = from.pod ? podDevice(view, from.pod) : undefined;
  const outDev = to.pod ? podDevice(view, to.pod) : undefined;
  const bridge = cniPlugin(dp.cni).bridge;
  if (bridge) {
    const text = to.pod
      ? `${from.pod ? `${inDev} → ` : ''}${bridge} bridge → ${outDev} on ${node} (same node, no encapsulation)`
      : `${inDev} → ${bridge} → the node's own stack on ${node}`;
    return {
      kind: 'route',
      node,
      via: 'bridge',
      device: bridge,
      mtu: vethMtu(view, dp, to.pod ?? from.pod),
      text,
    };
  }
  const text = to.pod
    ? `${from.pod ? `${inDev} → ` : ''}route ${to.ip} dev ${outDev} scope link on ${node} (same node, no encapsulation)`
    : `${inDev} → the node's own stack on ${node}`;
  return {
    kind: 'route',
    node,
    via: 'routed-veth',
    device: outDev ?? inDev ?? 'eth0',
    mtu: vethMtu(view, dp, to.pod ?? from.pod),
    text,
  };
}

/**
 * A hop's MTU is its device's, as `ip link` shows it: a pod's veth has the MTU its CNI ADD gave it
 * (per pod: a pod created before an MTU change keeps the old one); the tunnel or uplink between
 * nodes has the path MTU (flannel.1 1450 on a 1500 network), whatever the pods were given.
 */
function vethMtu(view: NetworkView, dp: CniDataplane, pod: Pod | undefined): number {
  return pod ? podMtuOf(view.cluster, pod) : dp.podMtu;
}

/** The route hops from one namespace to another; empty when there is no route. */
export function routeHops(view: NetworkView, dp: CniDataplane, from: Place, to: Place): Hop[] {
  if (from.node === to.node) return [localHop(view, dp, from, to)];
  const src = view.nodeByName(from.node);
  const dst = view.nodeByName(to.node);
  if (!src || !dst) return [];
  const hops: Hop[] = [];
  if (!to.pod) {
    hops.push({
      kind: 'route',
      node: from.node,
      via: 'node-network',
      device: 'eth0',
      toNode: to.node,
      text: `${from.node} → ${to.node} over the node network (${src.ip} → ${dst.ip}, eth0)`,
    });
    return hops;
  }
  const outer = (protocol: 'UDP' | 'IPIP') => ({
    src: src.ip,
    dst: dst.ip,
    protocol,
    ...(protocol === 'UDP' && dp.udpPort ? { port: dp.udpPort } : {}),
  });
  const block = dst.podCIDR || to.ip;
  switch (dp.encapsulation) {
    case 'vxlan':
    case 'geneve':
      hops.push({
        kind: 'route',
        node: from.node,
        via: 'vxlan',
        device: dp.tunnelDevice ?? 'vxlan',
        toNode: to.node,
        outer: outer('UDP'),
        mtu: pathMtu(dp, true),
        text: `${block} via ${dp.tunnelDevice}: ${dp.label} to ${to.node} (outer ${src.ip} → ${dst.ip} UDP ${dp.udpPort})`,
      });
      break;
    case 'ipip':
      hops.push({
        kind: 'route',
        node: from.node,
        via: 'ipip',
        device: 'tunl0',
        toNode: to.node,
        outer: outer('IPIP'),
        mtu: pathMtu(dp, true),
        text: `${block} via ${dst.ip} dev tunl0 proto bird onlink: IP-in-IP to ${to.node} (outer ${src.ip} → ${dst.ip}, protocol 4)`,
      });
      break;
    case 'none': {
      const daemon = cniPlugin(dp.cni).routingDaemon;
      hops.push({
        kind: 'route',
        node: from.node,
        via: daemon ? 'bgp' : 'node-network',
        device: 'eth0',
        toNode: to.node,
        outer: { src: src.ip, dst: dst.ip, protocol: 'none' },
        mtu: pathMtu(dp, true),
        text: daemon
          ? `${block} via ${dst.ip} dev eth0 proto ${daemon}: native route learned over BGP, no encapsulation`
          : `${block} via ${dst.ip} dev eth0: ${dp.label}, no encapsulation`,
      });
      break;
    }
  }
  const arrive = dp.encapsulation === 'none' ? 'eth0' : (dp.tunnelDevice ?? 'the tunnel');
  const outDev = podDevice(view, to.pod);
  const bridge = cniPlugin(dp.cni).bridge;
  hops.push({
    kind: 'route',
    node: to.node,
    via: bridge ? 'bridge' : 'routed-veth',
    device: bridge ?? outDev,
    mtu: vethMtu(view, dp, to.pod),
    text: bridge
      ? `${arrive} on ${to.node} → ${bridge} bridge → ${outDev} → ${to.ip}`
      : `${arrive} on ${to.node} → route ${to.ip} dev ${outDev} scope link`,
  });
  return hops;
}
