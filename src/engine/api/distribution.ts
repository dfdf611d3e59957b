/**
 * The strategy for each distribution the engine simulates. What differs between a kind cluster
 * (kubeadm inside node containers: `kubeadm`, which labs use with Calico, flannel or Cilium, and
 * `kind`, whose default CNI is kindnet as on a real `kind create cluster`) and k3s lives here, so
 * the rest of the engine asks the profile instead of testing the distribution's name.
 */
import type { ClusterConfig, CniName, Distribution, NodeRole } from './cluster-config.ts';

export const KUBERNETES_VERSION = 'v1.35.0';
export const K3S_VERSION = 'v1.35.0+k3s1';

export interface DistributionProfile {
  readonly name: Distribution;
  /** What bootstrapped the control plane: kubeadm (kind's nodes) or the k3s binary. */
  readonly bootstrap: 'kubeadm' | 'k3s';
  /** The CNI when the cluster file names none. */
  readonly defaultCni: CniName;
  readonly defaultPodSubnet: string;
  /** The Service subnet without one in the file (`fromKindFile`: kind's /16, not kubeadm's /12). */
  defaultServiceSubnet(fromKindFile: boolean): string;
  readonly defaultClusterName: string;
  /** `kubectl version`'s server version. */
  readonly serverVersion: string;
  /** The kubeconfig context `kind create cluster` / the k3s installer writes. */
  kubectlContext(clusterName: string): string;
  /** Where the container runtime reads CNI configuration. */
  readonly cniConfDir: string;
  /** The learner's machine on the nodes' network (kind's docker bridge gateway, k3s's VM host). */
  readonly hostGateway: string;
  /** Prefix length of the nodes' network (kind's docker network /16, the k3s VMs' /24). */
  readonly nodeNetworkPrefix: number;
  /**
   * What a node's eth0 is: one end of a veth into the docker bridge (a kind node is a container) or
   * the VM's (virtio) NIC, which gets its address and default route by DHCP.
   */
  readonly nodeUplink: 'container-veth' | 'vm-nic';
  nodeName(clusterName: string, role: NodeRole, ordinal: number): string;
  nodeIP(index: number): string;
  /** Whether kube-proxy runs inside the distribution's own process (no DaemonSet). */
  readonly kubeProxyInProcess: boolean;
  /** Whether the CNI runs inside the distribution's own process (k3s's flannel: no manifests). */
  readonly cniInProcess: boolean;
  /** Whether a network policy controller is built in beside the CNI (k3s's kube-router). */
  embeddedPolicyController(config: ClusterConfig): boolean;
  /** Whether the distribution's ServiceLB (klipper-lb) answers LoadBalancer Services. */
  serviceLB(config: ClusterConfig): boolean;
  /** Whether metrics-server is installed (`kubectl top` works). */
  metricsServer(config: ClusterConfig): boolean;
  /** The process that listens on 6443 on a control-plane node when not a static pod (`k3s-server`). */
  readonly apiServerProcess?: string;
}

function kindNodeName(cluster: string, role: NodeRole, n: number): string {
  return `${cluster}-${role}${n === 1 ? '' : String(n)}`;
}

const KUBEADM: DistributionProfile = {
  name: 'kubeadm',
  bootstrap: 'kubeadm',
  defaultCni: 'calico',
  defaultPodSubnet: '10.244.0.0/16',
  /** kind's own default Service subnet is a /16 ("kubeadm is using a /12 subnet … we allocate a /16"). */
  defaultServiceSubnet: (fromKindFile) => (fromKindFile ? '10.96.0.0/16' : '10.96.0.0/12'),
  defaultClusterName: 'kind',
  serverVersion: KUBERNETES_VERSION,
  kubectlContext: (name) => `kind-${name}`,
  cniConfDir: '/etc/cni/net.d',
  hostGateway: '172.18.0.1',
  nodeNetworkPrefix: 16,
  nodeUplink: 'container-veth',
  nodeName: kindNodeName,
  // kind gives node containers addresses on its docker network 172.18.0.0/16 from .2 up.
  nodeIP: (i) => `172.18.0.${2 + i}`,
  kubeProxyInProcess: false,
  cniInProcess: false,
  embeddedPolicyController: () => false,
  serviceLB: () => false,
  metricsServer: () => false,
};

/** kind itself: kubeadm nodes, and kindnet when the cluster file installs the default CNI. */
const KIND: DistributionProfile = { ...KUBEADM, name: 'kind', defaultCni: 'kindnet' };

const K3S: DistributionProfile = {
  name: 'k3s',
  bootstrap: 'k3s',
  defaultCni: 'flannel',
  defaultPodSubnet: '10.42.0.0/16',
  defaultServiceSubnet: () => '10.43.0.0/16',
  defaultClusterName: 'k3s',
  serverVersion: K3S_VERSION,
  kubectlContext: () => 'default',
  cniConfDir: '/var/lib/rancher/k3s/agent/etc/cni/net.d',
  hostGateway: '192.168.64.1',
  nodeNetworkPrefix: 24,
  nodeUplink: 'vm-nic',
  // k3s nodes take their host names; ours are `k3s-server`, `k3s-agent1`, … on 192.168.64.0/24.
  nodeName: (_cluster, role, n) =>
    role === 'control-plane' ? `k3s-server${n === 1 ? '' : String(n)}` : `k3s-agent${n}`,
  nodeIP: (i) => `192.168.64.${10 + i}`,
  kubeProxyInProcess: true,
  cniInProcess: true,
  // k3s embeds kube-router's policy controller unless started with --disable-network-policy.
  embeddedPolicyController: (c) => !c.k3sDisableNetworkPolicy,
  serviceLB: (c) => !c.k3sDisable.includes('servicelb'),
  metricsServer: (c) => !c.k3sDisable.includes('metrics-server'),
  apiServerProcess: 'k3s-server',
};

const PROFILES: Record<Distribution, DistributionProfile> = { kubeadm: KUBEADM, kind: KIND, k3s: K3S };

export function distributionProfile(name: Distribution): DistributionProfile {
  return PROFILES[name];
}

export function distributionOf(config: Pick<ClusterConfig, 'distribution'>): DistributionProfile {
  return PROFILES[config.distribution];
}

export const DISTRIBUTIONS = Object.keys(PROFILES) as Distribution[];
