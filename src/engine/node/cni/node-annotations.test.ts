/**
 * The annotations CNI agents write on their Node. Names and value shapes from upstream:
 *
 * - flannel v0.28.9 pkg/subnet/kube/annotations.go (prefix `flannel.alpha.coreos.com/`:
 *   kube-subnet-manager, backend-data, backend-type, public-ip), kube.go AcquireLease (writes "true"
 *   and the public IP), pkg/backend/vxlan/vxlan.go newSubnetAttrs (`{"VNI":1,"VtepMAC":…}`, the MAC of
 *   flannel.1);
 * - calico-node: `projectcalico.org/IPv4Address` is the node address with its network's prefix and
 *   `projectcalico.org/IPv4IPIPTunnelAddr` tunl0's address, as real `kubectl get node -o yaml`
 *   captures show (e.g. `172.20.0.100/24` and `10.244.0.1`); VXLAN pools use IPv4VXLANTunnelAddr.
 */
import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../cluster/cluster.ts';
import { nodeShell } from '../../dataplane/network/test-helpers.ts';

function annotations(cluster: Cluster, node: string): Record<string, string> {
  return cluster.store.get('nodes', undefined, node)?.metadata.annotations ?? {};
}

const kind = (block: string) => `kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\n${block}`;

describe('CNI node annotations', () => {
  it('flanneld: backend-data carries VNI 1 and the MAC flannel.1 has on that node', () => {
    const cluster = createCluster(kind('packetpath:\n  cni: flannel\n'), { seed: 3 });
    cluster.settle();
    const a = annotations(cluster, 'kind-worker');
    expect(a['flannel.alpha.coreos.com/backend-type']).toBe('vxlan');
    expect(a['flannel.alpha.coreos.com/kube-subnet-manager']).toBe('true');
    expect(a['flannel.alpha.coreos.com/public-ip']).toBe('172.18.0.3');
    const data: unknown = JSON.parse(a['flannel.alpha.coreos.com/backend-data'] ?? 'null');
    const link = nodeShell(cluster, 'kind-worker', 'ip link show flannel.1');
    const mac = /link\/ether (\S+) /.exec(link)?.[1];
    expect(mac).toMatch(/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/);
    expect(data).toEqual({ VNI: 1, VtepMAC: mac });
    // Go's json.Marshal order (struct field order), no spaces.
    expect(a['flannel.alpha.coreos.com/backend-data']).toBe(`{"VNI":1,"VtepMAC":"${mac}"}`);
    // The FDB entry another node programs for this VTEP uses the same MAC.
    expect(nodeShell(cluster, 'kind-worker2', 'bridge fdb show')).toContain(
      `${mac} dev flannel.1 dst 172.18.0.3 self permanent`,
    );
  });

  it('calico-node: IPv4Address with its prefix and tunl0 address as IPv4IPIPTunnelAddr', () => {
    const cluster = createCluster(kind(''), { seed: 3 });
    cluster.settle();
    const a = annotations(cluster, 'kind-worker');
    expect(a['projectcalico.org/IPv4Address']).toBe('172.18.0.3/16');
    const tunl0 = /inet (\S+)\/32 .*tunl0/.exec(nodeShell(cluster, 'kind-worker', 'ip -4 addr show tunl0'));
    expect(a['projectcalico.org/IPv4IPIPTunnelAddr']).toBe(tunl0?.[1]);
    expect(a['projectcalico.org/IPv4VXLANTunnelAddr']).toBeUndefined();
    expect(Object.keys(a).some((k) => k.startsWith('flannel.'))).toBe(false);
  });

  it('kindnet writes none', () => {
    const cluster = createCluster(kind('packetpath:\n  distribution: kind\n'), { seed: 3 });
    cluster.settle();
    const keys = Object.keys(annotations(cluster, 'kind-worker'));
    expect(keys.filter((k) => k.includes('flannel') || k.includes('calico'))).toEqual([]);
  });
});
