/**
 * The API's discovery data: which resources exist, their group/version/kind, short names and scope.
 * kubectl resolves what a learner types (`po`, `svc`, `deploy`, `netpol`, `pods.v1.`) through this
 * table, and `kubectl api-resources` prints it.
 */
import type { ResourceKey } from './objects.ts';

export interface ResourceInfo {
  /** Store key: plural, plus `.group` for non-core groups (`deployments.apps`). */
  readonly key: ResourceKey;
  readonly plural: string;
  readonly singular: string;
  readonly kind: string;
  readonly group: string;
  readonly version: string;
  readonly namespaced: boolean;
  readonly shortNames: readonly string[];
  /** `kubectl get all` includes resources in the `all` category. */
  readonly categories: readonly string[];
}

function r(
  plural: string,
  kind: string,
  group: string,
  version: string,
  namespaced: boolean,
  shortNames: string[] = [],
  categories: string[] = [],
): ResourceInfo {
  const key = (group ? `${plural}.${group}` : plural) as ResourceKey;
  return {
    key,
    plural,
    singular: kind.toLowerCase(),
    kind,
    group,
    version,
    namespaced,
    shortNames,
    categories,
  };
}

/** In `kubectl api-resources` order (core group first, then groups alphabetically as the server lists them). */
export const RESOURCES: readonly ResourceInfo[] = [
  r('configmaps', 'ConfigMap', '', 'v1', true, ['cm']),
  r('endpoints', 'Endpoints', '', 'v1', true, ['ep']),
  r('events', 'Event', '', 'v1', true, ['ev']),
  r('namespaces', 'Namespace', '', 'v1', false, ['ns']),
  r('nodes', 'Node', '', 'v1', false, ['no']),
  r('pods', 'Pod', '', 'v1', true, ['po'], ['all']),
  r('secrets', 'Secret', '', 'v1', true),
  r('serviceaccounts', 'ServiceAccount', '', 'v1', true, ['sa']),
  r('services', 'Service', '', 'v1', true, ['svc'], ['all']),
  r('daemonsets', 'DaemonSet', 'apps', 'v1', true, ['ds'], ['all']),
  r('deployments', 'Deployment', 'apps', 'v1', true, ['deploy'], ['all']),
  r('replicasets', 'ReplicaSet', 'apps', 'v1', true, ['rs'], ['all']),
  r('endpointslices', 'EndpointSlice', 'discovery.k8s.io', 'v1', true),
  r('gatewayclasses', 'GatewayClass', 'gateway.networking.k8s.io', 'v1', false, ['gc']),
  r('gateways', 'Gateway', 'gateway.networking.k8s.io', 'v1', true, ['gtw']),
  r('httproutes', 'HTTPRoute', 'gateway.networking.k8s.io', 'v1', true),
  r('referencegrants', 'ReferenceGrant', 'gateway.networking.k8s.io', 'v1beta1', true, ['refgrant']),
  r('ipaddresspools', 'IPAddressPool', 'metallb.io', 'v1beta1', true),
  r('l2advertisements', 'L2Advertisement', 'metallb.io', 'v1beta1', true),
  r('ingressclasses', 'IngressClass', 'networking.k8s.io', 'v1', false),
  r('ingresses', 'Ingress', 'networking.k8s.io', 'v1', true, ['ing']),
  r('networkpolicies', 'NetworkPolicy', 'networking.k8s.io', 'v1', true, ['netpol']),
];

/**
 * Built-in kinds of a v1.33 API server that this simulated cluster does not implement, by apiVersion
 * (group/version as served), with the names `kubectl get` accepts for them. A manifest or type
 * naming one gets an honest "not implemented here" error instead of the CRD hint meant for kinds
 * that do not exist at all.
 */
const UNSIMULATED: readonly {
  readonly apiVersions: readonly string[];
  readonly kind: string;
  readonly names: readonly string[];
}[] = [
  { apiVersions: ['v1'], kind: 'PersistentVolumeClaim', names: ['persistentvolumeclaims', 'pvc'] },
  { apiVersions: ['v1'], kind: 'PersistentVolume', names: ['persistentvolumes', 'pv'] },
  { apiVersions: ['v1'], kind: 'ReplicationController', names: ['replicationcontrollers', 'rc'] },
  { apiVersions: ['v1'], kind: 'LimitRange', names: ['limitranges', 'limits'] },
  { apiVersions: ['v1'], kind: 'ResourceQuota', names: ['resourcequotas', 'quota'] },
  { apiVersions: ['v1'], kind: 'PodTemplate', names: ['podtemplates'] },
  { apiVersions: ['apps/v1'], kind: 'StatefulSet', names: ['statefulsets', 'sts'] },
  { apiVersions: ['apps/v1'], kind: 'ControllerRevision', names: ['controllerrevisions'] },
  { apiVersions: ['batch/v1'], kind: 'Job', names: ['jobs'] },
  { apiVersions: ['batch/v1'], kind: 'CronJob', names: ['cronjobs', 'cj'] },
  {
    apiVersions: ['autoscaling/v1', 'autoscaling/v2'],
    kind: 'HorizontalPodAutoscaler',
    names: ['horizontalpodautoscalers', 'hpa'],
  },
  { apiVersions: ['policy/v1'], kind: 'PodDisruptionBudget', names: ['poddisruptionbudgets', 'pdb'] },
  { apiVersions: ['rbac.authorization.k8s.io/v1'], kind: 'Role', names: ['roles'] },
  { apiVersions: ['rbac.authorization.k8s.io/v1'], kind: 'RoleBinding', names: ['rolebindings'] },
  { apiVersions: ['rbac.authorization.k8s.io/v1'], kind: 'ClusterRole', names: ['clusterroles'] },
  {
    apiVersions: ['rbac.authorization.k8s.io/v1'],
    kind: 'ClusterRoleBinding',
    names: ['clusterrolebindings'],
  },
  { apiVersions: ['storage.k8s.io/v1'], kind: 'StorageClass', names: ['storageclasses', 'sc'] },
  { apiVersions: ['coordination.k8s.io/v1'], kind: 'Lease', names: ['leases'] },
  { apiVersions: ['scheduling.k8s.io/v1'], kind: 'PriorityClass', names: ['priorityclasses', 'pc'] },
  {
    apiVersions: ['apiextensions.k8s.io/v1'],
    kind: 'CustomResourceDefinition',
    names: ['customresourcedefinitions', 'crd', 'crds'],
  },
  { apiVersions: ['node.k8s.io/v1'], kind: 'RuntimeClass', names: ['runtimeclasses'] },
  {
    apiVersions: ['certificates.k8s.io/v1'],
    kind: 'CertificateSigningRequest',
    names: ['certificatesigningrequests', 'csr'],
  },
];

/** The one-line reason a built-in kind or resource type this cluster lacks cannot be used, if it is one. */
export function unsimulatedBuiltin(
  what: { apiVersion: string; kind: string } | { typed: string },
): string | undefined {
  const entry =
    'typed' in what
      ? UNSIMULATED.find((u) => {
          // `jobs`, `Job`, `jobs.batch`, `jobs.v1.batch`: a qualifier must name the kind's group.
          const [name = '', ...rest] = what.typed.toLowerCase().split('.');
          const qualifier = rest.join('.');
          const group = u.apiVersions[0]!.includes('/') ? u.apiVersions[0]!.split('/')[0]! : '';
          const named = u.names.includes(name) || u.kind.toLowerCase() === name;
          return named && (qualifier === '' || qualifier === group || qualifier.endsWith(`.${group}`));
        })
      : UNSIMULATED.find((u) => u.kind === what.kind && u.apiVersions.includes(what.apiVersion));
  if (!entry) return undefined;
  return `${entry.kind} (${entry.apiVersions.at(-1)!}) is a built-in Kubernetes kind that this simulated cluster does not implement`;
}

const BY_KEY = new Map(RESOURCES.map((info) => [info.key as string, info]));

export function resourceInfo(key: ResourceKey): ResourceInfo {
  const info = BY_KEY.get(key);
  if (!info) throw new Error(`unregistered resource ${key}`);
  return info;
}

export function apiVersionOf(info: ResourceInfo): string {
  return info.group ? `${info.group}/${info.version}` : info.version;
}

/**
 * Resolves what a user typed as a resource type, as kubectl's RESTMapper does: plural, singular,
 * short name or Kind (case-insensitive), optionally qualified by group (`deployments.apps`) or by
 * version and group (`deployments.v1.apps`).
 */
export function resolveResource(typed: string): ResourceInfo | undefined {
  const t = typed.toLowerCase();
  const dot = t.indexOf('.');
  const name = dot < 0 ? t : t.slice(0, dot);
  const qualifier = dot < 0 ? undefined : t.slice(dot + 1);
  const candidates = RESOURCES.filter(
    (info) =>
      info.plural === name ||
      info.singular === name ||
      info.kind.toLowerCase() === name ||
      info.shortNames.includes(name),
  );
  if (qualifier === undefined) return candidates[0];
  return candidates.find((info) => {
    const groupAndVersion = [`${info.version}.${info.group}`, info.group];
    return groupAndVersion.includes(qualifier) || (info.group === '' && qualifier === info.version);
  });
}

/** Finds the resource of a manifest's apiVersion + kind; undefined when the server has no such type. */
export function resourceForKind(apiVersion: string, kind: string): ResourceInfo | undefined {
  return RESOURCES.find((info) => info.kind === kind && apiVersionOf(info) === apiVersion);
}
