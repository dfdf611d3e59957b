/**
 * OpenAPI as far as kubectl reads it. kubectl v1.35 asks `/openapi/v3` which group-versions have a
 * document, then reads one to learn whether the server validates fields itself (the `fieldValidation`
 * query parameter on PATCH, `QueryParamVerifierV3`): when it does, `--validate=strict` becomes
 * `?fieldValidation=Strict` and the engine's strict decoder answers. The documents list every path
 * the server serves for each resource with its group-version-kind.
 */
import { RESOURCES } from '../../../engine/index.ts';

type Info = (typeof RESOURCES)[number];

const QUERY = (name: string) => ({ name, in: 'query', schema: { type: 'string', uniqueItems: true } });
const WRITE_PARAMS = [QUERY('dryRun'), QUERY('fieldManager'), QUERY('fieldValidation'), QUERY('pretty')];

function gvk(info: Info) {
  return { group: info.group, version: info.version, kind: info.kind };
}

function prefixOf(info: Info): string {
  return info.group ? `/apis/${info.group}/${info.version}` : '/api/v1';
}

function pathsFor(info: Info): Record<string, object> {
  const base = prefixOf(info);
  const collection = info.namespaced
    ? `${base}/namespaces/{namespace}/${info.plural}`
    : `${base}/${info.plural}`;
  const op = (action: string, params: object[] = []) => ({
    operationId: `${action}${info.kind}`,
    parameters: params,
    responses: { '200': { description: 'OK' } },
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': gvk(info),
  });
  return {
    [collection]: { get: op('list'), post: op('post', WRITE_PARAMS), delete: op('deletecollection') },
    [`${collection}/{name}`]: {
      get: op('get'),
      put: op('put', WRITE_PARAMS),
      patch: op('patch', [...WRITE_PARAMS, QUERY('force')]),
      delete: op('delete', [QUERY('dryRun')]),
    },
  };
}

function groupVersions(): Map<string, Info[]> {
  const out = new Map<string, Info[]>();
  for (const info of RESOURCES) {
    const key = info.group ? `apis/${info.group}/${info.version}` : 'api/v1';
    const list = out.get(key) ?? [];
    list.push(info);
    out.set(key, list);
  }
  return out;
}

export function openApiV3Root(): object {
  const paths: Record<string, object> = {};
  for (const key of groupVersions().keys()) paths[key] = { serverRelativeURL: `/openapi/v3/${key}` };
  return { paths };
}

export function openApiV3Group(key: string): object | undefined {
  const infos = groupVersions().get(key);
  if (!infos) return undefined;
  const paths: Record<string, object> = {};
  for (const info of infos) Object.assign(paths, pathsFor(info));
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'v1.35.0' },
    paths,
    components: { schemas: {} },
  };
}

export function openApiV2(): object {
  const paths: Record<string, object> = {};
  for (const info of RESOURCES) Object.assign(paths, pathsFor(info));
  return { swagger: '2.0', info: { title: 'Kubernetes', version: 'v1.35.0' }, paths, definitions: {} };
}
