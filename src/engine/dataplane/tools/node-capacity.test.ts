import { describe, expect, it } from 'vitest';
import { createCluster } from '../../cluster/cluster.ts';

describe('the 110-pod limit seen through the tools', () => {
  const cluster = createCluster(undefined, { seed: 81 });
  cluster.execSync('kubectl create deployment many --image=registry.k8s.io/pause:3.10.1 --replicas=230');
  cluster.tick(120_000);

  it('each worker runs at most maxPods pods and the rest stay Pending with "Too many pods"', () => {
    const pods = cluster.store.list('pods', 'default');
    const pending = pods.filter((p) => p.status?.phase === 'Pending');
    expect(pending.length).toBeGreaterThan(0);
    const describe = cluster.execSync(`kubectl describe pod ${pending[0]!.metadata.name}`).stdout;
    expect(describe).toMatch(/Too many pods/);
  });

  it('ip addr on a full node lists one veth per pod that has a network namespace', () => {
    cluster.execSync('kubectl debug node/kind-worker -it --image=nicolaka/netshoot', { interactive: true });
    const out = cluster.execSync('ip -o link', { interactive: true }).stdout;
    cluster.execSync('exit', { interactive: true });
    const veths = out.split('\n').filter((l) => /^\d+: cali[0-9a-f]{11}@if\d+:/.test(l));
    const withNetns = cluster.store
      .list('pods')
      .filter(
        (p) =>
          p.spec?.nodeName === 'kind-worker' &&
          !p.spec.hostNetwork &&
          p.status?.podIP &&
          p.status.phase === 'Running',
      );
    expect(veths).toHaveLength(withNetns.length);
    expect(withNetns.length).toBeGreaterThan(100);
  });
});
