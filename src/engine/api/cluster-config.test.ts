import { describe, expect, it } from 'vitest';
import { ClusterConfigError, defaultClusterConfig, parseClusterConfig } from './cluster-config.ts';

describe('cluster config', () => {
  it('defaults to kubeadm + calico with a control plane and two workers named as kind names them', () => {
    const c = defaultClusterConfig();
    expect(c.distribution).toBe('kubeadm');
    expect(c.cni).toBe('calico');
    expect(c.nodes.map((n) => n.name)).toEqual(['kind-control-plane', 'kind-worker', 'kind-worker2']);
    expect(c.podSubnet).toBe('10.244.0.0/16');
    expect(c.serviceSubnet).toBe('10.96.0.0/12');
    expect(c.dnsIP).toBe('10.96.0.10');
    expect(c.maxPods).toBe(110);
    expect(c.kubeProxyMode).toBe('iptables');
  });

  it('reads kind v1alpha4 with our packetpath block; kind defaults the Service subnet to a /16', () => {
    const c = parseClusterConfig(`
kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
name: lab
nodes:
  - role: control-plane
  - role: worker
networking:
  kubeProxyMode: ipvs
packetpath:
  cni: flannel
`);
    expect(c.nodes.map((n) => n.name)).toEqual(['lab-control-plane', 'lab-worker']);
    expect(c.serviceSubnet).toBe('10.96.0.0/16');
    expect(c.kubeProxyMode).toBe('ipvs');
    expect(c.cni).toBe('flannel');
  });

  it('k3s uses its own ranges and flannel', () => {
    const c = parseClusterConfig(
      'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\npacketpath:\n  distribution: k3s\n',
    );
    expect([c.podSubnet, c.serviceSubnet, c.dnsIP, c.cni]).toEqual([
      '10.42.0.0/16',
      '10.43.0.0/16',
      '10.43.0.10',
      'flannel',
    ]);
    expect(c.nodes[0]!.name).toBe('k3s-server');
  });

  it('lets a lab shrink the per-node pod CIDR and raise maxPods (IPAM exhaustion labs)', () => {
    const c = parseClusterConfig(
      'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\npacketpath:\n  nodeCidrMaskSize: 28\n  maxPods: 250\n',
    );
    expect([c.nodeCidrMaskSize, c.maxPods]).toEqual([28, 250]);
  });

  it.each([
    [
      'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\npacketpath:\n  nodeCidrMaskSize: 8\n',
      /nodeCidrMaskSize/,
    ],
    ['kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha3\n', 'unknown apiVersion: kind.x-k8s.io/v1alpha3'],
    ['kind: Pod\napiVersion: kind.x-k8s.io/v1alpha4\n', 'unknown kind: Pod'],
    [
      'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnetworking:\n  kubeProxyMode: ebpf\n',
      /kubeProxyMode/,
    ],
    [
      'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnetworking:\n  podSubnet: 10.244.0.0\n',
      /not an IPv4 CIDR/,
    ],
    ['kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n  - role: worker\n', /control-plane/],
    ['a: [', /failed to parse/],
    ['a: &a [*a, *a]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n', /./],
  ])('rejects bad definitions: %j', (text, message) => {
    expect(() => parseClusterConfig(text)).toThrow(ClusterConfigError);
    expect(() => parseClusterConfig(text)).toThrow(message);
  });
});
