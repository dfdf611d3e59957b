/**
 * MetalLB layer 2 from the outside. An IPAddressPool alone makes the controller assign an address, but
 * no speaker answers ARP for it until an L2Advertisement covers the pool (MetalLB docs, "Configuration
 * → Layer 2": "Setting no IPAddressPool selector in an L2Advertisement … the IPs are announced";
 * without any L2Advertisement they are not). The winner is the first node by
 * sha256(node + "#" + ip) (`speaker/layer2_controller.go` `ShouldAnnounce`).
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../cluster/cluster.ts';
import { METALLB_NATIVE_YAML } from '../../cluster/addons/metallb.ts';

const POOL = `apiVersion: metallb.io/v1beta1
kind: IPAddressPool
metadata: {name: one, namespace: metallb-system}
spec:
  addresses: [172.18.255.200/32]
`;
const L2 = `apiVersion: metallb.io/v1beta1
kind: L2Advertisement
metadata: {name: l2, namespace: metallb-system}
`;

describe('MetalLB layer 2 announcement', () => {
  it('an assigned VIP without an L2Advertisement times out; with one, the speaker node answers', async () => {
    const c = createCluster(undefined, {
      seed: 5,
      files: { 'metallb-native.yaml': METALLB_NATIVE_YAML, 'pool.yaml': POOL, 'l2.yaml': L2 },
    });
    await c.exec('kubectl apply -f metallb-native.yaml');
    c.waitFor(
      () => c.api.list('pods', 'metallb-system').every((p) => p.status?.phase === 'Running'),
      120_000,
    );
    c.waitFor(() => false, 30_000);
    await c.exec('kubectl apply -f pool.yaml');
    await c.exec('kubectl create deployment web --image=nginx');
    await c.exec('kubectl expose deployment web --port=80 --type=LoadBalancer');
    await c.exec('kubectl wait --for=condition=Available deploy/web --timeout=120s');
    expect((await c.exec('kubectl get svc web')).stdout).toMatch(/172\.18\.255\.200/);

    const silent = await c.exec('curl -s -m 5 http://172.18.255.200/');
    expect(silent.exitCode).toBe(28);
    const trace = (await c.exec('trace outside -- curl http://172.18.255.200/')).stdout;
    expect(trace).toMatch(/drop\s+172\.18\.255\.200: nothing answers for this address on the node network/);

    await c.exec('kubectl apply -f l2.yaml');
    const ok = await c.exec('curl -s http://172.18.255.200/');
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toContain('Welcome to nginx!');
  });
});
