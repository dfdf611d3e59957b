/**
 * Calico (projectcalico/calico `cni-plugin`): the `calico` plugin with `calico-ipam`; no bridge — each
 * pod gets a /32 and a routed `cali…` veth whose name is `cali` + the first 11 hex digits of
 * sha1("<namespace>.<pod>"); the pod's default route points at the link-local 169.254.1.1, answered by
 * proxy ARP on the host side.
 *
 * Simplified: calico-ipam hands out addresses from one block per node that coincides with the node's
 * podCIDR (real Calico uses /26 blocks with affinity and may borrow); ordinal 0 is the node's tunnel
 * address.
 */
import { sha1 } from '@noble/hashes/legacy.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { formatIPv4, parseCidr } from '../../util/ip.ts';
import { OVERHEAD, positiveInt } from './settings-parse.ts';
import type { CniDataplane, CniPlugin, CniSettings, DeviceAddress, Encapsulation } from './types.ts';

/**
 * calico.yaml's `cni_network_config` template (projectcalico/calico manifests/calico.yaml): calico with
 * calico-ipam, portmap, then bandwidth (traffic shaping from the kubernetes.io/*-bandwidth
 * annotations). Note 001 quotes it without bandwidth; one-node/cni.mdx shows the real one. install-cni
 * fills the node name and the MTU per node (installedConflist in dataplane/tools/node-tools.ts).
 */
export const CALICO_CONFLIST = `{
  "name": "k8s-pod-network",
  "cniVersion": "0.3.1",
  "plugins": [
    {
      "type": "calico",
      "log_level": "info",
      "log_file_path": "/var/log/calico/cni/cni.log",
      "datastore_type": "kubernetes",
      "nodename": "__KUBERNETES_NODE_NAME__",
      "mtu": 0,
      "ipam": {
          "type": "calico-ipam"
      },
      "policy": {
          "type": "k8s"
      },
      "kubernetes": {
          "kubeconfig": "/etc/cni/net.d/calico-kubeconfig"
      }
    },
    {
      "type": "portmap",
      "snat": true,
      "capabilities": {"portMappings": true}
    },
    {
      "type": "bandwidth",
      "capabilities": {"bandwidth": true}
    }
  ]
}
`;

/**
 * calico-node's env `CALICO_IPV4POOL_IPIP` / `CALICO_IPV4POOL_VXLAN` (calico.yaml ships IPIP Always;
 * Never on both means plain BGP routes); `veth_mtu` of `calico-config` when set, else auto-detected.
 */
function calicoDataplane(s: CniSettings, nodeMtu: number): CniDataplane {
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

export const calico: CniPlugin = {
  name: 'calico',
  network: 'k8s-pod-network',
  pluginType: 'calico',
  confFile: '10-calico.conflist',
  conflist: CALICO_CONFLIST,
  podPrefix: 32,
  mtuOverhead: 20,
  ipamRange: (podCIDR) => {
    const c = parseCidr(podCIDR);
    if (!c) return undefined;
    const start = (c.base + 1) >>> 0;
    const end = (c.base + 2 ** (32 - c.prefix) - 1) >>> 0;
    return {
      start,
      end,
      reserved: [],
      strategy: 'sequential',
      text: `${formatIPv4(start)}-${formatIPv4(end)}`,
    };
  },
  wrapIpamError: () => 'failed to request 1 IPv4 addresses. IPAM allocated only 0',
  gateway: () => '169.254.1.1',
  hostInterface: (ns, name) => `cali${bytesToHex(sha1(utf8ToBytes(`${ns}.${name}`))).slice(0, 11)}`,
  nodeInterfaces: ['tunl0', 'vxlan.calico'],
  isAgentPod: (pod) =>
    pod.metadata.namespace === 'kube-system' && pod.metadata.labels?.['k8s-app'] === 'calico-node',
  readSettings: (api) => {
    const ds = api.get('daemonsets.apps', 'kube-system', 'calico-node');
    const c = ds?.spec?.template.spec?.containers.find((x) => x.name === 'calico-node');
    const env: Record<string, string> = {};
    for (const e of c?.env ?? []) if (typeof e.value === 'string') env[e.name] = e.value;
    const data = api.get('configmaps', 'kube-system', 'calico-config')?.data;
    return { calicoEnv: env, ...(data ? { calicoConfig: { ...data } } : {}) };
  },
  dataplane: calicoDataplane,
  // The tunnel device (tunl0 or vxlan.calico) holds a /32 from the node's block.
  deviceAddresses: (dp, podCIDR): DeviceAddress[] => {
    const c = parseCidr(podCIDR);
    if (!c || dp.tunnelDevice === undefined) return [];
    return [{ device: dp.tunnelDevice, address: formatIPv4(c.base), prefix: 32, scope: 'global' }];
  },
  // tunl0 is the ipip module's fallback device, listed before eth0 (hasTunl0); only VXLAN adds one here.
  nodeDevices: (dp, nodeIP) =>
    dp.encapsulation === 'vxlan'
      ? [
          {
            name: 'vxlan.calico',
            state: 'UNKNOWN',
            // Felix's VXLAN device: VNI 4096 on the IANA port 4789.
            kind: { type: 'vxlan', id: 4096, local: nodeIP, dev: 'eth0', dstport: 4789 },
          },
        ]
      : [],
  routingDaemon: 'bird',
  hasTunl0: (dp) => dp.encapsulation === 'ipip',
  vni: 4096,
  tunnelSendsFragNeeded: () => true,
  portmap: true,
  enforcesNetworkPolicy: true,
  replacesKubeProxy: false,
  podRoutes: () => ['default via 169.254.1.1 dev eth0 ', '169.254.1.1 dev eth0 scope link '],
  ownBlockRoutes: (_dp, block) => [{ dst: block, text: `blackhole ${block} proto bird ` }],
  remoteBlockRoute: (dp, r) =>
    dp.encapsulation === 'ipip'
      ? `${r.block} via ${r.nodeIP} dev tunl0 proto bird onlink `
      : dp.encapsulation === 'vxlan'
        ? `${r.block} via ${r.tunnelIP} dev vxlan.calico onlink `
        : `${r.block} via ${r.nodeIP} dev eth0 proto bird `,
  podHostRoute: (podIP, veth) => `${podIP} dev ${veth} scope link `,
  // The cali… veths have no address, so the node speaks to its pods from its own.
  nodeAddressTowardPods: (_podCIDR, nodeIP) => nodeIP,
  deadNeighbour: 'timeout',
  /*
   * calico-node's startup (node/pkg/lifecycle/startup: the autodetected address with its prefix) and
   * the tunnel address allocator (node/pkg/allocateip: IPv4IPIPTunnelAddr or IPv4VXLANTunnelAddr).
   */
  nodeAnnotations: ({ nodeIP, nodeNetworkPrefix, podCIDR, dp }) => {
    const tunnel = calico.deviceAddresses(dp, podCIDR)[0];
    const key =
      dp.encapsulation === 'ipip'
        ? 'projectcalico.org/IPv4IPIPTunnelAddr'
        : dp.encapsulation === 'vxlan'
          ? 'projectcalico.org/IPv4VXLANTunnelAddr'
          : undefined;
    return {
      'projectcalico.org/IPv4Address': `${nodeIP}/${nodeNetworkPrefix}`,
      ...(key && tunnel ? { [key]: tunnel.address } : {}),
    };
  },
  // install-cni fills the node name and the MTU (veth_mtu, 0 = auto) into cni_network_config.
  installedConflist: ({ node, dp }) =>
    CALICO_CONFLIST.replace('__KUBERNETES_NODE_NAME__', node).replace(
      '"mtu": 0',
      `"mtu": ${dp.podMtuConfigured ? dp.podMtu : 0}`,
    ),
  extraNodeFiles: ({ confDir }) => ({
    [`${confDir}/calico-kubeconfig`]: CALICO_KUBECONFIG,
  }),
};

/** The kubeconfig calico-node's install-cni writes beside the conflist (credentials elided). */
const CALICO_KUBECONFIG = `# Kubeconfig file for Calico CNI plugin. Installed by calico/node.\napiVersion: v1\nkind: Config\nclusters:\n- name: local\n  cluster:\n    server: https://10.96.0.1:443\n    certificate-authority-data: "LS0tLS1CRUdJTi..."\nusers:\n- name: calico\n  user:\n    token: eyJhbGciOiJSUzI1NiIsImtpZCI6...\ncontexts:\n- name: calico-context\n  context:\n    cluster: local\n    user: calico\ncurrent-context: calico-context\n`;
