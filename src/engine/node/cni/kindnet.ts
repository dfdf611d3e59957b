/**
 * kindnet (kubernetes-sigs/kind `images/kindnetd`, kind's default CNI): the `kindnet` DaemonSet's
 * kindnetd writes `/etc/cni/net.d/10-kindnet.conflist` from the node's podCIDR (cmd/kindnetd/cni.go:
 * the `ptp` plugin with `host-local` IPAM, then `portmap`), adds one route per remote node's podCIDR via
 * that node's address on the kind docker network (cmd/kindnetd/routes.go `syncRoute`: no overlay),
 * keeps the KIND-MASQ-AGENT chain in nat POSTROUTING (cmd/kindnetd/masq.go) and enforces
 * NetworkPolicy with sigs.k8s.io/kube-network-policies (nftables) since kindnetd v1.0.
 *
 * ptp (containernetworking/plugins `plugins/main/ptp/ptp.go`): the pod's eth0 keeps the range's mask
 * (10.244.1.5/24) but every route goes through the gateway, which is the address of the host end of
 * the veth (10.244.1.1/32); the host reaches each pod by a `scope host` route on its veth.
 */
import { formatIPv4, parseCidr } from '../../util/ip.ts';
import { fnv32a } from '../../util/rng.ts';
import { hostLocalRange } from '../ipam.ts';
import type { CniPlugin } from './types.ts';

function gatewayOf(podCIDR: string): string {
  const c = parseCidr(podCIDR);
  return c ? formatIPv4(c.base + 1) : '';
}

/**
 * cni.go's `cniConfigTemplate` as text/template renders it for a single-stack IPv4 node (the blank
 * lines are the template's actions; kindnetd always knows eth0's MTU, so "mtu" is there).
 */
export function kindnetConflist(podCIDR: string, mtu: number): string {
  return `
{
\t"cniVersion": "0.3.1",
\t"name": "kindnet",
\t"plugins": [
\t{
\t\t"type": "ptp",
\t\t"ipMasq": false,
\t\t"ipam": {
\t\t\t"type": "host-local",
\t\t\t"dataDir": "/run/cni-ipam-state",
\t\t\t"routes": [
\t\t\t\t
\t\t\t\t
\t\t\t\t{ "dst": "0.0.0.0/0" }
\t\t\t],
\t\t\t"ranges": [
\t\t\t\t
\t\t\t\t
\t\t\t\t[ { "subnet": "${podCIDR}" } ]
\t\t\t]
\t\t}
\t\t,
\t\t"mtu": ${mtu}
\t\t
\t},
\t{
\t\t"type": "portmap",
\t\t"capabilities": {
\t\t\t"portMappings": true
\t\t}
\t}
\t]
}
`;
}

export const kindnet: CniPlugin = {
  name: 'kindnet',
  network: 'kindnet',
  pluginType: 'ptp',
  confFile: '10-kindnet.conflist',
  conflist: kindnetConflist('', 1500),
  podPrefix: 24,
  mtuOverhead: 0,
  ipamRange: hostLocalRange,
  // ptp calls host-local itself, so the chain adds no wording of its own.
  wrapIpamError: (error) => `failed to allocate for range 0: ${error}`,
  gateway: gatewayOf,
  // ptp creates the veth with ip.SetupVeth(ifName, mtu, "", …): a random `veth` + 8 hex digits name.
  hostInterface: (_ns, _name, sandboxId) => `veth${fnv32a(sandboxId).toString(16).padStart(8, '0')}`,
  nodeInterfaces: [],
  isAgentPod: (pod) => pod.metadata.namespace === 'kube-system' && pod.metadata.labels?.app === 'kindnet',
  // kindnetd reads only POD_SUBNET (the cluster's) and eth0's MTU: nothing a learner edits in the API.
  readSettings: () => ({}),
  dataplane: (_settings, nodeMtu) => ({
    cni: 'kindnet',
    encapsulation: 'none',
    overhead: 0,
    nodeMtu,
    podMtu: nodeMtu,
    podMtuConfigured: true,
    label: 'kindnetd route',
  }),
  deviceAddresses: () => [],
  nodeDevices: () => [],
  hostVethAddress: (podCIDR) => gatewayOf(podCIDR),
  hasTunl0: () => false,
  tunnelSendsFragNeeded: () => true,
  portmap: true,
  enforcesNetworkPolicy: true,
  replacesKubeProxy: false,
  podRoutes: ({ gateway, podCIDR, podIP }) => [
    `default via ${gateway} dev eth0 `,
    `${podCIDR} via ${gateway} dev eth0 src ${podIP} `,
    `${gateway} dev eth0 scope link src ${podIP} `,
  ],
  // No route for the node's own block: each pod has its own host route (podHostRoute).
  ownBlockRoutes: () => [],
  remoteBlockRoute: (_dp, r) => `${r.block} via ${r.nodeIP} dev eth0 `,
  podHostRoute: (podIP, veth) => `${podIP} dev ${veth} scope host `,
  // The host end of every veth holds the gateway address, so the node answers its pods from it.
  nodeAddressTowardPods: (podCIDR, nodeIP) => gatewayOf(podCIDR) || nodeIP,
  deadNeighbour: 'timeout',
  installedConflist: ({ podCIDR, dp }) => kindnetConflist(podCIDR, dp.nodeMtu),
};
