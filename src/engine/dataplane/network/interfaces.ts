/**
 * The interfaces and routes of a pod's and a node's network namespace, per CNI, as data for `ip` and
 * `bridge`. Indexes pair up as on a real node: a pod's `eth0@ifN` names the host-side veth's index N,
 * and the node lists that veth as `…@ifM` with M the pod-side index. MAC addresses are derived from
 * the names (real ones are random; ours are stable per seed).
 */
import type { Pod } from '../../api/objects.ts';
import { cniDeviceAddresses } from '../../node/cni/device-addresses.ts';
import { cniPlugin } from '../../node/cni/index.ts';
import type { LinkKind } from '../../node/cni/types.ts';
import { macOf } from '../../util/mac.ts';
import { distributionOf } from '../../api/distribution.ts';
import { formatIPv4, parseCidr } from '../../util/ip.ts';
import { cniDataplane, podMtuOf, type CniDataplane } from './cni-dataplane.ts';
import { kubeProxyOf } from './kube-proxy-of.ts';
import { hostInterfaceOf } from './routes.ts';
import { bgpRouteWithdrawn } from './bgp-routes.ts';
import { isRunning, type NetworkView, type NodeInfo } from './view.ts';

export type { LinkKind } from '../../node/cni/types.ts';
export { macOf } from '../../util/mac.ts';

export interface Iface {
  readonly index: number;
  readonly name: string;
  /** `@ifN` / `@NONE` / `@cilium_host` suffix. */
  readonly peer?: string;
  readonly flags: string;
  readonly mtu: number;
  readonly qdisc: string;
  readonly state: 'UP' | 'DOWN' | 'UNKNOWN';
  readonly master?: string;
  readonly linkType: 'loopback' | 'ether' | 'ipip' | 'none';
  readonly mac: string;
  readonly inet?: { readonly cidr: string; readonly brd?: string; readonly scope: string };
  readonly linkNetns?: string;
  readonly qlen?: number;
  /** The rtnetlink link kind `ip -d` prints (IFLA_INFO_KIND); absent for a physical device and lo. */
  readonly kind?: LinkKind;
}

function broadcast(cidr: string): string | undefined {
  const c = parseCidr(cidr);
  if (!c || c.prefix >= 31) return undefined;
  return formatIPv4((c.base + 2 ** (32 - c.prefix) - 1) >>> 0);
}

const LO: Iface = {
  index: 1,
  name: 'lo',
  flags: 'LOOPBACK,UP,LOWER_UP',
  mtu: 65536,
  qdisc: 'noqueue',
  state: 'UNKNOWN',
  linkType: 'loopback',
  mac: '00:00:00:00:00:00',
  inet: { cidr: '127.0.0.1/8', scope: 'host' },
  qlen: 1000,
};

/** Pods on a node that have their own network namespace, in creation order (veth index order). */
export function podsWithNetns(view: NetworkView, node: string): Pod[] {
  return view.cluster.store
    .list('pods')
    .filter((p) => p.spec?.nodeName === node && !p.spec.hostNetwork && p.status?.podIP && isRunning(p))
    .sort(
      (a, b) =>
        a.metadata.creationTimestamp.localeCompare(b.metadata.creationTimestamp) ||
        a.metadata.name.localeCompare(b.metadata.name),
    );
}

function tunlIndexInPods(dp: CniDataplane): boolean {
  return cniPlugin(dp.cni).hasTunl0(dp);
}

function podEth0Index(dp: CniDataplane): number {
  return tunlIndexInPods(dp) ? 3 : 2;
}

export interface NodeNetns {
  readonly ifaces: Iface[];
  readonly vethOf: Map<string, number>;
}

export function nodeInterfaces(view: NetworkView, node: NodeInfo): NodeNetns {
  const dp = cniDataplane(view.cluster, node.name);
  const distribution = distributionOf(view.config);
  const vm = distribution.nodeUplink === 'vm-nic';
  const ifaces: Iface[] = [LO];
  let index = 2;
  const prefix = distribution.nodeNetworkPrefix;
  const addresses = cniDeviceAddresses(dp, node.podCIDR);
  /** The inet line of a CNI device, from the one place that knows which address each device gets. */
  const inetOf = (device: string): Pick<Iface, 'inet'> => {
    const a = addresses.find((d) => d.device === device);
    if (!a) return {};
    const cidr = `${a.address}/${a.prefix}`;
    const brd = a.prefix < 32 ? broadcast(cidr) : undefined;
    return { inet: { cidr, ...(brd ? { brd } : {}), scope: a.scope } };
  };
  if (tunlIndexInPods(dp))
    ifaces.push({
      index: index++,
      name: 'tunl0',
      peer: 'NONE',
      flags: 'NOARP,UP,LOWER_UP',
      mtu: dp.nodeMtu - 20,
      qdisc: 'noqueue',
      state: 'UNKNOWN',
      linkType: 'ipip',
      mac: '0.0.0.0',
      ...inetOf('tunl0'),
      qlen: 1000,
      kind: { type: 'ipip' },
    });
  ifaces.push({
    index: index++,
    name: 'eth0',
    ...(vm ? {} : { peer: `if${100 + view.nodes.findIndex((n) => n.name === node.name) * 2 + 7}` }),
    flags: 'BROADCAST,MULTICAST,UP,LOWER_UP',
    mtu: dp.nodeMtu,
    qdisc: vm ? 'fq_codel' : 'noqueue',
    state: 'UP',
    linkType: 'ether',
    mac: macOf(`eth0/${node.name}`),
    inet: {
      cidr: `${node.ip}/${prefix}`,
      ...(broadcast(`${node.ip}/${prefix}`) ? { brd: broadcast(`${node.ip}/${prefix}`)! } : {}),
      scope: 'global',
    },
    ...(vm ? {} : { linkNetns: '0' }),
    qlen: 1000,
    // A kind node is a container: its eth0 is a veth; the k3s VM's is a (virtio) NIC, no kind.
    ...(vm ? {} : { kind: { type: 'veth' as const } }),
  });
  const dev = (name: string, extra: Partial<Iface>): Iface => ({
    index: index++,
    name,
    flags: 'BROADCAST,MULTICAST,UP,LOWER_UP',
    mtu: dp.podMtu,
    qdisc: 'noqueue',
    state: 'UP',
    linkType: 'ether',
    mac: macOf(`${name}/${node.name}`),
    ...extra,
  });
  const plugin = cniPlugin(dp.cni);
  for (const d of plugin.nodeDevices(dp, node.ip))
    ifaces.push(
      dev(d.name, {
        ...(d.mtu !== undefined ? { mtu: d.mtu } : {}),
        ...(d.state ? { state: d.state } : {}),
        ...(d.peer ? { peer: d.peer } : {}),
        ...(d.kind ? { kind: d.kind } : {}),
        ...inetOf(d.name),
      }),
    );
  if (view.config.kubeProxyMode === 'ipvs' || kubeProxyOf(view.cluster).nodeMode(node.name) === 'ipvs') {
    const ipvs = kubeProxyOf(view.cluster).rulesetFor(node.name)?.ipvs;
    ifaces.push(
      dev('kube-ipvs0', {
        flags: 'BROADCAST,NOARP',
        state: 'DOWN',
        qdisc: 'noop',
        mtu: 1500,
        linkType: 'ether',
        kind: { type: 'dummy' },
        ...(ipvs?.dummyAddresses[0]
          ? { inet: { cidr: `${ipvs.dummyAddresses[0]}/32`, scope: 'global' } }
          : {}),
      }),
    );
  }
  const vethOf = new Map<string, number>();
  const vethAddress = plugin.hostVethAddress?.(node.podCIDR);
  for (const pod of podsWithNetns(view, node.name)) {
    const name = hostInterfaceOf(view, pod);
    vethOf.set(pod.metadata.uid, index);
    ifaces.push(
      dev(name, {
        // Both ends of the veth got the MTU of the pod's CNI ADD.
        mtu: podMtuOf(view.cluster, pod),
        peer: `if${podEth0Index(dp)}`,
        ...(plugin.bridge ? { master: plugin.bridge } : {}),
        ...(vethAddress ? { inet: { cidr: `${vethAddress}/32`, scope: 'global' } } : {}),
        linkNetns: `cni-${pod.metadata.uid}`,
        kind: { type: 'veth' },
      }),
    );
  }
  return { ifaces, vethOf };
}

/** Extra IPVS addresses of kube-ipvs0 (`ip addr` lists one inet line per Service address). */
export function ipvsAddresses(view: NetworkView, node: string): readonly string[] {
  return kubeProxyOf(view.cluster).rulesetFor(node)?.ipvs?.dummyAddresses ?? [];
}

export function podInterfaces(view: NetworkView, pod: Pod): Iface[] {
  const dp = cniDataplane(view.cluster, pod.spec?.nodeName);
  const node = view.nodeByName(pod.spec?.nodeName ?? '');
  if (!node) return [LO];
  if (pod.spec?.hostNetwork) return nodeInterfaces(view, node).ifaces;
  const ifaces: Iface[] = [LO];
  if (tunlIndexInPods(dp))
    ifaces.push({
      index: 2,
      name: 'tunl0',
      peer: 'NONE',
      flags: 'NOARP',
      mtu: dp.nodeMtu - 20,
      qdisc: 'noop',
      state: 'DOWN',
      linkType: 'ipip',
      mac: '0.0.0.0',
      qlen: 1000,
      kind: { type: 'ipip' },
    });
  const veth = nodeInterfaces(view, node).vethOf.get(pod.metadata.uid) ?? 0;
  const prefix = cniPlugin(view.config.cni).podPrefix;
  const ip = pod.status?.podIP ?? '';
  const cidr = `${ip}/${prefix}`;
  ifaces.push({
    index: podEth0Index(dp),
    name: 'eth0',
    peer: `if${veth}`,
    flags: 'BROADCAST,MULTICAST,UP,LOWER_UP',
    mtu: podMtuOf(view.cluster, pod),
    qdisc: 'noqueue',
    state: 'UP',
    linkType: 'ether',
    mac: macOf(`eth0/${pod.metadata.uid}`),
    inet: { cidr, ...(broadcast(cidr) ? { brd: broadcast(cidr)! } : {}), scope: 'global' },
    linkNetns: '0',
    qlen: 1000,
    kind: { type: 'veth' },
  });
  return ifaces;
}

export interface RouteLine {
  readonly text: string;
}

export function podRoutes(view: NetworkView, pod: Pod): string[] {
  const node = view.nodeByName(pod.spec?.nodeName ?? '');
  if (!node) return [];
  if (pod.spec?.hostNetwork) return nodeRoutes(view, node);
  const plugin = cniPlugin(view.config.cni);
  return plugin.podRoutes({
    gateway: plugin.gateway(node.podCIDR),
    podSubnet: view.config.podSubnet,
    podCIDR: node.podCIDR,
    podIP: pod.status?.podIP ?? '',
    podMtu: podMtuOf(view.cluster, pod),
  });
}

export function nodeRoutes(view: NetworkView, node: NodeInfo): string[] {
  const dp = cniDataplane(view.cluster, node.name);
  const plugin = cniPlugin(dp.cni);
  const distribution = distributionOf(view.config);
  const vm = distribution.nodeUplink === 'vm-nic';
  const gateway = distribution.hostGateway;
  const lines: { key: number; text: string }[] = [];
  const key = (cidr: string) => parseCidr(cidr.includes('/') ? cidr : `${cidr}/32`)?.base ?? 0;
  const add = (cidr: string, text: string) =>
    lines.push({ key: key(cidr) + (cidr.includes('/') ? 0 : 0.5), text });
  const netPrefix = distribution.nodeNetworkPrefix;
  const net = parseCidr(`${node.ip}/${netPrefix}`);
  for (const other of view.nodes) {
    if (!other.podCIDR) continue;
    const block = other.podCIDR;
    const base = parseCidr(block);
    const tunnelIP = base ? formatIPv4(base.base) : '';
    if (other.name === node.name) {
      for (const r of plugin.ownBlockRoutes(dp, block)) add(r.dst, r.text);
      continue;
    }
    // BIRD withdrew the block of a node whose calico-node stopped (network/bgp-routes.ts).
    if (bgpRouteWithdrawn(view.cluster, dp, node.name, other.name)) continue;
    add(
      block,
      plugin.remoteBlockRoute(dp, { block, nodeIP: other.ip, tunnelIP, localPodCIDR: node.podCIDR }),
    );
  }
  if (plugin.podHostRoute)
    for (const pod of podsWithNetns(view, node.name)) {
      const ip = pod.status?.podIP ?? '';
      add(ip, plugin.podHostRoute(ip, hostInterfaceOf(view, pod)));
    }
  if (net)
    add(
      `${formatIPv4(net.base)}/${netPrefix}`,
      `${formatIPv4(net.base)}/${netPrefix} dev eth0 proto kernel scope link src ${node.ip} `,
    );
  return [
    `default via ${gateway} dev eth0 ${vm ? 'proto dhcp src ' + node.ip + ' metric 100 ' : ''}`,
    ...lines.sort((a, b) => a.key - b.key).map((l) => l.text),
  ];
}
