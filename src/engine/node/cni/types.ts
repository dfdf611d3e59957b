/**
 * The strategy every CNI plugin implements (see index.ts for the registry). Everything that differs
 * between flannel, Calico, Cilium and kindnet lives behind this interface: the conflist and IPAM, the
 * agent pod and the settings it reads, the devices and addresses it gives a node, the routes it
 * installs in the node's and the pod's tables, what its tunnel does on encapsulation and whether it
 * enforces NetworkPolicy. The rest of the engine asks the plugin instead of testing the CNI's name.
 */
import type { Pod, ResourceKey, ResourceTypes } from '../../api/objects.ts';
import type { CniName } from '../../api/cluster-config.ts';
import type { IpamRange } from '../ipam.ts';

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

/** An address the CNI gives one of the node's own devices (`ip addr` shows it; IPVS binds NodePorts on it). */
export interface DeviceAddress {
  readonly device: string;
  readonly address: string;
  readonly prefix: number;
  readonly scope: 'global' | 'link';
}

/** The rtnetlink link kind `ip -d` prints (IFLA_INFO_KIND); absent for a physical device and lo. */
export type LinkKind =
  | {
      readonly type: 'vxlan';
      /** Collect-metadata device (Cilium's cilium_vxlan): `external`, VNI 0, no local/dev. */
      readonly external?: boolean;
      readonly id: number;
      readonly local?: string;
      readonly dev?: string;
      readonly dstport: number;
    }
  | { readonly type: 'veth' | 'bridge' | 'ipip' | 'dummy' };

/** A node-level device the CNI creates (bridge, VXLAN device, Cilium's host veth pair). */
export interface CniDevice {
  readonly name: string;
  /** Absent: the pod MTU. */
  readonly mtu?: number;
  readonly state?: 'UP' | 'DOWN' | 'UNKNOWN';
  readonly peer?: string;
  readonly kind?: LinkKind;
}

/** One line of the node's main routing table (`ip route`), keyed by its destination. */
export interface RouteEntry {
  /** The destination (`10.244.1.0/24`, or an address for a host route). */
  readonly dst: string;
  readonly text: string;
}

/** What a remote node contributes to this node's routing table. */
export interface RemoteBlock {
  readonly block: string;
  readonly nodeIP: string;
  /** The block's first address (the remote node's VTEP or tunnel address). */
  readonly tunnelIP: string;
  /** This node's own pod CIDR (Cilium routes remote blocks via its own cilium_host). */
  readonly localPodCIDR: string;
}

/** What a plugin's installer knows when it writes the node's files. */
export interface InstallContext {
  readonly node: string;
  readonly podCIDR: string;
  readonly podSubnet: string;
  readonly confDir: string;
  readonly dp: CniDataplane;
  readonly settings: CniSettings;
}

/** What a node agent knows about its own node. */
export interface AgentNode {
  readonly node: string;
  readonly nodeIP: string;
  /** Prefix length of the node's network (the node address as calico-node autodetects it). */
  readonly nodeNetworkPrefix: number;
  readonly podCIDR: string;
  readonly dp: CniDataplane;
}

export interface CniPlugin {
  readonly name: CniName;
  /** The network name in the conflist (`cbr0`, `k8s-pod-network`, `cilium`, `kindnet`). */
  readonly network: string;
  /** The first plugin's `type`, as the runtime names it in errors (`plugin type="flannel" failed (add)`). */
  readonly pluginType: string;
  /** The conflist file name under the CNI config directory. */
  readonly confFile: string;
  readonly conflist: string;
  /** Prefix length of the pod's eth0 address (/24 on a bridge or ptp, /32 for routed CNIs). */
  readonly podPrefix: number;
  /** Encapsulation overhead subtracted from the node MTU (VXLAN 50, IP-in-IP 20). */
  readonly mtuOverhead: number;
  ipamRange(podCIDR: string): IpamRange | undefined;
  /** The plugin chain's wording around an IPAM failure. */
  wrapIpamError(error: string): string;
  /** The pod's default gateway as seen from inside the pod. */
  gateway(podCIDR: string): string;
  /** The host side of the pod's veth pair (`vethXXXXXXXX`, `caliXXXXXXXXXXX`, `lxcXXXXXXXXXXXX`). */
  hostInterface(namespace: string, name: string, sandboxId: string): string;
  /** Node-level interfaces the plugin may create (bridge, tunnel, host device). */
  readonly nodeInterfaces: readonly string[];

  /** The node agent pod (the pod whose start makes a node read the settings again). */
  isAgentPod(pod: Pod): boolean;
  /** The settings as the API holds them now (what an agent starting now would read). */
  readSettings(api: ObjectGetter): CniSettings;
  /** How traffic is carried with these settings on a node whose network has `nodeMtu`. */
  dataplane(settings: CniSettings, nodeMtu: number): CniDataplane;
  /** Addresses of the node's own CNI devices besides eth0. */
  deviceAddresses(dp: CniDataplane, podCIDR: string): DeviceAddress[];
  /** The node's CNI devices, in the order the kernel indexed them. */
  nodeDevices(dp: CniDataplane, nodeIP: string): CniDevice[];
  /** The Linux bridge the pods' host veths are enslaved to (flannel's `cni0`), if any. */
  readonly bridge?: string;
  /**
   * The routing daemon that learns remote pod blocks (Calico's BIRD: routes `proto bird`, withdrawn
   * when the daemon on the owning node stops), if any.
   */
  readonly routingDaemon?: 'bird';
  /** Whether every network namespace has a `tunl0` (Calico IP-in-IP loads the ipip module). */
  hasTunl0(dp: CniDataplane): boolean;
  /** The VXLAN VNI on the wire (Cilium carries the source's security identity); absent without a tunnel. */
  readonly vni?: number | 'security-identity';
  /** Whether the tunnel answers an oversize packet with ICMP fragmentation-needed (Cilium's eBPF does not). */
  tunnelSendsFragNeeded(dp: CniDataplane): boolean;
  /** Whether the conflist chains `portmap` (hostPort as iptables DNAT); Cilium maps them in eBPF. */
  readonly portmap: boolean;
  /** Whether the plugin itself enforces NetworkPolicy. */
  readonly enforcesNetworkPolicy: boolean;
  /** Whether, with kube-proxy disabled, the plugin translates Services itself (Cilium's eBPF). */
  readonly replacesKubeProxy: boolean;
  /** The routes inside a pod's network namespace (`ip route` in the pod). */
  podRoutes(p: {
    readonly gateway: string;
    readonly podSubnet: string;
    readonly podCIDR: string;
    readonly podIP: string;
    readonly podMtu: number;
  }): string[];
  /** The node's routes for its own pod block. */
  ownBlockRoutes(dp: CniDataplane, block: string): RouteEntry[];
  /** The node's route to a remote node's pod block. */
  remoteBlockRoute(dp: CniDataplane, remote: RemoteBlock): string;
  /** The node's host route to one of its pods (`<ip> dev <veth> scope …`), when the plugin adds one. */
  podHostRoute?(podIP: string, hostVeth: string): string;
  /** The address the host end of each pod veth holds (ptp puts the gateway there), if any. */
  hostVethAddress?(podCIDR: string): string;
  /**
   * The conflist as the plugin's installer wrote it on the node (from the settings its agent read);
   * absent: `conflist` as it is.
   */
  installedConflist?(p: InstallContext): string;
  /** The annotations the plugin's agent writes on its Node when it starts. */
  nodeAnnotations?(p: AgentNode): Record<string, string>;
  /** Files the plugin's agent writes on the node besides the conflist (path → content). */
  extraNodeFiles?(p: InstallContext): Record<string, string>;
  /** The address the node uses towards its pods (a bridge's gateway, else the node's own). */
  nodeAddressTowardPods(podCIDR: string, nodeIP: string): string;
  /** A packet to an address of a pod block that no pod holds: a bridge answers host unreachable. */
  readonly deadNeighbour: 'unreachable' | 'timeout';
}
