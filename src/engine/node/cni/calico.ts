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
import type { CniPlugin } from './types.ts';

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
};
