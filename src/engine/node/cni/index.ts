/**
 * The CNI plugin chain of the cluster's network add-on, and the network view of a pod that other parts
 * of the engine (shell `ip addr`, the dataplane) read: which interface, address, gateway and MTU a pod
 * sandbox got. Everything here derives from the pod and node objects; nothing is kept.
 */
import type { ClusterConfig, CniName } from '../../api/cluster-config.ts';
import type { Node, Pod } from '../../api/objects.ts';
import { fnv32a } from '../../util/rng.ts';
import { calico } from './calico.ts';
import { cilium } from './cilium.ts';
import { flannel } from './flannel.ts';
import type { CniPlugin } from './types.ts';

export type { CniPlugin } from './types.ts';

const PLUGINS: Record<CniName, CniPlugin> = { flannel, calico, cilium };

export function cniPlugin(name: CniName): CniPlugin {
  return PLUGINS[name];
}

/** Where the runtime reads CNI configuration (k3s keeps its own under /var/lib/rancher). */
export function cniConfDir(config: ClusterConfig): string {
  return config.distribution === 'k3s' ? '/var/lib/rancher/k3s/agent/etc/cni/net.d' : '/etc/cni/net.d';
}

/**
 * The pod sandbox id containerd would print: 64 hex digits. Real ids are random; ours derive from the
 * pod uid and the attempt number so the same cluster always shows the same ids.
 */
export function sandboxId(podUid: string, attempt = 0): string {
  let hex = '';
  for (let i = 0; hex.length < 64; i++)
    hex += fnv32a(`${podUid}/${attempt}/${i}`).toString(16).padStart(8, '0');
  return hex.slice(0, 64);
}

export interface PodNetwork {
  readonly node: string;
  readonly ip: string;
  readonly prefix: number;
  readonly gateway: string;
  /** The host-side interface of the pod's veth (none for hostNetwork pods). */
  readonly hostInterface?: string;
  readonly podInterface: 'eth0';
  readonly mtu: number;
  readonly hostNetwork: boolean;
}

/** The network a running pod sandbox has, or undefined before its sandbox exists. */
export function podNetwork(pod: Pod, node: Node | undefined, config: ClusterConfig): PodNetwork | undefined {
  const ip = pod.status?.podIP;
  const nodeName = pod.spec?.nodeName;
  if (!ip || !nodeName) return undefined;
  const plugin = cniPlugin(config.cni);
  if (pod.spec?.hostNetwork) {
    return {
      node: nodeName,
      ip,
      prefix: 16,
      gateway: '',
      podInterface: 'eth0',
      mtu: config.nodeMTU,
      hostNetwork: true,
    };
  }
  const podCIDR = node?.spec?.podCIDR ?? '';
  return {
    node: nodeName,
    ip,
    prefix: plugin.podPrefix,
    gateway: plugin.gateway(podCIDR),
    hostInterface: plugin.hostInterface(
      pod.metadata.namespace ?? 'default',
      pod.metadata.name,
      sandboxId(pod.metadata.uid),
    ),
    podInterface: 'eth0',
    mtu: config.nodeMTU - plugin.mtuOverhead,
    hostNetwork: false,
  };
}
