/**
 * The mutating admission plugins kube-apiserver enables by default that change a new Pod
 * (k8s.io/kubernetes `plugin/pkg/admission/`): ServiceAccount (`serviceAccountName: default` and the
 * projected `kube-api-access-xxxxx` token volume mounted at /var/run/secrets/kubernetes.io/serviceaccount),
 * Priority (`priority: 0`, `preemptionPolicy: PreemptLowerPriority`, or the value of a system class)
 * and DefaultTolerationSeconds (NoExecute tolerations for not-ready/unreachable, 300 s). They run on
 * create only. A pod naming a ServiceAccount its namespace lacks is Forbidden, as the ServiceAccount
 * plugin's lookup fails; that is enforced once the namespace has its `default` ServiceAccount (the
 * serviceaccount controller makes it), since upstream waits for that one rather than fail and a
 * namespace here may not have it yet. The token is never read.
 */
import { forbidden as forbiddenError } from '../api/errors.ts';
import type { ApiStore } from '../api/store.ts';
import type { Rng } from '../util/rng.ts';
import { isPlainObject } from '../util/json.ts';

type Obj = Record<string, unknown>;

export const SERVICE_ACCOUNT_MOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

/** The built-in PriorityClasses every cluster has (`scheduling.k8s.io/v1` system classes). */
const SYSTEM_PRIORITY: Record<string, number> = {
  'system-node-critical': 2000001000,
  'system-cluster-critical': 2000000000,
};

export function admitPod(
  pod: { metadata: { name: string; namespace?: string; generateName?: string }; spec?: unknown },
  store: ApiStore,
  rng: Rng,
): void {
  const spec = (isPlainObject(pod.spec) ? pod.spec : (pod.spec = {})) as Obj;
  // admission.NewForbidden names a generateName pod by its prefix: upstream the name is drawn after
  // admission, here the decoder (or the controller) has drawn it already.
  const shownName = pod.metadata.generateName || pod.metadata.name;
  admitServiceAccount(pod.metadata.namespace ?? 'default', shownName, spec, store, rng);
  admitPriority(pod.metadata.name, spec);
  admitDefaultTolerations(spec);
}

function admitServiceAccount(namespace: string, podName: string, spec: Obj, store: ApiStore, rng: Rng): void {
  if (!spec.serviceAccountName)
    spec.serviceAccountName =
      typeof spec.serviceAccount === 'string' && spec.serviceAccount ? spec.serviceAccount : 'default';
  // The v1 conversion keeps the deprecated field in step with the real one.
  spec.serviceAccount = spec.serviceAccountName;
  const name = spec.serviceAccountName as string;
  const sa = store.get('serviceaccounts', namespace, name);
  if (!sa && store.get('serviceaccounts', namespace, 'default')) {
    throw forbiddenError(
      'pods',
      podName,
      `error looking up service account ${namespace}/${name}: serviceaccount "${name}" not found`,
    );
  }
  if (spec.automountServiceAccountToken === false) return;
  if (spec.automountServiceAccountToken === undefined && sa?.automountServiceAccountToken === false) return;
  const containers = [...list(spec.initContainers), ...list(spec.containers)];
  if (containers.some((c) => list(c.volumeMounts).some((m) => m.mountPath === SERVICE_ACCOUNT_MOUNT))) return;
  const volumeName = `kube-api-access-${rng.nameSuffix(5)}`;
  const volumes = Array.isArray(spec.volumes) ? spec.volumes : (spec.volumes = []);
  volumes.push({
    name: volumeName,
    projected: {
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' } },
        {
          downwardAPI: {
            items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }],
          },
        },
      ],
    },
  });
  for (const c of containers) {
    const mounts = Array.isArray(c.volumeMounts) ? c.volumeMounts : (c.volumeMounts = []);
    mounts.push({ mountPath: SERVICE_ACCOUNT_MOUNT, name: volumeName, readOnly: true });
  }
}

function admitPriority(name: string, spec: Obj): void {
  const className = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : '';
  if (className) {
    const value = SYSTEM_PRIORITY[className];
    if (value === undefined)
      throw forbiddenError('pods', name, `no PriorityClass with name ${className} was found`);
    spec.priority ??= value;
  } else spec.priority ??= 0;
  spec.preemptionPolicy ??= 'PreemptLowerPriority';
}

/** Adds the tolerations unless the pod already tolerates the taint (DefaultTolerationSeconds plugin). */
function admitDefaultTolerations(spec: Obj): void {
  const tolerations = list(spec.tolerations);
  const tolerates = (key: string) =>
    tolerations.some(
      (t) =>
        (t.effect === undefined || t.effect === '' || t.effect === 'NoExecute') &&
        (t.key === key || ((t.key === undefined || t.key === '') && t.operator === 'Exists')),
    );
  const added: Obj[] = [];
  for (const key of ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']) {
    if (!tolerates(key)) added.push({ effect: 'NoExecute', key, operator: 'Exists', tolerationSeconds: 300 });
  }
  if (added.length > 0)
    spec.tolerations = [...(Array.isArray(spec.tolerations) ? spec.tolerations : []), ...added];
}

function list(v: unknown): Obj[] {
  return Array.isArray(v) ? v.filter(isPlainObject) : [];
}
