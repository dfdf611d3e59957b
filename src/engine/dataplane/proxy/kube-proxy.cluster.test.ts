import { describe, expect, it } from 'vitest';
import { createCluster } from '../../cluster/cluster.ts';
import { KubeProxy } from './kube-proxy.ts';

describe('kube-proxy on a booted kind cluster', () => {
  it('starts with the kube-proxy pods and renders the kubernetes and kube-dns Services', () => {
    const cluster = createCluster(undefined, { seed: 1 });
    const proxy = new KubeProxy({ api: cluster.api, clock: cluster.clock, config: cluster.config });
    proxy.start();
    const started = cluster.waitFor(() => {
      proxy.sync();
      return ['kind-control-plane', 'kind-worker', 'kind-worker2'].every(
        (n) => proxy.nodeMode(n) === 'iptables',
      );
    }, 120_000);
    expect(started).toBe(true);
    const nat = proxy.iptablesSave('kind-worker', 'nat');
    // Chain names of a real kind capture (they depend only on the Service port names).
    for (const chain of [
      'KUBE-SVC-NPX46M4PTMTKRN6Y',
      'KUBE-SVC-TCOU7JCQXEZGVUNU',
      'KUBE-SVC-ERIFXISQEP7F7OF4',
      'KUBE-SVC-JD5MR3NA4I4DYORP',
    ]) {
      expect(nat).toContain(`:${chain} - [0:0]`);
    }
    expect(nat).toMatch(
      /-A KUBE-SVC-NPX46M4PTMTKRN6Y -m comment --comment "default\/kubernetes:https -> 172\.18\.0\.2:6443" -j KUBE-SEP-\w{16}\n/,
    );
  });
});
