/**
 * The ConfigMaps a fresh cluster shows besides kube-root-ca.crt, CoreDNS's and kube-proxy's
 * (`kubectl get cm -A` on kind v1.35): kube-apiserver's extension-apiserver-authentication and
 * legacy-token tracking, kubeadm's kubeadm-config / kubelet-config / kube-public cluster-info, and
 * kind's local-path-config with the four keys of pkg/build/nodeimage/const_storage.go; on k3s the
 * API server's two and manifests/local-storage.yaml's local-path-config in kube-system.
 */
import { describe, expect, it } from 'vitest';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { makeCluster } from '../../controllers/test-helpers.ts';

const kind = 'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\n';

function decode(b64: string): string {
  return atob(b64.replace(/-/g, '+').replace(/_/g, '/'));
}

const bytes = (text: string) => new TextEncoder().encode(text);
const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
const b64url = (b: Uint8Array) =>
  btoa(String.fromCharCode(...b))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

describe('control-plane ConfigMaps', () => {
  it('kind: get cm -A lists what a fresh kind cluster lists', () => {
    const c = makeCluster(kind);
    const names = c.api.list('configmaps').map((cm) => `${cm.metadata.namespace} ${cm.metadata.name}`);
    expect(names.sort()).toEqual([
      'default kube-root-ca.crt',
      'kube-node-lease kube-root-ca.crt',
      'kube-public cluster-info',
      'kube-public kube-root-ca.crt',
      'kube-system coredns',
      'kube-system extension-apiserver-authentication',
      'kube-system kube-apiserver-legacy-service-account-token-tracking',
      'kube-system kube-proxy',
      'kube-system kube-root-ca.crt',
      'kube-system kubeadm-config',
      'kube-system kubelet-config',
      'local-path-storage kube-root-ca.crt',
      'local-path-storage local-path-config',
    ]);
  });

  it('kubeadm-config agrees with the cluster definition', () => {
    const c = makeCluster(`${kind}networking:\n  podSubnet: 10.200.0.0/16\n`);
    const cfg = c.api.get('configmaps', 'kube-system', 'kubeadm-config')!.data!;
    expect(Object.keys(cfg)).toEqual(['ClusterConfiguration']);
    const text = cfg['ClusterConfiguration']!;
    expect(text).toContain('apiVersion: kubeadm.k8s.io/v1beta4\n');
    expect(text).toContain('clusterName: kind\n');
    expect(text).toContain('controlPlaneEndpoint: kind-control-plane:6443\n');
    expect(text).toContain('kubernetesVersion: v1.35.0\n');
    expect(text).toContain(
      'networking:\n  dnsDomain: cluster.local\n  podSubnet: 10.200.0.0/16\n  serviceSubnet: 10.96.0.0/16\n',
    );
  });

  it("kubelet-config: clusterDNS, clusterDomain and kind's systemd cgroup driver", () => {
    const c = makeCluster(kind);
    const kubelet = c.api.get('configmaps', 'kube-system', 'kubelet-config')!.data!['kubelet']!;
    expect(kubelet).toMatch(/^apiVersion: kubelet\.config\.k8s\.io\/v1beta1\n/);
    expect(kubelet).toContain('cgroupDriver: systemd\n');
    expect(kubelet).toContain(`clusterDNS:\n- ${c.config.dnsIP}\nclusterDomain: cluster.local\n`);
    expect(kubelet).toContain('kind: KubeletConfiguration\n');
    // kubeadm's ChecksumForConfigMap: sha256 over the values in key order.
    expect(c.api.get('configmaps', 'kube-system', 'kubelet-config')!.metadata.annotations).toEqual({
      'kubeadm.kubernetes.io/component-config.hash': `sha256:${hex(sha256(bytes(kubelet)))}`,
    });
    expect(c.config.dnsIP).toBe('10.96.0.10');
  });

  it('cluster-info: a kubeconfig with the cluster CA and the control-plane endpoint, signed for token abcdef', () => {
    const c = makeCluster(kind);
    const info = c.api.get('configmaps', 'kube-public', 'cluster-info')!.data!;
    expect(Object.keys(info).sort()).toEqual(['jws-kubeconfig-abcdef', 'kubeconfig']);
    const ca = c.api.get('configmaps', 'kube-public', 'kube-root-ca.crt')!.data!['ca.crt']!;
    const m = /certificate-authority-data: (\S+)\n {4}server: https:\/\/kind-control-plane:6443\n/.exec(
      info['kubeconfig']!,
    );
    expect(m).not.toBeNull();
    expect(decode(m![1]!)).toBe(ca);
    const [header, payload, signature] = info['jws-kubeconfig-abcdef']!.split('.');
    expect(JSON.parse(decode(header!))).toEqual({ alg: 'HS256', kid: 'abcdef' });
    expect(payload).toBe('');
    // Verifies as the joining node checks it: HS256 keyed by the token secret over header.kubeconfig.
    expect(signature).toBe(
      b64url(
        hmac(sha256, bytes('0123456789abcdef'), bytes(`${header}.${b64url(bytes(info['kubeconfig']!))}`)),
      ),
    );
  });

  it('extension-apiserver-authentication: client CA, front-proxy CA and the request-header settings', () => {
    const c = makeCluster(kind);
    const auth = c.api.get('configmaps', 'kube-system', 'extension-apiserver-authentication')!.data!;
    expect(Object.keys(auth)).toEqual([
      'client-ca-file',
      'requestheader-allowed-names',
      'requestheader-client-ca-file',
      'requestheader-extra-headers-prefix',
      'requestheader-group-headers',
      'requestheader-username-headers',
    ]);
    expect(auth['client-ca-file']).toBe(
      c.api.get('configmaps', 'kube-system', 'kube-root-ca.crt')!.data!['ca.crt'],
    );
    expect(auth['requestheader-client-ca-file']).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
    expect(auth['requestheader-client-ca-file']).not.toBe(auth['client-ca-file']);
    // CN=front-proxy-ca, DER-encoded inside the PEM.
    const der = decode(auth['requestheader-client-ca-file']!.replace(/-----[A-Z ]+-----|\n/g, ''));
    expect(der).toContain('front-proxy-ca');
    expect(auth['requestheader-allowed-names']).toBe('["front-proxy-client"]');
    expect(auth['requestheader-username-headers']).toBe('["X-Remote-User"]');
    const since = c.api.get(
      'configmaps',
      'kube-system',
      'kube-apiserver-legacy-service-account-token-tracking',
    )!;
    expect(since.data).toEqual({ since: since.metadata.creationTimestamp!.slice(0, 10) });
  });

  it("kind's local-path-config: const_storage.go's four keys", () => {
    const c = makeCluster(kind);
    const data = c.api.get('configmaps', 'local-path-storage', 'local-path-config')!.data!;
    expect(Object.keys(data).sort()).toEqual(['config.json', 'helperPod.yaml', 'setup', 'teardown']);
    expect(data['setup']).toBe('#!/bin/sh\nset -eu\nmkdir -m 0777 -p "$VOL_DIR"');
    expect(data['teardown']).toBe('#!/bin/sh\nset -eu\nrm -rf "$VOL_DIR"');
    expect(data['helperPod.yaml']).toBe(
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: helper-pod\nspec:\n  containers:\n  - name: helper-pod\n    image: docker.io/kindest/local-path-helper:v20241212-8ac705d0\n    imagePullPolicy: IfNotPresent',
    );
  });

  it('the new objects take no draw from the cluster generator: the rest of the cluster is as before', () => {
    const c = makeCluster(kind);
    const uids = c.api.list('configmaps').map((cm) => cm.metadata.uid);
    expect(new Set(uids).size).toBe(uids.length);
    // Pinned from before these ConfigMaps existed (every other object's uid was unchanged too).
    expect(c.api.get('services', 'kube-system', 'kube-dns')!.metadata.uid).toBe(
      'e7ef026e-5e31-4bce-8d13-5672cfb55bc9',
    );
  });

  it("k3s: the API server's two ConfigMaps and local-path-config in kube-system, no kubeadm uploads", () => {
    const c = makeCluster(`${kind}packetpath:\n  distribution: k3s\n`);
    const names = c.api
      .list('configmaps', 'kube-system')
      .map((cm) => cm.metadata.name)
      .sort();
    expect(names).toContain('extension-apiserver-authentication');
    expect(names).toContain('kube-apiserver-legacy-service-account-token-tracking');
    expect(names).toContain('local-path-config');
    expect(names).not.toContain('kubeadm-config');
    expect(c.api.get('configmaps', 'kube-public', 'cluster-info')).toBeUndefined();
    const auth = c.api.get('configmaps', 'kube-system', 'extension-apiserver-authentication')!.data!;
    expect(auth['requestheader-allowed-names']).toBe('["system:auth-proxy"]');
    const der = decode(auth['client-ca-file']!.replace(/-----[A-Z ]+-----|\n/g, ''));
    expect(der).toMatch(/k3s-client-ca@\d+/);
    const lp = c.api.get('configmaps', 'kube-system', 'local-path-config')!.data!;
    expect(lp['config.json']).toContain('"paths":["/var/lib/rancher/k3s/storage"]');
    expect(lp['setup']).toBe('#!/bin/sh\nset -eu\nmkdir -m 0777 -p "${VOL_DIR}"\nchmod 700 "${VOL_DIR}/.."');
  });
});
