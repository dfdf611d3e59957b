/**
 * The registry of CNI plugins (flannel, Calico, Cilium, kindnet) and the sandbox details every plugin
 * shares. Adding a CNI is one file here implementing `CniPlugin` (types.ts) plus one entry in PLUGINS
 * (and, where it keeps iptables chains or ships manifests, its entries in the dataplane's and the
 * cluster's registries: dataplane/netfilter/cni/index.ts, cluster/addons/cni.ts). Everything here
 * derives from the cluster definition and the pod and node objects; nothing is kept.
 */
import { distributionOf } from '../../api/distribution.ts';
import type { ClusterConfig, CniName } from '../../api/cluster-config.ts';
import { fnv32a } from '../../util/rng.ts';
import { calico } from './calico.ts';
import { cilium } from './cilium.ts';
import { flannel } from './flannel.ts';
import { kindnet } from './kindnet.ts';
import type { CniPlugin } from './types.ts';

export type { CniPlugin } from './types.ts';

const PLUGINS: Record<CniName, CniPlugin> = { flannel, calico, cilium, kindnet };

export function cniPlugin(name: CniName): CniPlugin {
  return PLUGINS[name];
}

/** Where the runtime reads CNI configuration (k3s keeps its own under /var/lib/rancher). */
export function cniConfDir(config: ClusterConfig): string {
  return distributionOf(config).cniConfDir;
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
