/**
 * What every namespace of a real cluster holds without anyone asking: the `default` ServiceAccount
 * (serviceaccounts_controller.go) and the `kube-root-ca.crt` ConfigMap (rootcacertpublisher/
 * publisher.go), both put back when deleted; and kube-system's per-controller ServiceAccounts of
 * kube-controller-manager `--use-service-account-credentials` (the set a kind v1.35 cluster lists).
 */
import { describe, expect, it } from 'vitest';
import { certificateNames } from '../dataplane/edge/certificate.ts';
import { base64Decode } from '../util/encoding.ts';
import { makeCluster } from './test-helpers.ts';

const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

const KUBEADM_CONTROLLER_SAS = [
  'attachdetach-controller',
  'bootstrap-signer',
  'certificate-controller',
  'clusterrole-aggregation-controller',
  'cronjob-controller',
  'daemon-set-controller',
  'deployment-controller',
  'device-taint-eviction-controller',
  'disruption-controller',
  'endpoint-controller',
  'endpointslice-controller',
  'endpointslicemirroring-controller',
  'ephemeral-volume-controller',
  'expand-controller',
  'generic-garbage-collector',
  'horizontal-pod-autoscaler',
  'job-controller',
  'legacy-service-account-token-cleaner',
  'namespace-controller',
  'node-controller',
  'persistent-volume-binder',
  'pod-garbage-collector',
  'pv-protection-controller',
  'pvc-protection-controller',
  'replicaset-controller',
  'replication-controller',
  'resource-claim-controller',
  'resourcequota-controller',
  'root-ca-cert-publisher',
  'service-account-controller',
  'service-cidrs-controller',
  'statefulset-controller',
  'token-cleaner',
  'ttl-after-finished-controller',
  'ttl-controller',
  'validatingadmissionpolicy-status-controller',
  'volumeattributesclass-protection-controller',
];

const K3S = 'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\npacketpath:\n  distribution: k3s\n';

describe('per-namespace objects', () => {
  it('every namespace has its default ServiceAccount and kube-root-ca.crt with the description', () => {
    const c = makeCluster();
    for (const ns of c.api.list('namespaces')) {
      const name = ns.metadata.name;
      expect(c.api.get('serviceaccounts', name, 'default'), name).toBeDefined();
      const cm = c.api.get('configmaps', name, 'kube-root-ca.crt');
      expect(cm?.metadata.annotations).toEqual({ 'kubernetes.io/description': DESCRIPTION });
      expect(Object.keys(cm?.data ?? {})).toEqual(['ca.crt']);
    }
  });

  it('the CA is kubeadm’s: one PEM certificate, CN=kubernetes, the same in every namespace', () => {
    const c = makeCluster();
    const pem = c.api.get('configmaps', 'default', 'kube-root-ca.crt')?.data?.['ca.crt'] ?? '';
    expect(pem).toMatch(
      /^-----BEGIN CERTIFICATE-----\n([A-Za-z0-9+/=]{64}\n)+[A-Za-z0-9+/=]{1,64}\n-----END CERTIFICATE-----\n$/,
    );
    const der = base64Decode(pem.split('\n').slice(1, -2).join(''));
    expect(der?.[0]).toBe(0x30);
    expect(certificateNames(btoa(pem))).toEqual({ subject: 'CN=kubernetes', issuer: 'CN=kubernetes' });
    expect(c.api.get('configmaps', 'kube-system', 'kube-root-ca.crt')?.data?.['ca.crt']).toBe(pem);
  });

  it('k3s: the server CA, CN=k3s-server-ca@<unix time>', () => {
    const c = makeCluster(K3S);
    const pem = c.api.get('configmaps', 'default', 'kube-root-ca.crt')?.data?.['ca.crt'] ?? '';
    expect(certificateNames(btoa(pem))?.subject).toMatch(/^CN=k3s-server-ca@\d{10}$/);
  });

  it('is deterministic from the seed', () => {
    const uids = (seed: number) => {
      const c = makeCluster(undefined, seed);
      return [
        c.api.get('serviceaccounts', 'default', 'default')?.metadata.uid,
        c.api.get('configmaps', 'default', 'kube-root-ca.crt')?.data?.['ca.crt'],
      ];
    };
    expect(uids(7)).toEqual(uids(7));
    expect(uids(7)[1]).not.toBe(uids(8)[1]);
  });

  it('a new namespace gets both; deleted ones come back, an edited CA is restored', () => {
    const c = makeCluster();
    expect(c.execSync('kubectl create ns demo').exitCode).toBe(0);
    expect(c.execSync('kubectl get sa,cm -n demo -o name').stdout).toBe(
      'serviceaccount/default\nconfigmap/kube-root-ca.crt\n',
    );
    const uid = c.api.get('serviceaccounts', 'demo', 'default')?.metadata.uid;
    c.execSync('kubectl delete sa default -n demo');
    const again = c.api.get('serviceaccounts', 'demo', 'default');
    expect(again?.metadata.uid).toBeDefined();
    expect(again?.metadata.uid).not.toBe(uid);
    const ca = c.api.get('configmaps', 'demo', 'kube-root-ca.crt')?.data?.['ca.crt'];
    c.execSync('kubectl delete cm kube-root-ca.crt -n demo');
    expect(c.api.get('configmaps', 'demo', 'kube-root-ca.crt')?.data?.['ca.crt']).toBe(ca);
    c.execSync(`kubectl patch cm kube-root-ca.crt -n demo -p '{"data":{"ca.crt":"x","extra":"y"}}'`);
    expect(c.api.get('configmaps', 'demo', 'kube-root-ca.crt')?.data).toEqual({ 'ca.crt': ca });
  });

  it('namespace deletion removes them and the namespace goes', () => {
    const c = makeCluster();
    c.execSync('kubectl create ns gone');
    expect(c.execSync('kubectl delete ns gone').exitCode).toBe(0);
    expect(c.api.get('namespaces', undefined, 'gone')).toBeUndefined();
    expect(c.api.list('serviceaccounts', 'gone')).toEqual([]);
    expect(c.api.list('configmaps', 'gone')).toEqual([]);
  });

  it('kube-system holds one ServiceAccount per kube-controller-manager controller', () => {
    const names = (c: ReturnType<typeof makeCluster>) =>
      c.api.list('serviceaccounts', 'kube-system').map((s) => s.metadata.name);
    const kubeadm = names(makeCluster());
    for (const sa of KUBEADM_CONTROLLER_SAS) expect(kubeadm).toContain(sa);
    const k3s = names(makeCluster(K3S));
    expect(k3s).not.toContain('bootstrap-signer');
    for (const sa of KUBEADM_CONTROLLER_SAS.filter((n) => n !== 'bootstrap-signer'))
      expect(k3s).toContain(sa);
  });
});
