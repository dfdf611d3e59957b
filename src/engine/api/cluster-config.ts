/**
 * The cluster definition. Labs describe their cluster in kind's Cluster format
 * (`kind.x-k8s.io/v1alpha4`: nodes with roles, `networking.podSubnet`, `serviceSubnet`,
 * `kubeProxyMode`, `disableDefaultCNI`) plus one block of ours, `packetpath:`, which says which CNI and
 * which distribution to simulate. The block is stripped when a lab is exported to a real kind.
 */
import { parse as parseYaml } from 'yaml';
import { formatCidr, formatIPv4, nthAddress, parseCidr } from '../util/ip.ts';
import { isPlainObject } from '../util/json.ts';
import { YAML_LIMITS } from '../util/yaml-limits.ts';

export type CniName = 'flannel' | 'calico' | 'cilium';
export type Distribution = 'kubeadm' | 'k3s';
export type KubeProxyMode = 'iptables' | 'ipvs' | 'nftables' | 'none';
export type NodeRole = 'control-plane' | 'worker';

/** The Kubernetes version the engine imitates; printed by `kubectl version` and node listings. */
export const KUBERNETES_VERSION = 'v1.35.0';
export const K3S_VERSION = 'v1.35.0+k3s1';

export interface NodeConfig {
  readonly name: string;
  readonly role: NodeRole;
  readonly internalIP: string;
  readonly labels: Readonly<Record<string, string>>;
}

export interface ClusterConfig {
  /** kind's cluster name; node names derive from it (`kind-control-plane`, `kind-worker`, …). */
  readonly name: string;
  readonly distribution: Distribution;
  readonly cni: CniName;
  readonly kubeProxyMode: KubeProxyMode;
  readonly podSubnet: string;
  readonly serviceSubnet: string;
  /** The cluster DNS Service IP: the 10th address of the Service subnet (kubeadm's and k3s's rule). */
  readonly dnsIP: string;
  readonly clusterDomain: string;
  /** kube-controller-manager `--node-cidr-mask-size` (24 for IPv4). */
  readonly nodeCidrMaskSize: number;
  /** kubelet `maxPods` (110). */
  readonly maxPods: number;
  /** The MTU of the nodes' own network (the pod MTU follows from it and the CNI's encapsulation). */
  readonly nodeMTU: number;
  readonly nodes: readonly NodeConfig[];
  readonly disableDefaultCNI: boolean;
  /** k3s `--disable` components (servicelb, traefik, …) and `--disable-network-policy`. */
  readonly k3sDisable: readonly string[];
  readonly k3sDisableNetworkPolicy: boolean;
}

export class ClusterConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClusterConfigError';
  }
}

const DEFAULTS = {
  kubeadm: { podSubnet: '10.244.0.0/16', serviceSubnet: '10.96.0.0/12', cni: 'calico' as CniName },
  /** kind's own default Service subnet is a /16 ("kubeadm is using a /12 subnet … we allocate a /16"). */
  kind: { serviceSubnet: '10.96.0.0/16' },
  k3s: { podSubnet: '10.42.0.0/16', serviceSubnet: '10.43.0.0/16', cni: 'flannel' as CniName },
};

/** The cluster used when a lab gives no definition: kubeadm + Calico, one control plane, two workers. */
export function defaultClusterConfig(): ClusterConfig {
  return buildConfig({ distribution: 'kubeadm', fromKindFile: false });
}

/** Parses a kind Cluster YAML (with our optional `packetpath:` block) into a full definition. */
export function parseClusterConfig(yamlText: string): ClusterConfig {
  let doc: unknown;
  try {
    doc = parseYaml(yamlText, YAML_LIMITS);
  } catch (e) {
    throw new ClusterConfigError(`failed to parse cluster config: ${(e as Error).message.split('\n')[0]}`);
  }
  if (!isPlainObject(doc)) throw new ClusterConfigError('failed to parse cluster config: not a YAML mapping');
  if (doc.kind !== 'Cluster') throw new ClusterConfigError(`unknown kind: ${String(doc.kind ?? '')}`);
  if (doc.apiVersion !== 'kind.x-k8s.io/v1alpha4') {
    throw new ClusterConfigError(`unknown apiVersion: ${String(doc.apiVersion ?? '')}`);
  }
  const known = new Set([
    'kind',
    'apiVersion',
    'name',
    'nodes',
    'networking',
    'packetpath',
    'featureGates',
    'runtimeConfig',
  ]);
  for (const key of Object.keys(doc)) {
    if (!known.has(key)) throw new ClusterConfigError(`unknown field "${key}" in cluster config`);
  }
  const networking = optionalObject(doc.networking, 'networking');
  const packetpath = optionalObject(doc.packetpath, 'packetpath');
  const distribution =
    oneOf(packetpath.distribution, ['kubeadm', 'k3s'], 'packetpath.distribution') ?? 'kubeadm';
  const nodesInput = doc.nodes === undefined ? undefined : arrayOf(doc.nodes, 'nodes');
  const roles = nodesInput?.map((n, i) => {
    const node = optionalObject(n, `nodes[${i}]`);
    const role = oneOf(node.role, ['control-plane', 'worker'], `nodes[${i}].role`) ?? 'control-plane';
    const labels = optionalObject(node.labels, `nodes[${i}].labels`);
    return { role, labels: Object.fromEntries(Object.entries(labels).map(([k, v]) => [k, String(v)])) };
  });
  const k3s = optionalObject(packetpath.k3s, 'packetpath.k3s');
  return buildConfig({
    distribution,
    fromKindFile: true,
    name: typeof doc.name === 'string' ? doc.name : undefined,
    cni: oneOf(packetpath.cni, ['flannel', 'calico', 'cilium'], 'packetpath.cni'),
    podSubnet: optionalString(networking.podSubnet, 'networking.podSubnet'),
    serviceSubnet: optionalString(networking.serviceSubnet, 'networking.serviceSubnet'),
    kubeProxyMode: oneOf(
      networking.kubeProxyMode,
      ['iptables', 'ipvs', 'nftables', 'none'],
      'networking.kubeProxyMode',
    ),
    disableDefaultCNI: networking.disableDefaultCNI === true,
    nodes: roles,
    k3sDisable: k3s.disable === undefined ? [] : arrayOf(k3s.disable, 'packetpath.k3s.disable').map(String),
    k3sDisableNetworkPolicy: k3s.disableNetworkPolicy === true,
    nodeCidrMaskSize: optionalInt(packetpath.nodeCidrMaskSize, 'packetpath.nodeCidrMaskSize', 16, 30),
    maxPods: optionalInt(packetpath.maxPods, 'packetpath.maxPods', 1, 1000),
  });
}

interface BuildInput {
  distribution: Distribution;
  fromKindFile: boolean;
  name?: string;
  cni?: CniName;
  podSubnet?: string;
  serviceSubnet?: string;
  kubeProxyMode?: KubeProxyMode;
  disableDefaultCNI?: boolean;
  nodes?: { role: NodeRole; labels: Record<string, string> }[];
  k3sDisable?: string[];
  k3sDisableNetworkPolicy?: boolean;
  nodeCidrMaskSize?: number;
  maxPods?: number;
}

function buildConfig(input: BuildInput): ClusterConfig {
  const k3s = input.distribution === 'k3s';
  const base = k3s ? DEFAULTS.k3s : DEFAULTS.kubeadm;
  const serviceDefault = !k3s && input.fromKindFile ? DEFAULTS.kind.serviceSubnet : base.serviceSubnet;
  const podSubnet = normaliseCidr(input.podSubnet ?? base.podSubnet, 'networking.podSubnet');
  const serviceSubnet = normaliseCidr(input.serviceSubnet ?? serviceDefault, 'networking.serviceSubnet');
  const name = input.name ?? (k3s ? 'k3s' : 'kind');
  const roles = input.nodes ?? [
    { role: 'control-plane' as const, labels: {} },
    { role: 'worker' as const, labels: {} },
    { role: 'worker' as const, labels: {} },
  ];
  if (!roles.some((n) => n.role === 'control-plane')) {
    throw new ClusterConfigError('must have at least one control-plane node');
  }
  const nodes = nameNodes(name, roles, k3s);
  const serviceCidr = parseCidr(serviceSubnet)!;
  return {
    name,
    distribution: input.distribution,
    cni: input.cni ?? base.cni,
    kubeProxyMode: input.kubeProxyMode ?? 'iptables',
    podSubnet,
    serviceSubnet,
    dnsIP: formatIPv4(nthAddress(serviceCidr, 10)),
    clusterDomain: 'cluster.local',
    nodeCidrMaskSize: input.nodeCidrMaskSize ?? 24,
    maxPods: input.maxPods ?? 110,
    nodeMTU: 1500,
    nodes,
    disableDefaultCNI: input.disableDefaultCNI ?? false,
    k3sDisable: input.k3sDisable ?? [],
    k3sDisableNetworkPolicy: input.k3sDisableNetworkPolicy ?? false,
  };
}

/**
 * kind names nodes `<cluster>-control-plane`, `<cluster>-worker`, `<cluster>-worker2`, … and gives them
 * addresses on its docker network 172.18.0.0/16 from .2 up. k3s nodes take their host names; ours are
 * `k3s-server`, `k3s-agent1`, … on a 192.168.64.0/24 host network.
 */
function nameNodes(
  cluster: string,
  roles: { role: NodeRole; labels: Record<string, string> }[],
  k3s: boolean,
): NodeConfig[] {
  const counters: Record<NodeRole, number> = { 'control-plane': 0, worker: 0 };
  return roles.map(({ role, labels }, i) => {
    const n = ++counters[role];
    const suffix = n === 1 ? '' : String(n);
    const name = k3s
      ? role === 'control-plane'
        ? `k3s-server${suffix}`
        : `k3s-agent${n}`
      : `${cluster}-${role}${suffix}`;
    const internalIP = k3s ? `192.168.64.${10 + i}` : `172.18.0.${2 + i}`;
    return { name, role, internalIP, labels };
  });
}

function normaliseCidr(text: string, field: string): string {
  const c = parseCidr(text);
  if (!c) throw new ClusterConfigError(`invalid ${field}: "${text}" is not an IPv4 CIDR`);
  if (c.prefix > 28) throw new ClusterConfigError(`invalid ${field}: "${text}" is too small`);
  return formatCidr(c);
}

function optionalObject(v: unknown, field: string): Record<string, unknown> {
  if (v === undefined || v === null) return {};
  if (!isPlainObject(v)) throw new ClusterConfigError(`invalid ${field}: expected a mapping`);
  return v;
}

function arrayOf(v: unknown, field: string): unknown[] {
  if (!Array.isArray(v)) throw new ClusterConfigError(`invalid ${field}: expected a list`);
  return v;
}

/**
 * kube-controller-manager's `--node-cidr-mask-size` and the kubelet's `maxPods`, which kind sets through
 * kubeadm config patches; labs set them here to show IPAM exhaustion and the pod limit.
 */
function optionalInt(v: unknown, field: string, min: number, max: number): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new ClusterConfigError(
      `invalid ${field}: "${String(v)}" (must be a whole number from ${min} to ${max})`,
    );
  }
  return v;
}

function optionalString(v: unknown, field: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new ClusterConfigError(`invalid ${field}: expected a string`);
  return v;
}

function oneOf<T extends string>(v: unknown, allowed: readonly T[], field: string): T | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string' && (allowed as readonly string[]).includes(v)) return v as T;
  throw new ClusterConfigError(`invalid ${field}: "${String(v)}" (must be one of ${allowed.join(', ')})`);
}
