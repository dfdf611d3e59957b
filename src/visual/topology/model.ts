/**
 * `topologyModel(snapshot)`: the cluster's network as the diagram draws it, read from the API objects
 * of a snapshot (nodes with their pod CIDRs, pods with their IPs, Services with their EndpointSlices,
 * NetworkPolicies, Ingresses, Gateways and HTTPRoutes) and the cluster config (CNI, kube-proxy mode).
 *
 * Host side: it runs where the engine runs (the worker, Node tests), reads only the snapshot's plain
 * data and the engine's pure label helpers, and returns serializable data. Sorted everywhere, so the
 * same snapshot gives the same model and therefore the same SVG.
 */
import {
  formatLabelSelector,
  matchesLabelSelector,
  policyEnforcement,
  type AnyObject,
  type ClusterConfig,
  type EndpointSlice,
  type Gateway,
  type HTTPRoute,
  type Ingress,
  type Namespace,
  type NetworkPolicy,
  type Node,
  type Pod,
  type Service,
} from '../../engine/index.ts';
import { elementId, objectKey } from '../escape.ts';
import type {
  RewriteMode,
  TopoEntry,
  TopologyModel,
  TopoNode,
  TopoOverlay,
  TopoPod,
  TopoPodGroup,
  TopoPolicy,
  TopoPolicyRule,
  TopoService,
} from './types.ts';

/** A node with more pods than this is drawn with one box per workload. */
export const COLLAPSE_AT = 8;

const SYSTEM_NAMESPACES = new Set([
  'kube-system',
  'kube-flannel',
  'calico-system',
  'tigera-operator',
  'local-path-storage',
  'metallb-system',
]);

/** What `topologyModel` reads: the snapshot's config and objects (a whole `ClusterSnapshot` fits). */
export interface TopologyInput {
  readonly config: ClusterConfig;
  readonly store: { readonly objects: readonly { readonly resource: string; readonly object: AnyObject }[] };
}

/** The CNI's data plane as the engine computes it (`cniDataplane(cluster)`), when the caller has it. */
export interface DataplaneHint {
  readonly encapsulation: 'vxlan' | 'ipip' | 'geneve' | 'none';
  readonly udpPort?: number;
  readonly tunnelDevice?: string;
  readonly nodeMtu?: number;
  readonly podMtu?: number;
}

const byKey = <T extends { key: string }>(a: T, b: T) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Names with numbers in numeric order (`kind-worker2` before `kind-worker10`), so frames read in order. */
function naturalCmp(a: string, b: string): number {
  const split = (s: string) => s.match(/\d+|\D+/g) ?? [];
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = x[i]!;
    const q = y[i]!;
    const d = /^\d/.test(p) && /^\d/.test(q) ? Number(p) - Number(q) || cmp(p, q) : cmp(p, q);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

function listOf<T>(input: TopologyInput, resource: string): T[] {
  return input.store.objects.filter((o) => o.resource === resource).map((o) => o.object as unknown as T);
}

/** Default data plane per CNI, as the stock manifests ship it (used when no hint is given). */
function defaultDataplane(config: ClusterConfig): DataplaneHint {
  switch (config.cni) {
    case 'flannel':
      return { encapsulation: 'vxlan', udpPort: 8472, tunnelDevice: 'flannel.1' };
    case 'calico':
      return { encapsulation: 'ipip', tunnelDevice: 'tunl0' };
    case 'cilium':
      return { encapsulation: 'vxlan', udpPort: 8472, tunnelDevice: 'cilium_vxlan' };
    // kindnetd routes each node's podCIDR via the node's address: no tunnel.
    case 'kindnet':
      return { encapsulation: 'none' };
  }
}

function workloadOf(pod: Pod): string {
  const labels = pod.metadata.labels ?? {};
  const app = labels['app.kubernetes.io/name'] ?? labels['app'] ?? labels['k8s-app'];
  if (app) return app;
  const owner = pod.metadata.ownerReferences?.[0];
  // Static pods (etcd, kube-apiserver…) are owned by their Node and named `<component>-<node>`.
  if (owner?.kind === 'Node') return pod.metadata.name.replace(`-${owner.name}`, '');
  if (owner?.kind === 'ReplicaSet') return owner.name.replace(/-[a-z0-9]{5,10}$/, '');
  if (owner) return owner.name;
  return pod.metadata.name;
}

function isDnsPod(pod: Pod): boolean {
  const labels = pod.metadata.labels ?? {};
  return pod.metadata.namespace === 'kube-system' && labels['k8s-app'] === 'kube-dns';
}

function selectorMatches(
  selector: Parameters<typeof matchesLabelSelector>[0],
  labels: Record<string, string>,
) {
  try {
    return matchesLabelSelector(selector, labels);
  } catch {
    return false;
  }
}

function selectorText(selector: Parameters<typeof formatLabelSelector>[0]): string {
  const text = formatLabelSelector(selector);
  return text === '<none>' ? '*' : text;
}

function policyRules(
  rules: readonly { ports?: NetworkPolicyPort[]; peers?: NetworkPolicyPeer[] }[] | undefined,
): TopoPolicyRule[] {
  return (rules ?? []).map((r) => ({
    peers: (r.peers ?? []).map((p) => {
      if (p.ipBlock)
        return `ipBlock ${p.ipBlock.cidr}${p.ipBlock.except?.length ? ` except ${p.ipBlock.except.join(',')}` : ''}`;
      const parts: string[] = [];
      if (p.namespaceSelector) parts.push(`namespaces ${selectorText(p.namespaceSelector)}`);
      if (p.podSelector) parts.push(`pods ${selectorText(p.podSelector)}`);
      return parts.join(' + ');
    }),
    ports: (r.ports ?? []).map(
      (p) =>
        `${p.protocol ?? 'TCP'}${p.port !== undefined ? ` ${p.port}${p.endPort ? `-${p.endPort}` : ''}` : ''}`,
    ),
  }));
}

type NetworkPolicySpec = NonNullable<NetworkPolicy['spec']>;
type NetworkPolicyPort = NonNullable<NonNullable<NetworkPolicySpec['ingress']>[number]['ports']>[number];
type NetworkPolicyPeer = NonNullable<NonNullable<NetworkPolicySpec['ingress']>[number]['from']>[number];

function buildPolicies(input: TopologyInput, pods: readonly TopoPod[]): TopoPolicy[] {
  const policies = listOf<NetworkPolicy>(input, 'networkpolicies.networking.k8s.io');
  return policies
    .map((np): TopoPolicy => {
      const namespace = np.metadata.namespace ?? 'default';
      const key = objectKey(namespace, np.metadata.name);
      const spec = np.spec;
      const types =
        spec?.policyTypes && spec.policyTypes.length > 0
          ? spec.policyTypes
          : spec?.egress && spec.egress.length > 0
            ? ['Ingress', 'Egress']
            : ['Ingress'];
      const selects = pods
        .filter((p) => p.namespace === namespace && selectorMatches(spec?.podSelector, { ...p.labels }))
        .map((p) => p.key)
        .sort(cmp);
      return {
        id: elementId('pol', key),
        key,
        namespace,
        name: np.metadata.name,
        selector: selectorText(spec?.podSelector),
        types: [...new Set(types)].filter(
          (t): t is 'Ingress' | 'Egress' => t === 'Ingress' || t === 'Egress',
        ),
        selects,
        ingress: policyRules(spec?.ingress?.map((r) => ({ ports: r.ports, peers: r.from }))),
        egress: policyRules(spec?.egress?.map((r) => ({ ports: r.ports, peers: r.to }))),
      };
    })
    .sort(byKey);
}

function buildServices(input: TopologyInput, podByIP: ReadonlyMap<string, TopoPod>): TopoService[] {
  const slices = listOf<EndpointSlice>(input, 'endpointslices.discovery.k8s.io');
  const dnsIP = input.config.dnsIP;
  return listOf<Service>(input, 'services')
    .filter((s) => !(s.metadata.namespace === 'default' && s.metadata.name === 'kubernetes'))
    .map((s): TopoService => {
      const namespace = s.metadata.namespace ?? 'default';
      const key = objectKey(namespace, s.metadata.name);
      const backends = new Set<string>();
      let notReady = 0;
      for (const slice of slices) {
        if (slice.metadata.namespace !== namespace) continue;
        if (slice.metadata.labels?.['kubernetes.io/service-name'] !== s.metadata.name) continue;
        for (const ep of slice.endpoints ?? []) {
          const ready = ep.conditions?.ready !== false;
          const ref = ep.targetRef;
          const podKey =
            ref?.kind === 'Pod'
              ? objectKey(ref.namespace ?? namespace, ref.name ?? '')
              : podByIP.get(ep.addresses[0] ?? '')?.key;
          if (!ready) notReady++;
          else if (podKey) backends.add(podKey);
        }
      }
      const clusterIP = s.spec?.clusterIP ?? '';
      return {
        id: elementId('svc', key),
        key,
        namespace,
        name: s.metadata.name,
        type: s.spec?.type ?? 'ClusterIP',
        clusterIP,
        ports: (s.spec?.ports ?? []).map((p) => ({
          ...(p.name ? { name: p.name } : {}),
          port: p.port,
          targetPort: String(p.targetPort ?? p.port),
          protocol: p.protocol ?? 'TCP',
          ...(p.nodePort ? { nodePort: p.nodePort } : {}),
        })),
        backends: [...backends].sort(cmp),
        notReady,
        externalIPs: [
          ...(s.spec?.externalIPs ?? []),
          ...(s.status?.loadBalancer?.ingress ?? []).map((i) => i.ip ?? i.hostname ?? '').filter(Boolean),
        ],
        dns: clusterIP === dnsIP && namespace === 'kube-system',
      };
    })
    .sort(byKey);
}

function buildEntries(
  input: TopologyInput,
  services: readonly TopoService[],
  nodeIPs: readonly string[],
): TopoEntry[] {
  const entries: TopoEntry[] = [];
  const routes = listOf<HTTPRoute>(input, 'httproutes.gateway.networking.k8s.io');
  for (const gw of listOf<Gateway>(input, 'gateways.gateway.networking.k8s.io')) {
    const namespace = gw.metadata.namespace ?? 'default';
    const key = objectKey(namespace, gw.metadata.name);
    const attached = routes.filter((r) =>
      (r.spec.parentRefs ?? []).some(
        (p) =>
          (p.kind ?? 'Gateway') === 'Gateway' &&
          p.name === gw.metadata.name &&
          (p.namespace ?? r.metadata.namespace) === namespace,
      ),
    );
    const backends = attached.flatMap((r) =>
      (r.spec.rules ?? []).flatMap((rule) =>
        (rule.backendRefs ?? [])
          .filter((b) => (b.kind ?? 'Service') === 'Service')
          .map((b) => objectKey(b.namespace ?? r.metadata.namespace, b.name)),
      ),
    );
    entries.push({
      id: elementId('entry', `gateway:${key}`),
      key,
      kind: 'gateway',
      namespace,
      name: gw.metadata.name,
      addresses: (gw.status?.addresses ?? gw.spec.addresses ?? []).map((a) => a.value),
      listeners: gw.spec.listeners.map((l) => `${l.protocol} ${l.port}${l.hostname ? ` ${l.hostname}` : ''}`),
      services: [...new Set(backends)].sort(cmp),
      routes: attached.map((r) => objectKey(r.metadata.namespace, r.metadata.name)).sort(cmp),
    });
  }
  for (const ing of listOf<Ingress>(input, 'ingresses.networking.k8s.io')) {
    const namespace = ing.metadata.namespace ?? 'default';
    const key = objectKey(namespace, ing.metadata.name);
    const spec = ing.spec;
    const backends = [
      spec?.defaultBackend?.service?.name,
      ...(spec?.rules ?? []).flatMap((r) => (r.http?.paths ?? []).map((p) => p.backend.service?.name)),
    ].filter((n): n is string => typeof n === 'string');
    const tls = (spec?.tls ?? []).length > 0;
    const hosts = [...new Set((spec?.rules ?? []).map((r) => r.host).filter((h): h is string => !!h))].sort(
      cmp,
    );
    entries.push({
      id: elementId('entry', `ingress:${key}`),
      key,
      kind: 'ingress',
      namespace,
      name: ing.metadata.name,
      addresses: (ing.status?.loadBalancer?.ingress ?? [])
        .map((i) => i.ip ?? i.hostname ?? '')
        .filter(Boolean),
      listeners: [...(tls ? ['HTTPS 443'] : []), 'HTTP 80', ...hosts.map((h) => `host ${h}`)],
      services: [...new Set(backends.map((n) => objectKey(namespace, n)))].sort(cmp),
      routes: [],
    });
  }
  for (const s of services) {
    if (s.type !== 'LoadBalancer' && s.type !== 'NodePort') continue;
    const lb = s.type === 'LoadBalancer';
    entries.push({
      id: elementId('entry', `${lb ? 'lb' : 'np'}:${s.key}`),
      key: s.key,
      kind: lb ? 'loadbalancer' : 'nodeport',
      namespace: s.namespace,
      name: s.name,
      addresses: lb ? s.externalIPs : nodeIPs,
      listeners: s.ports.map((p) => (lb ? `${p.protocol} ${p.port}` : `${p.protocol} ${p.nodePort ?? '?'}`)),
      services: [s.key],
      routes: [],
    });
  }
  const order = { gateway: 0, ingress: 1, loadbalancer: 2, nodeport: 3 } as const;
  return entries.sort((a, b) => order[a.kind] - order[b.kind] || cmp(a.key, b.key));
}

function groupsOf(pods: readonly TopoPod[]): TopoPodGroup[] {
  const groups = new Map<string, TopoPod[]>();
  for (const p of pods) {
    const k = `${p.namespace}/${p.workload}`;
    groups.set(k, [...(groups.get(k) ?? []), p]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => cmp(a, b))
    .map(([k, members]) => ({
      id: elementId('group', `${members[0]?.node ?? ''}:${k}`),
      namespace: members[0]!.namespace,
      workload: members[0]!.workload,
      role: members[0]!.role,
      podKeys: members.map((m) => m.key),
      ips: members.map((m) => m.ip ?? '').filter(Boolean),
    }));
}

export function topologyModel(
  input: TopologyInput,
  opts: { readonly dataplane?: DataplaneHint } = {},
): TopologyModel {
  const config = input.config;
  const allPods = listOf<Pod>(input, 'pods').filter((p) => !p.metadata.deletionTimestamp || p.status?.podIP);
  const toPod = (p: Pod): TopoPod => {
    const namespace = p.metadata.namespace ?? 'default';
    const key = objectKey(namespace, p.metadata.name);
    return {
      id: elementId('pod', key),
      key,
      namespace,
      name: p.metadata.name,
      ...(p.status?.podIP ? { ip: p.status.podIP } : {}),
      ...(p.spec?.nodeName ? { node: p.spec.nodeName } : {}),
      phase: p.status?.phase ?? 'Pending',
      labels: { ...(p.metadata.labels ?? {}) },
      workload: workloadOf(p),
      role: isDnsPod(p) ? 'dns' : SYSTEM_NAMESPACES.has(namespace) ? 'system' : 'app',
    };
  };
  const podNetwork = allPods
    .filter((p) => !p.spec?.hostNetwork)
    .map(toPod)
    .sort(byKey);
  const podByIP = new Map(podNetwork.filter((p) => p.ip).map((p) => [p.ip!, p]));
  const nodes = listOf<Node>(input, 'nodes')
    .map((n): TopoNode => {
      const name = n.metadata.name;
      const pods = podNetwork.filter((p) => p.node === name);
      const hostPods = allPods
        .filter((p) => p.spec?.hostNetwork && p.spec.nodeName === name)
        .map((p) => ({ key: objectKey(p.metadata.namespace, p.metadata.name), workload: workloadOf(p) }))
        .sort(byKey);
      return {
        id: elementId('node', name),
        name,
        ip: n.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '',
        podCIDR: n.spec?.podCIDR ?? '',
        controlPlane: Object.hasOwn(n.metadata.labels ?? {}, 'node-role.kubernetes.io/control-plane'),
        ready: n.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True',
        pods,
        hostPods,
        ...(pods.length > COLLAPSE_AT ? { groups: groupsOf(pods) } : {}),
      };
    })
    .sort((a, b) => naturalCmp(a.name, b.name));
  const nodeNames = new Set(nodes.map((n) => n.name));
  const services = buildServices(input, podByIP);
  const dp = opts.dataplane ?? defaultDataplane(config);
  const overlay: TopoOverlay = {
    id: elementId('overlay', config.cni),
    encapsulation: dp.encapsulation,
    routing: config.cni === 'calico' ? 'bgp' : config.cni,
    ...(dp.udpPort !== undefined ? { udpPort: dp.udpPort } : {}),
    ...(dp.tunnelDevice ? { device: dp.tunnelDevice } : {}),
    ...(dp.nodeMtu !== undefined ? { nodeMtu: dp.nodeMtu } : {}),
    ...(dp.podMtu !== undefined ? { podMtu: dp.podMtu } : {}),
  };
  const rewrite: RewriteMode =
    config.cni === 'cilium' && config.kubeProxyMode === 'none'
      ? 'ebpf'
      : config.kubeProxyMode === 'none'
        ? 'none'
        : config.kubeProxyMode;
  // Namespaces are read so a policy's namespaceSelector could be resolved later; kept for future use.
  void listOf<Namespace>(input, 'namespaces');
  return {
    version: 1,
    cni: config.cni,
    distribution: config.distribution,
    kubeProxyMode: config.kubeProxyMode,
    rewrite,
    overlay,
    policyEnforced: policyEnforcement(config).enforced,
    nodes,
    unscheduled: podNetwork.filter((p) => !p.node || !nodeNames.has(p.node)),
    services,
    policies: buildPolicies(input, podNetwork),
    entries: buildEntries(input, services, nodes.map((n) => n.ip).filter(Boolean)),
    dnsIP: config.dnsIP,
    podSubnet: config.podSubnet,
    serviceSubnet: config.serviceSubnet,
  };
}
