/**
 * How the cluster's CNI carries pod traffic, read from the add-on's own configuration the way the
 * agents read it:
 *
 * - flannel: `net-conf.json` in the `kube-flannel-cfg` ConfigMap (`Backend.Type`: vxlan by default,
 *   host-gw without encapsulation); the pod MTU is `FLANNEL_MTU` from subnet.env (node MTU − 50 for
 *   VXLAN) unless `cni-conf.json` sets `"mtu"` in its delegate (the flannel CNI plugin only fills the
 *   MTU in when the delegate has none — that is how a wrong 1500 gets inside VXLAN). k3s runs flannel
 *   in-process with VXLAN.
 * - calico: the `calico-node` env `CALICO_IPV4POOL_IPIP` / `CALICO_IPV4POOL_VXLAN` (calico.yaml ships
 *   IPIP Always; Never on both means plain BGP routes); `veth_mtu` in a `calico-config` ConfigMap when
 *   set, else auto-detected (node MTU − encapsulation).
 * - cilium: `cilium-config` (`routing-mode`, `tunnel-protocol`, `mtu`), VXLAN on UDP 8472 by default.
 *
 * Simplified: one encapsulation for the whole cluster; CrossSubnet counts as native (all nodes share
 * one L2 network in kind and k3s-on-multipass).
 */
import type { Cluster } from '../../cluster/cluster.ts';
import type { CniName } from '../../cluster/config.ts';
import { isPlainObject } from '../../util/json.ts';

export type Encapsulation = 'vxlan' | 'ipip' | 'geneve' | 'none';

export interface CniDataplane {
  readonly cni: CniName;
  readonly encapsulation: Encapsulation;
  /** Bytes the encapsulation adds (VXLAN/Geneve 50, IP-in-IP 20). */
  readonly overhead: number;
  /** UDP port of the tunnel (flannel and cilium VXLAN 8472, calico VXLAN 4789, Geneve 6081). */
  readonly udpPort?: number;
  /** The tunnel device on each node (`flannel.1`, `tunl0`, `vxlan.calico`, `cilium_vxlan`). */
  readonly tunnelDevice?: string;
  readonly nodeMtu: number;
  /** MTU of every pod's eth0. */
  readonly podMtu: number;
  /** Whether the pod MTU comes from an explicit setting (rather than auto-detection). */
  readonly podMtuConfigured: boolean;
  /** What carries traffic between nodes, for traces (`VXLAN`, `IP-in-IP`, `BGP (bird)`, `host-gw`). */
  readonly label: string;
}

const OVERHEAD: Record<Encapsulation, number> = { vxlan: 50, geneve: 50, ipip: 20, none: 0 };

function parseJson(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return isPlainObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

function positiveInt(v: unknown): number | undefined {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 && n <= 65535 ? n : undefined;
}

function envOf(
  cluster: Cluster,
  ns: string,
  ds: string,
  container: string,
  name: string,
): string | undefined {
  const d = cluster.store.get('daemonsets.apps', ns, ds);
  const c = d?.spec?.template.spec?.containers.find((x) => x.name === container);
  return c?.env?.find((e) => e.name === name)?.value;
}

function flannel(cluster: Cluster, nodeMtu: number): CniDataplane {
  const cm = cluster.store.get('configmaps', 'kube-flannel', 'kube-flannel-cfg');
  const net = parseJson(cm?.data?.['net-conf.json']);
  const backend = isPlainObject(net?.Backend) ? net.Backend : {};
  const type = typeof backend.Type === 'string' ? backend.Type.toLowerCase() : 'vxlan';
  const encapsulation: Encapsulation = type === 'host-gw' ? 'none' : 'vxlan';
  const cni = parseJson(cm?.data?.['cni-conf.json']);
  const plugins = Array.isArray(cni?.plugins) ? cni.plugins : [];
  const first: unknown = plugins[0];
  const delegate = isPlainObject(first) && isPlainObject(first.delegate) ? first.delegate : {};
  const configured = positiveInt(delegate.mtu);
  const auto = nodeMtu - OVERHEAD[encapsulation];
  return {
    cni: 'flannel',
    encapsulation,
    overhead: OVERHEAD[encapsulation],
    ...(encapsulation === 'vxlan'
      ? { udpPort: positiveInt(backend.Port) ?? 8472, tunnelDevice: 'flannel.1' }
      : {}),
    nodeMtu,
    podMtu: configured ?? auto,
    podMtuConfigured: configured !== undefined,
    label: encapsulation === 'vxlan' ? 'VXLAN' : 'host-gw',
  };
}

function calico(cluster: Cluster, nodeMtu: number): CniDataplane {
  const mode = (name: string) =>
    (envOf(cluster, 'kube-system', 'calico-node', 'calico-node', name) ?? '').toLowerCase();
  const ipip = mode('CALICO_IPV4POOL_IPIP');
  const vxlan = mode('CALICO_IPV4POOL_VXLAN');
  const encapsulation: Encapsulation = ipip === 'always' ? 'ipip' : vxlan === 'always' ? 'vxlan' : 'none';
  const cm = cluster.store.get('configmaps', 'kube-system', 'calico-config');
  const configured = positiveInt(cm?.data?.veth_mtu);
  return {
    cni: 'calico',
    encapsulation,
    overhead: OVERHEAD[encapsulation],
    ...(encapsulation === 'ipip' ? { tunnelDevice: 'tunl0' } : {}),
    ...(encapsulation === 'vxlan' ? { tunnelDevice: 'vxlan.calico', udpPort: 4789 } : {}),
    nodeMtu,
    podMtu: configured ?? nodeMtu - OVERHEAD[encapsulation],
    podMtuConfigured: configured !== undefined,
    label: encapsulation === 'ipip' ? 'IP-in-IP' : encapsulation === 'vxlan' ? 'VXLAN' : 'BGP (bird)',
  };
}

function cilium(cluster: Cluster, nodeMtu: number): CniDataplane {
  const data = cluster.store.get('configmaps', 'kube-system', 'cilium-config')?.data ?? {};
  const native = data['routing-mode'] === 'native' || data.tunnel === 'disabled';
  const geneve = data['tunnel-protocol'] === 'geneve';
  const encapsulation: Encapsulation = native ? 'none' : geneve ? 'geneve' : 'vxlan';
  const configured = positiveInt(data.mtu);
  return {
    cni: 'cilium',
    encapsulation,
    overhead: OVERHEAD[encapsulation],
    ...(encapsulation === 'none'
      ? {}
      : {
          tunnelDevice: geneve ? 'cilium_geneve' : 'cilium_vxlan',
          udpPort: positiveInt(data['tunnel-port']) ?? (geneve ? 6081 : 8472),
        }),
    nodeMtu,
    podMtu: configured ?? nodeMtu - OVERHEAD[encapsulation],
    podMtuConfigured: configured !== undefined,
    label: encapsulation === 'none' ? 'native routing' : geneve ? 'Geneve' : 'VXLAN',
  };
}

export function cniDataplane(cluster: Cluster): CniDataplane {
  const nodeMtu = cluster.config.nodeMTU;
  switch (cluster.config.cni) {
    case 'flannel':
      return flannel(cluster, nodeMtu);
    case 'calico':
      return calico(cluster, nodeMtu);
    case 'cilium':
      return cilium(cluster, nodeMtu);
  }
}

/**
 * The largest inner packet that crosses between nodes. A pod MTU above it is the classic black hole:
 * the handshake and small requests fit, a full-size segment is dropped at the tunnel and TCP
 * retransmits it until it gives up.
 */
export function pathMtu(dp: CniDataplane, crossNode: boolean): number {
  return crossNode ? dp.nodeMtu - dp.overhead : dp.podMtu;
}
