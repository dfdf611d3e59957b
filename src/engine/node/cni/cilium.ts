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
import type { CniPlugin } from './types.ts';

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
  gateway: (podCIDR) => {
    const c = parseCidr(podCIDR);
    return c ? formatIPv4(c.base + 1) : '';
  },
  hostInterface: (_ns, _name, sandboxId) => `lxc${bytesToHex(sha256(utf8ToBytes(sandboxId))).slice(0, 12)}`,
  nodeInterfaces: ['cilium_host', 'cilium_net', 'cilium_vxlan'],
};
