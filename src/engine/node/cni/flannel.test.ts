import { describe, expect, it } from 'vitest';
import { createCluster } from '../../cluster/cluster.ts';
import { nodeFiles } from '../../dataplane/tools/node-tools.ts';
import { flannelSubnetEnv } from './flannel.ts';

// The file flanneld writes (flannel pkg/subnet WriteSubnetFile; the flannel CNI plugin's README shows
// the same four lines): the lease's first address with the lease's prefix length.
describe('flannel subnet.env', () => {
  it('names the first address of the node lease with its prefix length', () => {
    expect(flannelSubnetEnv('10.244.0.0/16', '10.244.1.0/24', 1450, true)).toBe(
      'FLANNEL_NETWORK=10.244.0.0/16\nFLANNEL_SUBNET=10.244.1.1/24\nFLANNEL_MTU=1450\nFLANNEL_IPMASQ=true\n',
    );
    expect(flannelSubnetEnv('10.244.0.0/16', '10.244.0.128/25', 1450, true)).toContain(
      'FLANNEL_SUBNET=10.244.0.129/25\n',
    );
  });

  it('follows nodeCidrMaskSize on a kind node', () => {
    const cluster = createCluster(
      'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n- role: control-plane\n- role: worker\npacketpath:\n  cni: flannel\n  nodeCidrMaskSize: 25\n',
      { seed: 1 },
    );
    cluster.settle();
    const podCIDR = cluster.store.get('nodes', undefined, 'kind-worker')?.spec?.podCIDR ?? '';
    expect(podCIDR).toMatch(/\/25$/);
    const env = nodeFiles(cluster, 'kind-worker')['/run/flannel/subnet.env'] ?? '';
    const first = podCIDR.replace(/\.(\d+)\/25$/, (_m, d: string) => `.${Number(d) + 1}/25`);
    expect(env).toBe(
      `FLANNEL_NETWORK=10.244.0.0/16\nFLANNEL_SUBNET=${first}\nFLANNEL_MTU=1450\nFLANNEL_IPMASQ=true\n`,
    );
  });

  it('is at /run/flannel/subnet.env on k3s with the k3s cluster CIDR', () => {
    const cluster = createCluster(
      'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\npacketpath:\n  distribution: k3s\n',
      { seed: 1 },
    );
    cluster.settle();
    const node = cluster.store.list('nodes')[0];
    const env = nodeFiles(cluster, node?.metadata.name ?? '')['/run/flannel/subnet.env'] ?? '';
    expect(env).toMatch(
      /^FLANNEL_NETWORK=10\.42\.0\.0\/16\nFLANNEL_SUBNET=10\.42\.\d+\.1\/24\nFLANNEL_MTU=1450\n/,
    );
  });
});
