import { describe, expect, it } from 'vitest';
import { makeCluster } from './test-helpers.ts';

const config = (extra: string) => `kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\n${extra}`;
const shape = (name: string) =>
  name
    .replace(/-[bcdfghjklmnpqrstvwxz2456789]{5}$/, '-*')
    .replace(/-[bcdfghjklmnpqrstvwxz2456789]{6,10}-\*$/, '-*-*');

describe('bootstrap', () => {
  it.each([
    {
      name: 'kubeadm + calico',
      yaml: '',
      pods: [
        'kube-system/calico-kube-controllers-*-*',
        'kube-system/calico-node-*',
        'kube-system/coredns-*-*',
        'kube-system/etcd-kind-control-plane',
        'kube-system/kube-apiserver-kind-control-plane',
        'kube-system/kube-controller-manager-kind-control-plane',
        'kube-system/kube-proxy-*',
        'kube-system/kube-scheduler-kind-control-plane',
        'local-path-storage/local-path-provisioner-*-*',
      ],
    },
    {
      name: 'kubeadm + flannel',
      yaml: 'packetpath:\n  cni: flannel\n',
      pods: [
        'kube-flannel/kube-flannel-ds-*',
        'kube-system/coredns-*-*',
        'kube-system/etcd-kind-control-plane',
        'kube-system/kube-apiserver-kind-control-plane',
        'kube-system/kube-controller-manager-kind-control-plane',
        'kube-system/kube-proxy-*',
        'kube-system/kube-scheduler-kind-control-plane',
        'local-path-storage/local-path-provisioner-*-*',
      ],
    },
    {
      name: 'kubeadm + cilium without kube-proxy',
      yaml: 'networking:\n  kubeProxyMode: none\npacketpath:\n  cni: cilium\n',
      pods: [
        'kube-system/cilium-*',
        'kube-system/cilium-envoy-*',
        'kube-system/cilium-operator-*-*',
        'kube-system/coredns-*-*',
        'kube-system/etcd-kind-control-plane',
        'kube-system/kube-apiserver-kind-control-plane',
        'kube-system/kube-controller-manager-kind-control-plane',
        'kube-system/kube-scheduler-kind-control-plane',
        'local-path-storage/local-path-provisioner-*-*',
      ],
    },
    {
      name: 'k3s',
      yaml: 'packetpath:\n  distribution: k3s\n',
      pods: [
        'kube-system/coredns-*-*',
        'kube-system/local-path-provisioner-*-*',
        'kube-system/metrics-server-*-*',
        expect.stringMatching(/^kube-system\/svclb-traefik-[0-9a-f]{8}-\*$/),
        'kube-system/traefik-*-*',
      ],
    },
  ])('$name: the system pods a fresh cluster shows, all Running and ready', ({ yaml, pods }) => {
    const c = makeCluster(config(yaml));
    const all = c.api.list('pods');
    expect([...new Set(all.map((p) => `${p.metadata.namespace}/${shape(p.metadata.name)}`))].sort()).toEqual(
      pods,
    );
    for (const p of all) {
      expect(p.status?.phase, p.metadata.name).toBe('Running');
      expect(
        p.status?.containerStatuses?.every((s) => s.ready),
        p.metadata.name,
      ).toBe(true);
    }
    const dns = c.api.get('services', 'kube-system', 'kube-dns')!;
    expect(dns.spec?.clusterIP).toBe(c.config.dnsIP);
    expect(dns.spec?.ports?.map((p) => `${p.name}:${p.port}/${p.protocol}`)).toEqual([
      'dns:53/UDP',
      'dns-tcp:53/TCP',
      'metrics:9153/TCP',
    ]);
    expect(c.api.get('services', 'default', 'kubernetes')!.spec?.ports?.[0]).toMatchObject({
      port: 443,
      targetPort: 6443,
    });
  });

  it('kubeadm: two CoreDNS replicas on the control plane with pod IPs from its podCIDR; kube-proxy ConfigMap holds the mode', () => {
    const c = makeCluster(config('networking:\n  kubeProxyMode: ipvs\n'));
    const dns = c.api
      .list('pods', 'kube-system')
      .filter((p) => p.metadata.labels?.['k8s-app'] === 'kube-dns');
    expect(dns).toHaveLength(2);
    const cp = c.api.get('nodes', undefined, 'kind-control-plane')!;
    expect(cp.spec?.podCIDR).toBe('10.244.0.0/24');
    for (const p of dns) {
      expect(p.spec?.nodeName).toBe('kind-control-plane');
      expect(p.status?.podIP).toMatch(/^10\.244\.0\.\d+$/);
    }
    expect(c.api.get('configmaps', 'kube-system', 'kube-proxy')!.data?.['config.conf']).toContain(
      'mode: "ipvs"',
    );
    expect(c.api.get('configmaps', 'kube-system', 'coredns')!.data?.Corefile).toContain(
      'kubernetes cluster.local in-addr.arpa ip6.arpa {',
    );
    const apiserver = c.api.get('pods', 'kube-system', 'kube-apiserver-kind-control-plane')!;
    expect(apiserver.status?.podIP).toBe('172.18.0.2');
    expect(apiserver.spec?.containers[0]?.command).toContain('--service-cluster-ip-range=10.96.0.0/16');
  });

  it('nodes carry the kubelet registration fields', () => {
    const c = makeCluster();
    const n = c.api.get('nodes', undefined, 'kind-worker')!;
    expect(n.status?.nodeInfo).toMatchObject({
      kubeletVersion: 'v1.35.0',
      osImage: 'Debian GNU/Linux 12 (bookworm)',
    });
    expect(n.status?.nodeInfo?.containerRuntimeVersion).toMatch(/^containerd:\/\/2\.1\./);
    expect(n.status?.addresses).toEqual([
      { type: 'InternalIP', address: '172.18.0.3' },
      { type: 'Hostname', address: 'kind-worker' },
    ]);
    expect(n.status?.capacity?.pods).toBe('110');
    expect(n.metadata.labels).toMatchObject({
      'kubernetes.io/hostname': 'kind-worker',
      'kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
    });
    expect(c.api.get('nodes', undefined, 'kind-control-plane')!.spec?.taints).toEqual([
      { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
    ]);
  });

  it('is deterministic: the same seed builds the same cluster', () => {
    const a = makeCluster(undefined, 42).snapshot();
    const b = makeCluster(undefined, 42).snapshot();
    expect(JSON.stringify(a.store)).toBe(JSON.stringify(b.store));
  });
});
