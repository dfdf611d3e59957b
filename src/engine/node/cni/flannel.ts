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
