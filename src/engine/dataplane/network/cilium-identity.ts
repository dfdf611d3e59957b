/**
 * Cilium's security identities: the label set the agent derives for a pod (its own labels without the
 * controllers' hashes, its namespace's labels, cluster and service account), and the numeric identity
 * allocated for that set. `cilium-dbg endpoint list` prints them; Cilium's VXLAN tunnel carries the
 * source's identity as the VNI (capture/legs.ts).
 */
import type { Pod } from '../../api/objects.ts';
import { fnv32a } from '../../util/rng.ts';
import type { DataplaneHost } from './view.ts';

/** Identity from the CRD allocator's range (256–65535), the same for the same label set. */
export function identityOf(labels: readonly string[]): number {
  return 256 + (fnv32a(labels.join(';')) % (65535 - 256));
}

/** The pod's security identity, which Cilium's VXLAN tunnel also carries as the VNI (capture/legs.ts). */
export function podSecurityIdentity(cluster: DataplaneHost, pod: Pod): number {
  return identityOf(securityLabels(cluster, pod));
}

export function securityLabels(cluster: DataplaneHost, pod: Pod): string[] {
  const ns = pod.metadata.namespace ?? 'default';
  const nsLabels = cluster.store.get('namespaces', undefined, ns)?.metadata.labels ?? {};
  const out = Object.entries(pod.metadata.labels ?? {})
    .filter(
      ([k]) =>
        k !== 'pod-template-hash' && k !== 'controller-revision-hash' && k !== 'pod-template-generation',
    )
    .map(([k, v]) => `k8s:${k}=${v}`);
  for (const [k, v] of Object.entries(nsLabels)) out.push(`k8s:io.cilium.k8s.namespace.labels.${k}=${v}`);
  out.push('k8s:io.cilium.k8s.policy.cluster=default');
  out.push(`k8s:io.cilium.k8s.policy.serviceaccount=${pod.spec?.serviceAccountName ?? 'default'}`);
  out.push(`k8s:io.kubernetes.pod.namespace=${ns}`);
  return out.sort();
}
