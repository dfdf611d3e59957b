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
import { DISTRIBUTIONS, distributionProfile, type DistributionProfile } from './distribution.ts';

export type CniName = 'flannel' | 'calico' | 'cilium' | 'kindnet';
export type Distribution = 'kubeadm' | 'kind' | 'k3s';
export type KubeProxyMode = 'iptables' | 'ipvs' | 'nftables' | 'none';
export type NodeRole = 'control-plane' | 'worker';

/** The Kubernetes version the engine imitates (`kubectl version`, node listings) and k3s's. */
export { KUBERNETES_VERSION, K3S_VERSION } from './distribution.ts';

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
  const distribution = oneOf(packetpath.distribution, DISTRIBUTIONS, 'packetpath.distribution') ?? 'kubeadm';
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
    cni: oneOf(packetpath.cni, ['flannel', 'calico', 'cilium', 'kindnet'], 'packetpath.cni'),
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
  const profile = distributionProfile(input.distribution);
  const podSubnet = normaliseCidr(input.podSubnet ?? profile.defaultPodSubnet, 'networking.podSubnet');
  const serviceSubnet = normaliseCidr(
    input.serviceSubnet ?? profile.defaultServiceSubnet(input.fromKindFile),
    'networking.serviceSubnet',
  );
  const name = input.name ?? profile.defaultClusterName;
  const roles = input.nodes ?? [
    { role: 'control-plane' as const, labels: {} },
    { role: 'worker' as const, labels: {} },
    { role: 'worker' as const, labels: {} },
  ];
  if (!roles.some((n) => n.role === 'control-plane')) {
    throw new ClusterConfigError('must have at least one control-plane node');
  }
  const nodes = nameNodes(name, roles, profile);
  const serviceCidr = parseCidr(serviceSubnet)!;
  return {
    name,
    distribution: input.distribution,
    cni: input.cni ?? profile.defaultCni,
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

/** Node names and addresses as the distribution gives them (DistributionProfile.nodeName / nodeIP). */
function nameNodes(
  cluster: string,
  roles: { role: NodeRole; labels: Record<string, string> }[],
  profile: DistributionProfile,
): NodeConfig[] {
  const counters: Record<NodeRole, number> = { 'control-plane': 0, worker: 0 };
  return roles.map(({ role, labels }, i) => ({
    name: profile.nodeName(cluster, role, ++counters[role]),
    role,
    internalIP: profile.nodeIP(i),
    labels,
  }));
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
