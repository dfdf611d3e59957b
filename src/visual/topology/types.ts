/**
 * The topology model: what the diagram shows, as plain serializable data (the worker builds it, the
 * page draws it). Every element carries the `id` its SVG element gets (see `elementId`), so the packet
 * walk and the matrix can point at it.
 */
import type { CniName, Distribution, KubeProxyMode } from '../../engine/index.ts';

export interface TopoPod {
  readonly id: string;
  /** `namespace/name`. */
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  readonly ip?: string;
  readonly node?: string;
  readonly phase: string;
  readonly labels: Readonly<Record<string, string>>;
  /** Owner workload (`app` label, else the name without the ReplicaSet/DaemonSet suffix). */
  readonly workload: string;
  /** `dns` for CoreDNS; `system` for add-ons in system namespaces; `app` otherwise. */
  readonly role: 'app' | 'dns' | 'system';
}

/** Pods of one workload on one node, drawn as one box when the node has too many pods to draw singly. */
export interface TopoPodGroup {
  readonly id: string;
  readonly namespace: string;
  readonly workload: string;
  readonly role: TopoPod['role'];
  readonly podKeys: readonly string[];
  readonly ips: readonly string[];
}

export interface TopoNode {
  readonly id: string;
  readonly name: string;
  readonly ip: string;
  readonly podCIDR: string;
  readonly controlPlane: boolean;
  readonly ready: boolean;
  /** Pods on the pod network, sorted by namespace then name. */
  readonly pods: readonly TopoPod[];
  /** hostNetwork pods (kube-proxy, the CNI agent…): they use the node's IP, listed, not drawn as pods. */
  readonly hostPods: readonly { readonly key: string; readonly workload: string }[];
  /** Set when the node has more than `COLLAPSE_AT` pods: the diagram draws these groups instead. */
  readonly groups?: readonly TopoPodGroup[];
}

export interface TopoServicePort {
  readonly name?: string;
  readonly port: number;
  readonly targetPort: string;
  readonly protocol: string;
  readonly nodePort?: number;
}

export interface TopoService {
  readonly id: string;
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  readonly type: string;
  /** `None` for a headless Service. */
  readonly clusterIP: string;
  readonly ports: readonly TopoServicePort[];
  /** Pod keys of the ready endpoints in its EndpointSlices, sorted. */
  readonly backends: readonly string[];
  readonly notReady: number;
  readonly externalIPs: readonly string[];
  /** The cluster DNS Service (kube-dns in front of CoreDNS). */
  readonly dns: boolean;
}

export interface TopoPolicyRule {
  /** Peers in the API's terms, already formatted: `pods app=web`, `namespaces team=a`, `ipBlock 10.0.0.0/8`. */
  readonly peers: readonly string[];
  /** `TCP 8080`, `UDP 53`; empty = every port. */
  readonly ports: readonly string[];
}

export interface TopoPolicy {
  readonly id: string;
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  /** The podSelector, formatted (`<all pods>` for `{}`). */
  readonly selector: string;
  readonly types: readonly ('Ingress' | 'Egress')[];
  /** Pod keys it selects. */
  readonly selects: readonly string[];
  readonly ingress: readonly TopoPolicyRule[];
  readonly egress: readonly TopoPolicyRule[];
}

/** Where traffic from outside enters: north-south. */
export interface TopoEntry {
  readonly id: string;
  readonly key: string;
  readonly kind: 'gateway' | 'ingress' | 'loadbalancer' | 'nodeport';
  readonly namespace: string;
  readonly name: string;
  /** Addresses it is reached on (Gateway/Ingress status, LoadBalancer ingress IP, node IPs for NodePort). */
  readonly addresses: readonly string[];
  /** `HTTPS 443`, `HTTP 80 host=shop.example`, `TCP 30080`. */
  readonly listeners: readonly string[];
  /** Service keys it sends to (Ingress backends, HTTPRoute backendRefs, the Service itself). */
  readonly services: readonly string[];
  /** HTTPRoutes attached to a Gateway. */
  readonly routes: readonly string[];
}

export interface TopoOverlay {
  readonly id: string;
  /** What carries pod packets between nodes. */
  readonly encapsulation: 'vxlan' | 'ipip' | 'geneve' | 'none';
  /** How nodes learn the other nodes' pod CIDRs. */
  readonly routing: 'bgp' | 'flannel' | 'cilium' | 'kindnet';
  readonly udpPort?: number;
  readonly device?: string;
  readonly nodeMtu?: number;
  readonly podMtu?: number;
}

export type RewriteMode = 'iptables' | 'ipvs' | 'nftables' | 'ebpf' | 'none';

export interface TopologyModel {
  readonly version: 1;
  readonly cni: CniName;
  readonly distribution: Distribution;
  readonly kubeProxyMode: KubeProxyMode;
  /** Where a ClusterIP is rewritten to a pod IP: kube-proxy's rules, or Cilium's eBPF maps. */
  readonly rewrite: RewriteMode;
  readonly overlay: TopoOverlay;
  /** Whether the CNI enforces NetworkPolicy (flannel alone accepts and ignores it). */
  readonly policyEnforced: boolean;
  readonly nodes: readonly TopoNode[];
  /** Pods with no node yet (Pending), so counts add up. */
  readonly unscheduled: readonly TopoPod[];
  readonly services: readonly TopoService[];
  readonly policies: readonly TopoPolicy[];
  readonly entries: readonly TopoEntry[];
  readonly dnsIP: string;
  readonly podSubnet: string;
  readonly serviceSubnet: string;
}
