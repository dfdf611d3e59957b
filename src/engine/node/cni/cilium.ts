/**
 * Cilium (cilium/cilium `plugins/cilium-cni`): one `cilium-cni` plugin talking to the agent; pods get a
 * /32 and an `lxc…` host veth, routed through `cilium_host` (the node's router address, which is the
 * pods' gateway) and `cilium_vxlan` between nodes.
 *
 * Simplified: IPAM hands out addresses of the node's podCIDR (cilium-config's cluster pool is the
 * cluster's pod subnet cut into node-sized blocks), chosen at random like the agent's allocator; the
 * router address is the podCIDR's first address.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { formatIPv4, parseCidr } from '../../util/ip.ts';
import { OVERHEAD, positiveInt } from './settings-parse.ts';
import type { CniDataplane, CniPlugin, CniSettings, Encapsulation } from './types.ts';

export const CILIUM_CONFLIST = `{
  "cniVersion": "0.3.1",
  "name": "cilium",
  "plugins": [
    {
       "type": "cilium-cni",
       "enable-debug": false,
       "log-file": "/var/run/cilium/cilium-cni.log"
    }
  ]
}
`;

function routerOf(podCIDR: string): string {
  const c = parseCidr(podCIDR);
  return c ? formatIPv4(c.base + 1) : '';
}

/** `cilium-config` (`routing-mode`, `tunnel-protocol`, `mtu`): VXLAN on UDP 8472 by default. */
function ciliumDataplane(s: CniSettings, nodeMtu: number): CniDataplane {
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

export const cilium: CniPlugin = {
  name: 'cilium',
  network: 'cilium',
  pluginType: 'cilium-cni',
  confFile: '05-cilium.conflist',
  conflist: CILIUM_CONFLIST,
  podPrefix: 32,
  mtuOverhead: 50,
  ipamRange: (podCIDR) => {
    const c = parseCidr(podCIDR);
    if (!c) return undefined;
    const start = (c.base + 1) >>> 0;
    const end = (c.base + 2 ** (32 - c.prefix) - 2) >>> 0;
    return {
      start,
      end,
      reserved: [start],
      strategy: 'random',
      text: `${formatIPv4(start)}-${formatIPv4(end)}`,
    };
  },
  wrapIpamError: () =>
    'unable to allocate IP via local cilium agent: [POST /ipam][502] postIpamFailure  range is full',
  gateway: routerOf,
  hostInterface: (_ns, _name, sandboxId) => `lxc${bytesToHex(sha256(utf8ToBytes(sandboxId))).slice(0, 12)}`,
  nodeInterfaces: ['cilium_host', 'cilium_net', 'cilium_vxlan'],
  isAgentPod: (pod) =>
    pod.metadata.namespace === 'kube-system' && pod.metadata.labels?.['k8s-app'] === 'cilium',
  readSettings: (api) => {
    const data = api.get('configmaps', 'kube-system', 'cilium-config')?.data;
    return data ? { cilium: { ...data } } : {};
  },
  dataplane: ciliumDataplane,
  // cilium_host holds the node's router address, the pods' gateway.
  deviceAddresses: (_dp, podCIDR) => {
    const router = routerOf(podCIDR);
    return router ? [{ device: 'cilium_host', address: router, prefix: 32, scope: 'link' }] : [];
  },
  nodeDevices: (dp) => [
    { name: 'cilium_net', peer: 'cilium_host', mtu: dp.nodeMtu, kind: { type: 'veth' } },
    { name: 'cilium_host', peer: 'cilium_net', mtu: dp.nodeMtu, kind: { type: 'veth' } },
    ...(dp.encapsulation === 'none'
      ? []
      : [
          {
            name: dp.tunnelDevice ?? 'cilium_vxlan',
            state: 'UNKNOWN' as const,
            mtu: dp.nodeMtu,
            ...(dp.tunnelDevice === undefined || dp.tunnelDevice === 'cilium_vxlan'
              ? { kind: { type: 'vxlan' as const, external: true, id: 0, dstport: 8472 } }
              : {}),
          },
        ]),
  ],
  hasTunl0: () => false,
  vni: 'security-identity',
  // The eBPF datapath drops an oversize packet at the tunnel without answering (network/pmtud.ts).
  tunnelSendsFragNeeded: (dp) => dp.encapsulation === 'none',
  portmap: false,
  enforcesNetworkPolicy: true,
  replacesKubeProxy: true,
  podRoutes: ({ gateway, podMtu }) => [
    `default via ${gateway} dev eth0 mtu ${podMtu} `,
    `${gateway} dev eth0 scope link `,
  ],
  ownBlockRoutes: (_dp, block) => {
    const router = routerOf(block);
    return [
      { dst: block, text: `${block} via ${router} dev cilium_host proto kernel src ${router} ` },
      { dst: router, text: `${router} dev cilium_host proto kernel scope link ` },
    ];
  },
  remoteBlockRoute: (dp, r) => {
    const router = routerOf(r.localPodCIDR);
    return dp.encapsulation === 'none'
      ? `${r.block} via ${r.nodeIP} dev eth0 `
      : `${r.block} via ${router} dev cilium_host proto kernel src ${router} mtu ${dp.podMtu} `;
  },
  nodeAddressTowardPods: (_podCIDR, nodeIP) => nodeIP,
  deadNeighbour: 'timeout',
};
