/**
 * kind's default CNI. Expected texts come from upstream and from real tools:
 *
 * - the conflist is kindnetd's cniConfigTemplate (kubernetes-sigs/kind images/kindnetd/cmd/kindnetd/
 *   cni.go at d2dcab96) rendered by Go's text/template, and the KIND-MASQ-AGENT rules are masq.go's
 *   SyncRules appended by Debian's iptables 1.8.9 and printed by iptables-save: both captured by
 *   scripts/capture-kindnet-goldens.sh into test/unit/testdata/kindnet/;
 * - the routes follow ptp (containernetworking/plugins v1.9.1 plugins/main/ptp/ptp.go:
 *   setupContainerVeth replaces the pod's subnet route with one via the gateway plus a link route to
 *   it; setupHostVeth puts the gateway /32 on the host veth and a host route to the pod) and
 *   kindnetd's syncRoute (cmd/kindnetd/routes.go: `podCIDR via nodeIP`, no overlay);
 * - the DaemonSet is const_cni.go's defaultCNIManifest (name kindnet, container kindnet-cni).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseClusterConfig } from '../../api/cluster-config.ts';
import { createCluster, type Cluster } from '../../cluster/cluster.ts';
import { apply, nodeShell, pod } from '../../dataplane/network/test-helpers.ts';
import { policyEnforcement } from '../../dataplane/policy/enforcement.ts';
import { kindnetConflist } from './kindnet.ts';

const golden = (name: string) =>
  readFileSync(new URL(`../../../../test/unit/testdata/kindnet/${name}`, import.meta.url), 'utf8');

const KIND = `kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
nodes:
- role: control-plane
- role: worker
- role: worker
packetpath:
  distribution: kind
`;

function kindCluster(): Cluster {
  const cluster = createCluster(KIND, { seed: 7 });
  cluster.settle();
  return cluster;
}

function run(cluster: Cluster, line: string): string {
  const r = cluster.execSync(line);
  return r.stdout + r.stderr;
}

describe('distribution: kind', () => {
  it('defaults a cluster file without a CNI to kindnet; the others stay selectable', () => {
    expect(parseClusterConfig(KIND).cni).toBe('kindnet');
    expect(parseClusterConfig(`${KIND}  cni: calico\n`).cni).toBe('calico');
    expect(parseClusterConfig(`${KIND}  cni: flannel\n`).cni).toBe('flannel');
    expect(() => parseClusterConfig(KIND.replace('kind\n', 'minikube\n'))).toThrow(
      'invalid packetpath.distribution: "minikube" (must be one of kubeadm, kind, k3s)',
    );
  });

  it('runs the kindnet DaemonSet of kind’s default CNI manifest', () => {
    const cluster = kindCluster();
    const ds = cluster.store.get('daemonsets.apps', 'kube-system', 'kindnet');
    const c = ds?.spec?.template.spec?.containers[0];
    expect(c?.name).toBe('kindnet-cni');
    expect(c?.image).toBe('docker.io/kindest/kindnetd:v20260820-69b56db7');
    expect(c?.env?.find((e) => e.name === 'POD_SUBNET')?.value).toBe('10.244.0.0/16');
    expect(ds?.spec?.template.spec?.hostNetwork).toBe(true);
    expect(run(cluster, 'kubectl get ds -n kube-system kindnet')).toMatch(/^kindnet\s+3\s+3\s+3\s+3\s+3\s/m);
    expect(cluster.store.get('daemonsets.apps', 'kube-system', 'calico-node')).toBeUndefined();
  });
});

describe('kindnet on a node', () => {
  it('writes 10-kindnet.conflist as kindnetd renders it (text/template golden)', () => {
    expect(kindnetConflist('10.244.1.0/24', 1500)).toBe(golden('10-kindnet.conflist'));
    const cluster = kindCluster();
    const podCIDR = cluster.store.get('nodes', undefined, 'kind-worker')?.spec?.podCIDR ?? '';
    const file = nodeShell(cluster, 'kind-worker', 'chroot /host cat /etc/cni/net.d/10-kindnet.conflist');
    expect(file).toBe(golden('10-kindnet.conflist').replace('10.244.1.0/24', podCIDR));
  });

  it('keeps KIND-MASQ-AGENT in nat POSTROUTING after kube-proxy’s jump (iptables-save golden)', () => {
    const cluster = kindCluster();
    const nat = nodeShell(cluster, 'kind-worker', 'chroot /host iptables-save -t nat');
    const lines = nat.split('\n');
    const expected = golden('kind-masq-agent.nat.txt').trimEnd().split('\n');
    for (const line of expected) expect(lines).toContain(line);
    expect(lines).toContain(':KIND-MASQ-AGENT - [0:0]');
    const postrouting = lines.filter((l) => l.startsWith('-A POSTROUTING'));
    expect(postrouting.at(-1)).toBe(expected[0]);
    expect(postrouting[0]).toContain('-j KUBE-POSTROUTING');
  });

  it('routes each remote podCIDR via its node, and each local pod by a host route (ptp)', () => {
    const cluster = kindCluster();
    apply(cluster, [pod('web', 'kind-worker', 'nicolaka/netshoot', {}, { command: ['sleep', 'infinity'] })]);
    const ip = cluster.store.get('pods', 'default', 'web')?.status?.podIP ?? '';
    const cidr = (n: string) => cluster.store.get('nodes', undefined, n)?.spec?.podCIDR ?? '';
    const gw = cidr('kind-worker').replace(/0\/24$/, '1');
    const routes = nodeShell(cluster, 'kind-worker', 'chroot /host ip route').split('\n');
    expect(routes[0]).toBe('default via 172.18.0.1 dev eth0 ');
    expect(routes).toContain(`${cidr('kind-control-plane')} via 172.18.0.2 dev eth0 `);
    expect(routes).toContain(`${cidr('kind-worker2')} via 172.18.0.4 dev eth0 `);
    expect(routes.some((r) => r.startsWith(`${cidr('kind-worker')} `))).toBe(false);
    expect(routes.find((r) => r.startsWith(`${ip} `))).toMatch(/^\S+ dev veth[0-9a-f]{8} scope host $/);
    expect(routes.join('\n')).not.toMatch(/flannel|tunl0|vxlan|cni0|bird/);
    expect(run(cluster, 'kubectl exec web -- ip route').split('\n')).toEqual([
      `default via ${gw} dev eth0 `,
      `${cidr('kind-worker')} via ${gw} dev eth0 src ${ip} `,
      `${gw} dev eth0 scope link src ${ip} `,
      '',
    ]);
    const addr = nodeShell(cluster, 'kind-worker', 'chroot /host ip addr');
    expect(addr).toContain(`inet ${gw}/32 scope global veth`);
  });

  it('enforces NetworkPolicy (kube-network-policies), unlike flannel', () => {
    expect(policyEnforcement(parseClusterConfig(KIND))).toEqual({
      enforced: true,
      reason: 'enforced-by-cni',
      enforcer: 'kindnet',
    });
    const cluster = kindCluster();
    apply(cluster, [
      pod('web', 'kind-worker2', 'nginx'),
      pod('client', 'kind-worker', 'busybox', {}, { command: ['sleep', '3600'] }),
    ]);
    const ip = cluster.store.get('pods', 'default', 'web')?.status?.podIP ?? '';
    const fetch = () => run(cluster, `kubectl exec client -- wget -qO- -T 2 http://${ip}/`);
    expect(fetch()).toContain('Welcome to nginx!');
    cluster.api.create({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'deny', namespace: 'default' },
      spec: { podSelector: { matchLabels: { run: 'web' } }, policyTypes: ['Ingress'] },
    });
    cluster.settle();
    expect(fetch()).toContain('download timed out');
  });
});
