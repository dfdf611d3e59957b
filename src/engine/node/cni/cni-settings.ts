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
import type { Pod, ResourceKey, ResourceTypes } from '../../api/objects.ts';
import type { CniName } from '../../api/cluster-config.ts';
import type { NodeLocalStore } from '../../controllers/runtime.ts';
import { isPlainObject, type Json } from '../../util/json.ts';

export interface ObjectGetter {
  get<K extends ResourceKey>(
    resource: K,
    namespace: string | undefined,
    name: string,
  ): ResourceTypes[K] | undefined;
}

/**
 * The inputs each CNI agent reads (ConfigMap data and the agent's environment). A type, not an
 * interface, so it is plain JSON for the node's local state.
 */
export type CniSettings = {
  /** `kube-flannel-cfg` data (net-conf.json, cni-conf.json). */
  readonly flannel?: Readonly<Record<string, string>>;
  /** The `calico-node` container's env values. */
  readonly calicoEnv?: Readonly<Record<string, string>>;
  /** `calico-config` data (veth_mtu). */
  readonly calicoConfig?: Readonly<Record<string, string>>;
  /** `cilium-config` data. */
  readonly cilium?: Readonly<Record<string, string>>;
};

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
  /** MTU a pod's eth0 gets at CNI ADD with these settings. */
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

/** The settings as the API holds them now (what an agent starting now would read). */
export function currentCniSettings(api: ObjectGetter, cni: CniName): CniSettings {
  switch (cni) {
    case 'flannel': {
      const data = api.get('configmaps', 'kube-flannel', 'kube-flannel-cfg')?.data;
      return data ? { flannel: { ...data } } : {};
    }
    case 'calico': {
      const ds = api.get('daemonsets.apps', 'kube-system', 'calico-node');
      const c = ds?.spec?.template.spec?.containers.find((x) => x.name === 'calico-node');
      const env: Record<string, string> = {};
      for (const e of c?.env ?? []) if (typeof e.value === 'string') env[e.name] = e.value;
      const data = api.get('configmaps', 'kube-system', 'calico-config')?.data;
      return { calicoEnv: env, ...(data ? { calicoConfig: { ...data } } : {}) };
    }
    case 'cilium': {
      const data = api.get('configmaps', 'kube-system', 'cilium-config')?.data;
      return data ? { cilium: { ...data } } : {};
    }
  }
}

function flannel(s: CniSettings, nodeMtu: number): CniDataplane {
  const net = parseJson(s.flannel?.['net-conf.json']);
  const backend = isPlainObject(net?.Backend) ? net.Backend : {};
  const type = typeof backend.Type === 'string' ? backend.Type.toLowerCase() : 'vxlan';
  const encapsulation: Encapsulation = type === 'host-gw' ? 'none' : 'vxlan';
  const cni = parseJson(s.flannel?.['cni-conf.json']);
  const plugins = Array.isArray(cni?.plugins) ? cni.plugins : [];
  const first: unknown = plugins[0];
  const delegate = isPlainObject(first) && isPlainObject(first.delegate) ? first.delegate : {};
  // The flannel CNI plugin fills the delegate's MTU from FLANNEL_MTU only when the delegate has none.
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

function calico(s: CniSettings, nodeMtu: number): CniDataplane {
  const mode = (name: string) => (s.calicoEnv?.[name] ?? '').toLowerCase();
  const ipip = mode('CALICO_IPV4POOL_IPIP');
  const vxlan = mode('CALICO_IPV4POOL_VXLAN');
  const encapsulation: Encapsulation = ipip === 'always' ? 'ipip' : vxlan === 'always' ? 'vxlan' : 'none';
  // veth_mtu "0" means auto-detect (Calico subtracts the enabled encapsulation from the host MTU).
  const configured = positiveInt(s.calicoConfig?.veth_mtu);
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

function cilium(s: CniSettings, nodeMtu: number): CniDataplane {
  const data = s.cilium ?? {};
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

export function dataplaneFor(cni: CniName, settings: CniSettings, nodeMtu: number): CniDataplane {
  switch (cni) {
    case 'flannel':
      return flannel(settings, nodeMtu);
    case 'calico':
      return calico(settings, nodeMtu);
    case 'cilium':
      return cilium(settings, nodeMtu);
  }
}

/** The node agent pod of each CNI (the pod whose start makes a node read the settings again). */
export function isCniAgentPod(pod: Pod, cni: CniName): boolean {
  const labels = pod.metadata.labels ?? {};
  const ns = pod.metadata.namespace;
  if (cni === 'flannel') return ns === 'kube-flannel' && labels.app === 'flannel';
  if (cni === 'calico') return ns === 'kube-system' && labels['k8s-app'] === 'calico-node';
  return ns === 'kube-system' && labels['k8s-app'] === 'cilium';
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
