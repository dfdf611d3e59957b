/**
 * flannel (flannel-io/cni-plugin): the `flannel` plugin reads /run/flannel/subnet.env and delegates to
 * the `bridge` plugin with host-local IPAM over the node's podCIDR; pods hang off the `cni0` bridge
 * (gateway .1) and cross nodes through the `flannel.1` VXLAN device. Errors from the delegate come
 * back as `failed to delegate add: …`.
 */
import { formatIPv4, parseCidr } from '../../util/ip.ts';
import { isPlainObject } from '../../util/json.ts';
import { macOf } from '../../util/mac.ts';
import { fnv32a } from '../../util/rng.ts';
import { hostLocalRange } from '../ipam.ts';
import { OVERHEAD, parseJson, positiveInt } from './settings-parse.ts';
import type { CniDataplane, CniPlugin, CniSettings, Encapsulation } from './types.ts';

export const FLANNEL_CONFLIST = `{
  "name": "cbr0",
  "cniVersion": "0.3.1",
  "plugins": [
    {
      "type": "flannel",
      "delegate": {
        "hairpinMode": true,
        "isDefaultGateway": true
      }
    },
    {
      "type": "portmap",
      "capabilities": {
        "portMappings": true
      }
    }
  ]
}
`;

function gatewayOf(podCIDR: string): string {
  const c = parseCidr(podCIDR);
  return c ? formatIPv4(c.base + 1) : '';
}

/**
 * flanneld reads `net-conf.json` (Backend.Type: vxlan by default, host-gw without encapsulation); the
 * pod MTU is FLANNEL_MTU unless `cni-conf.json` sets one in its delegate.
 */
function flannelDataplane(s: CniSettings, nodeMtu: number): CniDataplane {
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

export const flannel: CniPlugin = {
  name: 'flannel',
  network: 'cbr0',
  pluginType: 'flannel',
  confFile: '10-flannel.conflist',
  conflist: FLANNEL_CONFLIST,
  podPrefix: 24,
  mtuOverhead: 50,
  ipamRange: hostLocalRange,
  wrapIpamError: (error) => `failed to delegate add: failed to allocate for range 0: ${error}`,
  gateway: gatewayOf,
  // The bridge plugin names host veths `veth` + 8 random hex digits (ip.RandomVethName).
  hostInterface: (_ns, _name, sandboxId) => `veth${fnv32a(sandboxId).toString(16).padStart(8, '0')}`,
  nodeInterfaces: ['cni0', 'flannel.1'],
  isAgentPod: (pod) => pod.metadata.namespace === 'kube-flannel' && pod.metadata.labels?.app === 'flannel',
  readSettings: (api) => {
    const data = api.get('configmaps', 'kube-flannel', 'kube-flannel-cfg')?.data;
    return data ? { flannel: { ...data } } : {};
  },
  dataplane: flannelDataplane,
  // flannel.1 holds the pod CIDR's network address as a /32 (the VTEP); cni0 its first host address.
  deviceAddresses: (dp, podCIDR) => {
    const c = parseCidr(podCIDR);
    if (!c) return [];
    return [
      ...(dp.encapsulation === 'vxlan'
        ? [{ device: 'flannel.1', address: formatIPv4(c.base), prefix: 32, scope: 'global' as const }]
        : []),
      { device: 'cni0', address: formatIPv4(c.base + 1), prefix: c.prefix, scope: 'global' },
    ];
  },
  nodeDevices: (dp, nodeIP) => [
    ...(dp.encapsulation === 'vxlan'
      ? [
          {
            name: 'flannel.1',
            // flanneld sizes the VXLAN device from the external interface, whatever the pods got.
            mtu: dp.nodeMtu - dp.overhead,
            state: 'UNKNOWN' as const,
            // flanneld's vxlan backend: VNI 1, Linux's port 8472, learning off (it programs the FDB).
            kind: { type: 'vxlan' as const, id: 1, local: nodeIP, dev: 'eth0', dstport: 8472 },
          },
        ]
      : []),
    { name: 'cni0', kind: { type: 'bridge' } },
  ],
  bridge: 'cni0',
  hasTunl0: () => false,
  vni: 1,
  tunnelSendsFragNeeded: () => true,
  portmap: true,
  enforcesNetworkPolicy: false,
  replacesKubeProxy: false,
  podRoutes: ({ gateway, podSubnet, podCIDR, podIP }) => [
    `default via ${gateway} dev eth0 `,
    `${podSubnet} via ${gateway} dev eth0 `,
    `${podCIDR} dev eth0 proto kernel scope link src ${podIP} `,
  ],
  ownBlockRoutes: (_dp, block) => [
    { dst: block, text: `${block} dev cni0 proto kernel scope link src ${gatewayOf(block)} ` },
  ],
  remoteBlockRoute: (dp, r) =>
    dp.encapsulation === 'vxlan'
      ? `${r.block} via ${r.tunnelIP} dev flannel.1 onlink `
      : `${r.block} via ${r.nodeIP} dev eth0 `,
  nodeAddressTowardPods: (podCIDR, nodeIP) => gatewayOf(podCIDR) || nodeIP,
  deadNeighbour: 'unreachable',
  /*
   * flanneld's kube subnet manager (flannel v0.28 pkg/subnet/kube/kube.go AcquireLease, annotation
   * names in annotations.go) with the lease attributes of the backend: vxlan's newSubnetAttrs
   * (pkg/backend/vxlan/vxlan.go: {"VNI":1,"VtepMAC":<flannel.1's MAC>}), host-gw's none ("null").
   */
  nodeAnnotations: ({ node, nodeIP, dp }) => ({
    'flannel.alpha.coreos.com/backend-data':
      dp.encapsulation === 'vxlan' ? JSON.stringify({ VNI: 1, VtepMAC: macOf(`flannel.1/${node}`) }) : 'null',
    'flannel.alpha.coreos.com/backend-type': dp.encapsulation === 'vxlan' ? 'vxlan' : 'host-gw',
    'flannel.alpha.coreos.com/kube-subnet-manager': 'true',
    'flannel.alpha.coreos.com/public-ip': nodeIP,
  }),
  // install-cni copies cni-conf.json from kube-flannel-cfg as the node's agent read it.
  installedConflist: ({ settings }) => {
    const cm = settings.flannel?.['cni-conf.json'];
    if (!cm) return FLANNEL_CONFLIST;
    return cm.endsWith('\n') ? cm : `${cm}\n`;
  },
  // Both kube-flannel.yml (`--ip-masq`) and k3s's embedded flannel masquerade.
  extraNodeFiles: ({ podSubnet, podCIDR, dp }) => ({
    '/run/flannel/subnet.env': flannelSubnetEnv(podSubnet, podCIDR, dp.nodeMtu - dp.overhead, true),
  }),
};

/**
 * /run/flannel/subnet.env as flanneld writes it at start (flannel `pkg/subnet` WriteSubnetFile):
 * FLANNEL_NETWORK is the cluster network of net-conf.json, FLANNEL_SUBNET the node's lease with its
 * first address ("Write out the first usable IP by incrementing sn.IP by one") and the lease's own
 * prefix length (the node's podCIDR under --kube-subnet-mgr, so /25 when the controller manager hands
 * out /25s), FLANNEL_MTU the backend's MTU (the external interface's minus the encapsulation) and
 * FLANNEL_IPMASQ the --ip-masq flag. The flannel CNI plugin reads this file at every CNI ADD.
 */
export function flannelSubnetEnv(network: string, podCIDR: string, mtu: number, ipMasq: boolean): string {
  const c = parseCidr(podCIDR);
  const subnet = c ? `${formatIPv4(c.base + 1)}/${c.prefix}` : '';
  return `FLANNEL_NETWORK=${network}\nFLANNEL_SUBNET=${subnet}\nFLANNEL_MTU=${mtu}\nFLANNEL_IPMASQ=${ipMasq}\n`;
}
