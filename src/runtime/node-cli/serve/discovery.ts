/**
 * Discovery as kube-apiserver serves it: the legacy documents (`/api`, `/api/v1`, `/apis`,
 * `/apis/<group>`, `/apis/<group>/<version>`) and the aggregated v2 documents kubectl v1.35 asks for
 * first (`Accept: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`), both built
 * from the engine's resource table, with the verbs and subresources the server below answers.
 */
import { RESOURCES, apiVersionOf, KUBERNETES_VERSION } from '../../../engine/index.ts';

type Info = (typeof RESOURCES)[number];

export const AGGREGATED_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** Subresources per resource key, with the kind each returns and its verbs. */
const SUBRESOURCES: Record<
  string,
  readonly { name: string; kind?: readonly [string, string, string]; verbs: string[] }[]
> = {
  pods: [
    { name: 'log', verbs: ['get'] },
    { name: 'status', verbs: ['get', 'patch', 'update'] },
  ],
  services: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
  nodes: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
  namespaces: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
  'deployments.apps': [
    { name: 'scale', kind: ['autoscaling', 'v1', 'Scale'], verbs: ['get', 'patch', 'update'] },
    { name: 'status', verbs: ['get', 'patch', 'update'] },
  ],
  'replicasets.apps': [
    { name: 'scale', kind: ['autoscaling', 'v1', 'Scale'], verbs: ['get', 'patch', 'update'] },
    { name: 'status', verbs: ['get', 'patch', 'update'] },
  ],
  'daemonsets.apps': [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
};

export function subresourceVerbs(key: string, sub: string): readonly string[] | undefined {
  return SUBRESOURCES[key]?.find((s) => s.name === sub)?.verbs;
}

/** Group → versions, in the order the resource table lists them ('' is the core group). */
function groups(): Map<string, Map<string, Info[]>> {
  const out = new Map<string, Map<string, Info[]>>();
  for (const info of RESOURCES) {
    let versions = out.get(info.group);
    if (!versions) out.set(info.group, (versions = new Map()));
    let list = versions.get(info.version);
    if (!list) versions.set(info.version, (list = []));
    list.push(info);
  }
  return out;
}

export function versionInfo(): Record<string, string> {
  const [major, minor] = KUBERNETES_VERSION.replace(/^v/, '').split('.');
  return {
    major: major!,
    minor: minor!,
    emulationMajor: major!,
    emulationMinor: minor!,
    minCompatibilityMajor: major!,
    minCompatibilityMinor: String(Number(minor) - 1),
    gitVersion: KUBERNETES_VERSION,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2026-01-01T00:00:00Z',
    goVersion: 'go1.25.5',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

export function legacyApiVersions(serverAddress: string): object {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function apiGroup(name: string, versions: Map<string, Info[]>): object {
  const list = [...versions.keys()].map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
  return { name, versions: list, preferredVersion: list[0] };
}

export function apiGroupList(): object {
  const groupsList = [...groups()].filter(([g]) => g !== '').map(([g, v]) => apiGroup(g, v));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groupsList };
}

export function apiGroupDoc(group: string): object | undefined {
  const versions = groups().get(group);
  if (!versions || group === '') return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(group, versions) };
}

export function apiResourceList(group: string, version: string): object | undefined {
  const infos = groups().get(group)?.get(version);
  if (!infos) return undefined;
  const resources: object[] = [];
  for (const info of infos) {
    resources.push({
      name: info.plural,
      singularName: info.singular,
      namespaced: info.namespaced,
      kind: info.kind,
      verbs: VERBS,
      ...(info.shortNames.length ? { shortNames: info.shortNames } : {}),
      ...(info.categories.length ? { categories: info.categories } : {}),
    });
    for (const sub of SUBRESOURCES[info.key] ?? []) {
      resources.push({
        name: `${info.plural}/${sub.name}`,
        singularName: '',
        namespaced: info.namespaced,
        ...(sub.kind ? { group: sub.kind[0], version: sub.kind[1] } : {}),
        kind: sub.kind?.[2] ?? (sub.name === 'log' ? 'Pod' : info.kind),
        verbs: sub.verbs,
      });
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf(infos[0]!), resources };
}

function discoveryGroup(name: string, versions: Map<string, Info[]>): object {
  return {
    metadata: name === '' ? { creationTimestamp: null } : { name, creationTimestamp: null },
    versions: [...versions].map(([version, infos]) => ({
      version,
      resources: infos.map((info) => ({
        resource: info.plural,
        responseKind: { group: info.group, version, kind: info.kind },
        scope: info.namespaced ? 'Namespaced' : 'Cluster',
        singularResource: info.singular,
        verbs: VERBS,
        ...(info.shortNames.length ? { shortNames: info.shortNames } : {}),
        ...(info.categories.length ? { categories: info.categories } : {}),
        ...(SUBRESOURCES[info.key]
          ? {
              subresources: SUBRESOURCES[info.key]!.map((s) => ({
                subresource: s.name,
                responseKind: s.kind
                  ? { group: s.kind[0], version: s.kind[1], kind: s.kind[2] }
                  : { group: info.group, version, kind: s.name === 'log' ? 'Pod' : info.kind },
                verbs: s.verbs,
              })),
            }
          : {}),
      })),
      freshness: 'Current',
    })),
  };
}

/** The aggregated document for `/api` (core) or `/apis` (every named group). */
export function aggregatedDiscovery(core: boolean): object {
  const items = [...groups()].filter(([g]) => (g === '') === core).map(([g, v]) => discoveryGroup(g, v));
  return { kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items };
}

/** Whether the request's Accept header asks for the aggregated v2 form first. */
export function wantsAggregated(accept: string | undefined): boolean {
  const first = (accept ?? '').split(',')[0]!.replace(/\s+/g, '');
  return first.includes('as=APIGroupDiscoveryList') && first.includes('v=v2') && !first.includes('v=v2beta1');
}
