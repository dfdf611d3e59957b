/**
 * The CNI plugin of the cluster's network add-on (flannel, Calico or Cilium) and the sandbox details
 * every plugin shares. Everything here derives from the cluster definition and the pod and node
 * objects; nothing is kept.
 */
import type { ClusterConfig, CniName } from '../../api/cluster-config.ts';
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
