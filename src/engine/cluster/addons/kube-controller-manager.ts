/**
 * The ServiceAccounts kube-controller-manager creates in kube-system for itself. kubeadm and k3s both
 * run it with `--use-service-account-credentials`, so each controller, as it starts, gets its client
 * through `SAControllerClientBuilder`, which creates the controller's account if missing
 * (cmd/kube-controller-manager/app: each descriptor's `ClientBuilder.ClientOrDie("<name>")`). The set
 * is that of v1.35's on-by-default controllers plus kubeadm's `--controllers=*,bootstrapsigner,
 * tokencleaner`, as a kind v1.35 cluster lists them; k3s passes `--controllers=*,tokencleaner`, so it
 * has no bootstrap-signer.
 */
import type { Manifest } from '../../api/objects.ts';
import type { ClusterConfig } from '../../api/cluster-config.ts';

const CONTROLLER_ACCOUNTS = [
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

export function controllerServiceAccounts(config: ClusterConfig): Manifest[] {
  return CONTROLLER_ACCOUNTS.filter(
    (name) => config.distribution !== 'k3s' || name !== 'bootstrap-signer',
  ).map((name) => ({
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name, namespace: 'kube-system' },
  }));
}
