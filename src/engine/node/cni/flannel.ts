/**
 * flannel (flannel-io/cni-plugin): the `flannel` plugin reads /run/flannel/subnet.env and delegates to
 * the `bridge` plugin with host-local IPAM over the node's podCIDR; pods hang off the `cni0` bridge
 * (gateway .1) and cross nodes through the `flannel.1` VXLAN device. Errors from the delegate come
 * back as `failed to delegate add: …`.
 */
import { formatIPv4, parseCidr } from '../../util/ip.ts';
import { fnv32a } from '../../util/rng.ts';
import { hostLocalRange } from '../ipam.ts';
import type { CniPlugin } from './types.ts';

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
  gateway: (podCIDR) => {
    const c = parseCidr(podCIDR);
    return c ? formatIPv4(c.base + 1) : '';
  },
  // The bridge plugin names host veths `veth` + 8 random hex digits (ip.RandomVethName).
  hostInterface: (_ns, _name, sandboxId) => `veth${fnv32a(sandboxId).toString(16).padStart(8, '0')}`,
  nodeInterfaces: ['cni0', 'flannel.1'],
};
