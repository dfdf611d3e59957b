// Calico's BGP routes follow calico-node: when it stops on kind-worker2 (an OnDelete upgrade to an image
// that cannot be pulled), its peers keep the routes for bird.cfg's `graceful restart time 120`, then
// withdraw kind-worker2's block; kind-worker2 keeps its own routes (`protocol kernel { persist; }`).
import { describe, expect, it } from 'vitest';
import { Rng } from '../../util/rng.ts';
import { connect } from './connect.ts';
import { podIP, scenario } from './test-helpers.ts';
import { bgpRouteWithdrawn } from './bgp-routes.ts';
import { cniDataplane } from './cni-dataplane.ts';
import type { Cluster } from '../../cluster/cluster.ts';

const run = (cluster: Cluster, line: string) => {
  const r = cluster.execSync(line);
  cluster.settle();
  return r;
};

function stopCalicoNodeOnWorker2(cluster: Cluster): void {
  run(
    cluster,
    `kubectl -n kube-system patch ds calico-node -p '{"spec":{"updateStrategy":{"type":"OnDelete"}}}'`,
  );
  run(cluster, 'kubectl -n kube-system set image ds/calico-node calico-node=calico-node:v3.31.3');
  run(
    cluster,
    'kubectl -n kube-system delete pod -l k8s-app=calico-node --field-selector spec.nodeName=kind-worker2',
  );
}

const routes = (cluster: Cluster, node: string) =>
  run(cluster, `kubectl debug node/${node} -it --image=busybox -- ip route`).stdout;

const block = (cluster: Cluster, node: string) => cluster.store.get('nodes', undefined, node)!.spec!.podCIDR!;

describe('calico BGP routes when calico-node stops on a node', () => {
  const cluster = scenario('calico');
  const rng = new Rng(5);
  const toEchoB = () =>
    connect(
      {
        protocol: 'TCP',
        from: { kind: 'pod', namespace: 'default', name: 'client' },
        to: podIP(cluster, 'echo-b'),
        port: 8080,
      },
      cluster,
      rng,
    );
  const w2 = block(cluster, 'kind-worker2');
  const w1 = block(cluster, 'kind-worker');

  it('every node has an IP-in-IP route to the other blocks while calico-node runs everywhere', () => {
    expect(routes(cluster, 'kind-worker')).toContain(`${w2} via 172.18.0.4 dev tunl0 proto bird onlink \n`);
    expect(toEchoB().outcome).toBe('connected');
  });

  it('within the graceful restart the peers keep the stale route', () => {
    stopCalicoNodeOnWorker2(cluster);
    cluster.tick(60_000);
    const agent = cluster.store
      .list('pods', 'kube-system')
      .find((p) => p.metadata.labels?.['k8s-app'] === 'calico-node' && p.spec?.nodeName === 'kind-worker2');
    expect(agent?.status?.containerStatuses?.[0]?.state?.waiting?.reason).toMatch(
      /ErrImagePull|ImagePullBackOff/,
    );
    expect(routes(cluster, 'kind-worker')).toContain(`${w2} via 172.18.0.4 dev tunl0 proto bird onlink \n`);
    expect(toEchoB().outcome).toBe('connected');
  });

  it('after it the other nodes withdraw the block and the packet is lost at the source node', () => {
    cluster.tick(90_000);
    const onWorker = routes(cluster, 'kind-worker');
    expect(onWorker).not.toContain(w2);
    expect(routes(cluster, 'kind-control-plane')).not.toContain(w2);
    // kind-worker2's own kernel keeps what BIRD installed.
    expect(routes(cluster, 'kind-worker2')).toContain(`${w1} via 172.18.0.3 dev tunl0 proto bird onlink \n`);
    const r = toEchoB();
    expect(r.outcome).toBe('timeout');
    expect(r.decidingHop).toMatchObject({
      kind: 'no-route',
      node: 'kind-worker',
      ip: podIP(cluster, 'echo-b'),
    });
    expect(r.hops.some((h) => h.kind === 'route' && h.toNode === 'kind-worker2')).toBe(false);
    const curl = cluster.execSync(
      `kubectl exec curl -- curl -sS -m 5 http://${podIP(cluster, 'echo-b')}:8080/hostname`,
    );
    expect(curl.stderr).toMatch(/^curl: \(28\) Connection timed out after 50\d\d milliseconds\n/);
    expect(curl.exitCode).toBe(28);
    const trace = cluster.execSync(
      `trace client -- wget -qO- -T 2 http://${podIP(cluster, 'echo-b')}:8080/`,
    ).stdout;
    expect(trace).toMatch(
      new RegExp(
        `drop +${podIP(cluster, 'echo-b').replace(/\./g, '\\.')}: kind-worker has no route to ${w2.replace(/\./g, '\\.')}: calico-node is not running on kind-worker2`,
      ),
    );
  });

  it('a pod on that node reaches the others, but their replies are lost', () => {
    const r = connect(
      {
        protocol: 'TCP',
        from: { kind: 'pod', namespace: 'default', name: 'echo-b' },
        to: podIP(cluster, 'echo-a'),
        port: 8080,
      },
      cluster,
      rng,
    );
    expect(r.outcome).toBe('timeout');
    expect(r.decidingHop).toMatchObject({
      kind: 'no-route',
      node: 'kind-worker',
      ip: podIP(cluster, 'echo-b'),
    });
  });

  it("VXLAN routes are Felix's, programmed without BIRD: they stay", () => {
    const dp = cniDataplane(cluster);
    expect(bgpRouteWithdrawn(cluster, dp, 'kind-worker', 'kind-worker2')).toBe(true);
    const vxlan = { ...dp, encapsulation: 'vxlan' as const, tunnelDevice: 'vxlan.calico', overhead: 50 };
    expect(bgpRouteWithdrawn(cluster, vxlan, 'kind-worker', 'kind-worker2')).toBe(false);
  });

  it('calico-node running again brings the route back', () => {
    run(cluster, 'kubectl -n kube-system set image ds/calico-node calico-node=docker.io/calico/node:v3.31.2');
    run(
      cluster,
      'kubectl -n kube-system delete pod -l k8s-app=calico-node --field-selector spec.nodeName=kind-worker2',
    );
    cluster.tick(60_000);
    expect(routes(cluster, 'kind-worker')).toContain(`${w2} via 172.18.0.4 dev tunl0 proto bird onlink \n`);
    expect(toEchoB().outcome).toBe('connected');
  });
});

describe('calico BGP routes after a rollout restart of calico-node', () => {
  it('every node runs a new calico-node and keeps its routes: cross-node traffic flows', () => {
    const cluster = scenario('calico');
    const before = cluster.store
      .list('pods', 'kube-system')
      .filter((p) => p.metadata.labels?.['k8s-app'] === 'calico-node')
      .map((p) => p.metadata.name);
    run(cluster, 'kubectl -n kube-system rollout restart daemonset/calico-node');
    cluster.tick(30_000);
    expect(
      run(cluster, 'kubectl -n kube-system rollout status daemonset/calico-node --timeout=1s').stdout,
    ).toContain('daemon set "calico-node" successfully rolled out');
    const after = cluster.store
      .list('pods', 'kube-system')
      .filter((p) => p.metadata.labels?.['k8s-app'] === 'calico-node')
      .map((p) => p.metadata.name);
    expect(after.some((n) => before.includes(n))).toBe(false);
    expect(routes(cluster, 'kind-worker')).toContain(
      `${block(cluster, 'kind-worker2')} via 172.18.0.4 dev tunl0 proto bird onlink \n`,
    );
    const r = connect(
      {
        protocol: 'TCP',
        from: { kind: 'pod', namespace: 'default', name: 'client' },
        to: podIP(cluster, 'echo-b'),
        port: 8080,
      },
      cluster,
      new Rng(6),
    );
    expect(r.outcome).toBe('connected');
  });
});
