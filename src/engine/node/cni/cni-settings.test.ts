/**
 * The pod MTU is applied at CNI ADD (flannel-io/cni-plugin fills the bridge delegate's "mtu" from
 * FLANNEL_MTU only when the delegate has none; calico's install-cni writes "mtu" from calico-config's
 * veth_mtu into the conflist when calico-node starts): changing the setting affects neither running
 * pods nor new pods until the node agent restarts, and running pods keep their MTU until recreated.
 */
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../cluster/cluster.ts';
import { apply, exec, pod, scenario } from '../../dataplane/network/test-helpers.ts';

const FLANNEL_MTU_1500 =
  '{"name":"cbr0","cniVersion":"0.3.1","plugins":[{"type":"flannel","delegate":{"hairpinMode":true,"isDefaultGateway":true,"mtu":1500}},{"type":"portmap","capabilities":{"portMappings":true}}]}';

function eth0Mtu(cluster: Cluster, name: string): string {
  return /\bmtu (\d+)\b/.exec(exec(cluster, name, 'ip link show eth0').stdout)?.[1] ?? '';
}

function restart(cluster: Cluster, ns: string, ds: string): void {
  expect(cluster.execSync(`kubectl -n ${ns} rollout restart daemonset/${ds}`).exitCode).toBe(0);
  cluster.settle();
  cluster.tick(120_000);
}

describe('pod MTU is set at CNI ADD', () => {
  it('flannel: a cni-conf.json change reaches new pods only after kube-flannel-ds restarts', () => {
    const cluster = scenario('flannel');
    expect(eth0Mtu(cluster, 'client')).toBe('1450');
    const cm = cluster.store.get('configmaps', 'kube-flannel', 'kube-flannel-cfg')!;
    cluster.api.update({ ...cm, data: { ...cm.data, 'cni-conf.json': FLANNEL_MTU_1500 } });
    apply(cluster, [pod('before-restart', 'kind-worker', 'busybox', {}, { command: ['sleep', '3600'] })]);
    expect(eth0Mtu(cluster, 'client')).toBe('1450');
    expect(eth0Mtu(cluster, 'before-restart')).toBe('1450');
    restart(cluster, 'kube-flannel', 'kube-flannel-ds');
    apply(cluster, [pod('after-restart', 'kind-worker', 'busybox', {}, { command: ['sleep', '3600'] })]);
    expect(eth0Mtu(cluster, 'after-restart')).toBe('1500');
    // Running pods keep the MTU of their own CNI ADD.
    expect(eth0Mtu(cluster, 'client')).toBe('1450');
    expect(eth0Mtu(cluster, 'before-restart')).toBe('1450');
    // flannel.1 is sized by flanneld from the node's interface, not from the delegate.
    cluster.execSync('kubectl debug node/kind-worker -it --image=nicolaka/netshoot', { interactive: true });
    const link = cluster.execSync('ip link show flannel.1', { interactive: true });
    cluster.execSync('exit', { interactive: true });
    expect(link.stdout + link.stderr).toMatch(/flannel\.1: .* mtu 1450 /);
  });

  it('calico: veth_mtu reaches new pods after calico-node restarts; old pods keep theirs', () => {
    const cluster = scenario('calico');
    expect(eth0Mtu(cluster, 'client')).toBe('1480');
    cluster.execSync('kubectl create configmap calico-config -n kube-system --from-literal=veth_mtu=1400');
    apply(cluster, [pod('before-restart', 'kind-worker', 'busybox', {}, { command: ['sleep', '3600'] })]);
    expect(eth0Mtu(cluster, 'before-restart')).toBe('1480');
    restart(cluster, 'kube-system', 'calico-node');
    apply(cluster, [pod('after-restart', 'kind-worker', 'busybox', {}, { command: ['sleep', '3600'] })]);
    expect(eth0Mtu(cluster, 'after-restart')).toBe('1400');
    expect(eth0Mtu(cluster, 'client')).toBe('1480');
  });
});
