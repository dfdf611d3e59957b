/**
 * The CNI's settings as its agent reads them, and when it reads them. Real CNIs apply the pod MTU at
 * CNI ADD, from files their node agent wrote when it started:
 *
 * - flannel: flanneld reads `net-conf.json` at start and writes /run/flannel/subnet.env
 *   (FLANNEL_MTU); the `install-cni` init container copies `cni-conf.json` to /etc/cni/net.d. Both
 *   come from the `kube-flannel-cfg` ConfigMap, so an edit reaches a node only when its
 *   kube-flannel-ds pod restarts.
 * - calico: the `install-cni` init container of calico-node writes the conflist with `"mtu"` from
 *   `veth_mtu` of `calico-config` (CNI_MTU); calico-node's env (pool encapsulation) is read at start.
 * - cilium: the agent reads `cilium-config` at start and answers the CNI plugin's ADD with its MTU.
 *
 * So the engine records the settings a node's agent pod saw when its sandbox was created, and the MTU
 * each pod's eth0 got at its own CNI ADD; a pod keeps that MTU until it is recreated. k3s runs flannel
 * inside its own process (no agent pod): its settings are the cluster's current ones.
 */
import type { Pod } from '../../api/objects.ts';
import type { CniName } from '../../api/cluster-config.ts';
import type { NodeLocalStore } from '../../controllers/runtime.ts';
import { isPlainObject, type Json } from '../../util/json.ts';
import { cniPlugin } from './index.ts';
import type { CniDataplane, CniSettings, ObjectGetter } from './types.ts';

export type { CniDataplane, CniSettings, Encapsulation, ObjectGetter } from './types.ts';

/** The settings as the API holds them now (what an agent starting now would read). */
export function currentCniSettings(api: ObjectGetter, cni: CniName): CniSettings {
  return cniPlugin(cni).readSettings(api);
}

export function dataplaneFor(cni: CniName, settings: CniSettings, nodeMtu: number): CniDataplane {
  return cniPlugin(cni).dataplane(settings, nodeMtu);
}

/** The node agent pod of each CNI (the pod whose start makes a node read the settings again). */
export function isCniAgentPod(pod: Pod, cni: CniName): boolean {
  return cniPlugin(cni).isAgentPod(pod);
}

const AGENT_SETTINGS_KEY = 'cni/agent-settings';
/** uid → eth0 MTU of the node's pods whose MTU its current settings no longer give (see recordSandboxCreated). */
const POD_MTU_KEY = 'cni/pod-mtu';

function stringRecord(v: unknown): Record<string, string> | undefined {
  if (!isPlainObject(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}

function asSettings(v: Json | undefined): CniSettings | undefined {
  if (!isPlainObject(v)) return undefined;
  const flannel = stringRecord(v.flannel);
  const calicoEnv = stringRecord(v.calicoEnv);
  const calicoConfig = stringRecord(v.calicoConfig);
  const cilium = stringRecord(v.cilium);
  return {
    ...(flannel ? { flannel } : {}),
    ...(calicoEnv ? { calicoEnv } : {}),
    ...(calicoConfig ? { calicoConfig } : {}),
    ...(cilium ? { cilium } : {}),
  };
}

/** The settings the node's agent read when it last started, if it has started. */
export function recordedCniSettings(state: NodeLocalStore, node: string): CniSettings | undefined {
  return asSettings(state.get(node, AGENT_SETTINGS_KEY));
}

/** The MTU the pod's eth0 got at its CNI ADD, if the engine saw it. */
export function recordedPodMtu(state: NodeLocalStore, node: string, podUid: string): number | undefined {
  const all = state.get(node, POD_MTU_KEY);
  const v = isPlainObject(all) ? all[podUid] : undefined;
  return typeof v === 'number' ? v : undefined;
}

/** The settings in force on a node: its agent's recorded ones, else the API's current ones. */
export function nodeCniSettings(
  api: ObjectGetter,
  state: NodeLocalStore,
  cni: CniName,
  node: string,
): CniSettings {
  return recordedCniSettings(state, node) ?? currentCniSettings(api, cni);
}

/**
 * Called by the kubelet once a pod's sandbox exists. A pod's eth0 keeps the MTU its CNI ADD gave it,
 * which is what the node's settings give a new pod (`podMtuOf`'s fallback) until the node's agent
 * restarts with other settings. So a pod needs a record only when that fallback no longer tells its
 * MTU: an agent pod's start records the old MTU of every pod the new settings would misdescribe
 * (and drops the records of departed pods), and a pod created before any agent started records its
 * own. Recording every pod instead cost a node's hundred pods a hundred record updates each.
 */
export function recordSandboxCreated(
  ctx: {
    readonly api: ObjectGetter;
    readonly nodeState: NodeLocalStore;
    readonly cni: CniName;
    readonly nodeMtu: number;
  },
  node: string,
  pod: Pod,
  /** The pods on the node; asked only when an agent pod starts. */
  podsOnNode: () => readonly Pod[],
): void {
  const mtuUnder = (settings: CniSettings) => dataplaneFor(ctx.cni, settings, ctx.nodeMtu).podMtu;
  if (isCniAgentPod(pod, ctx.cni)) {
    const before = mtuUnder(nodeCniSettings(ctx.api, ctx.nodeState, ctx.cni, node));
    const settings = currentCniSettings(ctx.api, ctx.cni);
    const after = mtuUnder(settings);
    const kept: Record<string, Json> = {};
    for (const p of podsOnNode()) {
      if (p.spec?.hostNetwork || !p.status?.podIP || p.metadata.uid === pod.metadata.uid) continue;
      const mtu = recordedPodMtu(ctx.nodeState, node, p.metadata.uid) ?? before;
      if (mtu !== after) kept[p.metadata.uid] = mtu;
    }
    ctx.nodeState.set(node, POD_MTU_KEY, kept);
    ctx.nodeState.set(node, AGENT_SETTINGS_KEY, settings);
    return;
  }
  if (pod.spec?.hostNetwork || recordedCniSettings(ctx.nodeState, node)) return;
  const mtu = mtuUnder(currentCniSettings(ctx.api, ctx.cni));
  ctx.nodeState.updateRecord(node, POD_MTU_KEY, (record) => {
    record[pod.metadata.uid] = mtu;
  });
}
