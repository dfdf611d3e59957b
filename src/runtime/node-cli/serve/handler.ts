/**
 * The Kubernetes REST API over the engine's API server, as kube-apiserver's generic registry serves
 * it: paths `/api/v1[/namespaces/NS]/RESOURCE[/NAME[/SUBRESOURCE]]` and
 * `/apis/GROUP/VERSION/…`; lists, server-side Tables (`Accept: application/json;as=Table;v=v1;
 * g=meta.k8s.io`) built from kubectl's own printer columns, label and field selectors, create,
 * update, the four patch types, delete with propagationPolicy, the status and scale subresources.
 * Every failure is a metav1.Status. Watches are described here and streamed by the HTTP layer.
 *
 * This module knows nothing of HTTP or Node: it maps a parsed request to a reply.
 */
import { parse as parseYaml } from 'yaml';
import {
  RESOURCES,
  StatusError,
  apiVersionOf,
  sameObject,
  jsonPatch,
  matchesFields,
  mergePatch,
  parseSelector,
  PatchError,
  selectorMatches,
  serverFieldSelector,
  strategicMergePatch,
  tableFor,
  SelectorParseError,
  type AnyObject,
  type Pod,
  type ServedCluster,
  type DeleteOptions,
  type ResourceKey,
  type Selector,
  type WriteOptions,
} from '../../../engine/index.ts';
import {
  AGGREGATED_V2,
  aggregatedDiscovery,
  apiGroupDoc,
  apiGroupList,
  apiResourceList,
  legacyApiVersions,
  subresourceVerbs,
  versionInfo,
  wantsAggregated,
} from './discovery.ts';
import {
  badRequest,
  HttpStatus,
  methodNotAllowed,
  notFoundPath,
  toHttpStatus,
  type ErrorTarget,
} from './status.ts';
import { openApiV2, openApiV3Group, openApiV3Root } from './openapi.ts';
import { podLog, type LogFollow } from './pod-log.ts';

type Info = (typeof RESOURCES)[number];

export interface ApiRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly accept: string | undefined;
  readonly contentType: string | undefined;
  readonly body: string;
}

export type Reply =
  | {
      readonly kind: 'json';
      readonly status: number;
      readonly body: unknown;
      readonly contentType?: string;
      readonly warnings?: readonly string[];
    }
  | { readonly kind: 'text'; readonly status: number; readonly text: string; readonly contentType: string }
  | { readonly kind: 'watch'; readonly watch: WatchRequest }
  | { readonly kind: 'follow'; readonly follow: LogFollow };

/** What a watch streams: one resource, filtered, from a resourceVersion, as objects or Table rows. */
export interface WatchRequest {
  readonly info: Info;
  readonly namespace: string | undefined;
  readonly filter: (obj: AnyObject) => boolean;
  /** undefined or '0': start with ADDED for every current object ("get state and start at most recent"). */
  readonly resourceVersion: string | undefined;
  readonly sendInitialEvents: boolean;
  readonly table: TableShape | undefined;
  readonly timeoutSeconds: number;
}

export interface TableShape {
  readonly includeObject: 'None' | 'Metadata' | 'Object';
}

export interface ApiContext {
  readonly cluster: ServedCluster;
  /** `127.0.0.1:PORT`, for /api's serverAddressByClientCIDRs. */
  readonly serverAddress: string;
  /** Set when the request wrote to the store, so the host settles the controllers and saves. */
  wrote: boolean;
}

const TABLE_ACCEPT = /as=Table/;
const json = (body: unknown, status = 200, warnings?: readonly string[]): Reply => ({
  kind: 'json',
  status,
  body,
  ...(warnings && warnings.length > 0 ? { warnings } : {}),
});

/** The resource a URL names, found by group, version and plural. */
function findResource(group: string, version: string, plural: string): Info | undefined {
  return RESOURCES.find((r) => r.group === group && r.version === version && r.plural === plural);
}

interface ResourcePath {
  readonly info: Info;
  readonly namespace: string | undefined;
  readonly name: string | undefined;
  readonly subresource: string | undefined;
}

/** Splits `/api/v1/…` or `/apis/G/V/…` into the resource, namespace, name and subresource. */
function parseResourcePath(group: string, version: string, segs: readonly string[]): ResourcePath {
  let namespace: string | undefined;
  let rest = segs;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  if (rest.length === 0 || rest.length > 3) throw notFoundPath();
  const info = findResource(group, version, rest[0]!);
  if (!info) throw notFoundPath();
  if (namespace !== undefined && !info.namespaced) throw notFoundPath();
  const name = rest[1];
  const subresource = rest[2];
  if (name === '') throw notFoundPath();
  return { info, namespace, name, subresource };
}

export function handle(ctx: ApiContext, req: ApiRequest): Reply {
  let segs: string[];
  try {
    segs = req.path.split('/').slice(1).map(decodeURIComponent);
  } catch {
    throw badRequest(`malformed request path: ${req.path.slice(0, 200)}`);
  }
  if (segs.at(-1) === '' && segs.length > 1) segs.pop();
  const get = req.method === 'GET' || req.method === 'HEAD';
  switch (segs[0]) {
    case 'version':
      if (segs.length !== 1) throw notFoundPath();
      return json(versionInfo());
    case 'readyz':
    case 'livez':
    case 'healthz':
      return { kind: 'text', status: 200, text: 'ok', contentType: 'text/plain; charset=utf-8' };
    case 'openapi':
      if (!get) throw methodNotAllowed();
      if (segs[1] === 'v2' && segs.length === 2) return json(openApiV2());
      if (segs[1] === 'v3' && segs.length === 2) return json(openApiV3Root());
      if (segs[1] === 'v3') {
        const doc = openApiV3Group(segs.slice(2).join('/'));
        if (doc) return json(doc);
      }
      throw notFoundPath();
    case 'api':
      if (segs.length === 1) {
        if (!get) throw methodNotAllowed();
        if (wantsAggregated(req.accept))
          return { kind: 'json', status: 200, body: aggregatedDiscovery(true), contentType: AGGREGATED_V2 };
        return json(legacyApiVersions(ctx.serverAddress));
      }
      if (segs[1] !== 'v1') throw notFoundPath();
      if (segs.length === 2) {
        if (!get) throw methodNotAllowed();
        return json(apiResourceList('', 'v1'));
      }
      return resourceRequest(ctx, req, parseResourcePath('', 'v1', segs.slice(2)));
    case 'apis': {
      if (segs.length === 1) {
        if (!get) throw methodNotAllowed();
        if (wantsAggregated(req.accept))
          return { kind: 'json', status: 200, body: aggregatedDiscovery(false), contentType: AGGREGATED_V2 };
        return json(apiGroupList());
      }
      const group = segs[1]!;
      if (segs.length === 2) {
        const doc = apiGroupDoc(group);
        if (!doc) throw notFoundPath();
        if (!get) throw methodNotAllowed();
        return json(doc);
      }
      const version = segs[2]!;
      if (segs.length === 3) {
        const doc = apiResourceList(group, version);
        if (!doc) throw notFoundPath();
        if (!get) throw methodNotAllowed();
        return json(doc);
      }
      if (
        group === ACCESS_REVIEW.group &&
        version === 'v1' &&
        segs[3] === ACCESS_REVIEW.plural &&
        segs.length === 4
      )
        return accessReview(req);
      return resourceRequest(ctx, req, parseResourcePath(group, version, segs.slice(3)));
    }
    default:
      throw notFoundPath();
  }
}

function target(p: ResourcePath, name = p.name): ErrorTarget {
  return { resource: p.info.plural, group: p.info.group, ...(name !== undefined ? { name } : {}) };
}

function resourceRequest(ctx: ApiContext, req: ApiRequest, p: ResourcePath): Reply {
  try {
    if (p.subresource !== undefined) return subresourceRequest(ctx, req, p);
    if (p.name === undefined) {
      if (req.method === 'GET' || req.method === 'HEAD') return listOrWatch(ctx, req, p);
      if (req.method === 'POST') return create(ctx, req, p);
      if (req.method === 'DELETE') return deleteCollection(ctx, req, p);
      throw methodNotAllowed();
    }
    if (req.method === 'GET' || req.method === 'HEAD') return getOne(ctx, req, p);
    if (req.method === 'PUT') return update(ctx, req, p);
    if (req.method === 'PATCH') return patch(ctx, req, p);
    if (req.method === 'DELETE') return deleteOne(ctx, req, p);
    throw methodNotAllowed();
  } catch (e) {
    throw toHttpStatus(e, target(p));
  }
}

function stored(ctx: ApiContext, p: ResourcePath): AnyObject {
  const obj = ctx.cluster.api.get(p.info.key as ResourceKey, p.namespace, p.name!) as AnyObject | undefined;
  if (!obj) throw new StatusError('NotFound', `${p.info.key} "${p.name}" not found`);
  return obj;
}

// ---- reads ---------------------------------------------------------------------------------------

function selectorsOf(req: ApiRequest, info: Info): (obj: AnyObject) => boolean {
  let labels: Selector = [];
  const labelText = req.query.get('labelSelector') ?? '';
  try {
    labels = parseSelector(labelText);
  } catch (e) {
    if (e instanceof SelectorParseError) throw badRequest(`unable to parse requirement: ${e.message}`);
    throw badRequest(String(e));
  }
  const fields = serverFieldSelector(info, req.query.get('fieldSelector') ?? '');
  return (obj) => selectorMatches(labels, obj.metadata.labels) && matchesFields(fields, obj);
}

function withType(info: Info, obj: AnyObject): AnyObject {
  return obj.kind ? obj : ({ ...obj, apiVersion: apiVersionOf(info), kind: info.kind } as AnyObject);
}

function tableShape(req: ApiRequest): TableShape | undefined {
  if (!TABLE_ACCEPT.test(req.accept ?? '')) return undefined;
  const include = req.query.get('includeObject') ?? 'Metadata';
  if (include !== 'None' && include !== 'Metadata' && include !== 'Object')
    throw badRequest(`unrecognized includeObject value: "${include}"`);
  return { includeObject: include };
}

/** The server-side Table of objects, with kubectl's printer columns for the resource. */
export function toTable(
  cluster: ServedCluster,
  info: Info,
  objects: readonly AnyObject[],
  shape: TableShape,
  opts: { resourceVersion?: string; headers?: boolean } = {},
): object {
  const def = tableFor(info.key as ResourceKey);
  const ctx = { now: cluster.now(), wide: true };
  const rows = objects.map((obj) => {
    const cells = def.row(obj, ctx).map((c) => (c === undefined ? '' : c));
    const object =
      shape.includeObject === 'Object'
        ? withType(info, obj)
        : shape.includeObject === 'Metadata'
          ? { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata }
          : undefined;
    return { cells, ...(object ? { object } : {}) };
  });
  const sample = rows[0]?.cells;
  const columnDefinitions =
    opts.headers === false
      ? []
      : def.columns.map((c, i) => ({
          name: c.name,
          type: typeof sample?.[i] === 'number' ? 'integer' : 'string',
          format: i === 0 ? 'name' : '',
          description: '',
          priority: c.wide ? 1 : 0,
        }));
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { resourceVersion: opts.resourceVersion ?? String(cluster.resourceVersion) },
    columnDefinitions,
    rows,
  };
}

function getOne(ctx: ApiContext, req: ApiRequest, p: ResourcePath): Reply {
  const obj = stored(ctx, p);
  const shape = tableShape(req);
  if (shape) return json(toTable(ctx.cluster, p.info, [obj], shape));
  return json(withType(p.info, obj));
}

function listOrWatch(ctx: ApiContext, req: ApiRequest, p: ResourcePath): Reply {
  const filter = selectorsOf(req, p.info);
  const shape = tableShape(req);
  const watch = req.query.get('watch');
  if (watch === 'true' || watch === '1') {
    const timeout = Number(req.query.get('timeoutSeconds') ?? '1800');
    if (!Number.isFinite(timeout) || timeout < 0) throw badRequest('invalid timeoutSeconds');
    const rv = req.query.get('resourceVersion') ?? undefined;
    if (rv !== undefined && rv !== '' && !/^\d+$/.test(rv))
      throw badRequest(`invalid resource version: ${rv}`);
    return {
      kind: 'watch',
      watch: {
        info: p.info,
        namespace: p.namespace,
        filter,
        resourceVersion: rv === '' ? undefined : rv,
        sendInitialEvents: req.query.get('sendInitialEvents') === 'true',
        table: shape,
        timeoutSeconds: Math.min(timeout || 1800, 1800),
      },
    };
  }
  const items = listObjects(ctx.cluster, p.info, p.namespace).filter(filter);
  const resourceVersion = String(ctx.cluster.resourceVersion);
  if (shape) return json(toTable(ctx.cluster, p.info, items, shape, { resourceVersion }));
  return json({
    kind: `${p.info.kind}List`,
    apiVersion: apiVersionOf(p.info),
    metadata: { resourceVersion },
    items: items.map((o) => withType(p.info, o)),
  });
}

export function listObjects(cluster: ServedCluster, info: Info, namespace: string | undefined): AnyObject[] {
  return cluster.api.list(info.key as ResourceKey, namespace) as AnyObject[];
}

// ---- writes --------------------------------------------------------------------------------------

function parseBody(req: ApiRequest): Record<string, unknown> {
  let value: unknown;
  const yaml = /yaml/.test(req.contentType ?? '');
  try {
    value = yaml ? parseYaml(req.body, { maxAliasCount: 100 }) : JSON.parse(req.body);
  } catch (e) {
    throw badRequest(
      `the body of the request was in an unknown format: ${(e as Error).message.split('\n')[0]}`,
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw badRequest(
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml',
    );
  return value as Record<string, unknown>;
}

function writeOptions(req: ApiRequest, warnings: string[]): WriteOptions {
  const fv = req.query.get('fieldValidation') ?? 'Warn';
  if (fv !== 'Strict' && fv !== 'Warn' && fv !== 'Ignore')
    throw badRequest(`fieldValidation must be one of "Ignore", "Warn", or "Strict", got "${fv}"`);
  const dryRun = req.query.getAll('dryRun');
  if (dryRun.some((d) => d !== 'All')) throw badRequest(`Invalid dry run value: ${dryRun.join(',')}`);
  return { fieldValidation: fv, dryRun: dryRun.length > 0, warnings };
}

function checkScope(p: ResourcePath, body: Record<string, unknown>): Record<string, unknown> {
  const meta = (body.metadata ?? {}) as Record<string, unknown>;
  if (typeof body.metadata !== 'object' || body.metadata === null) body.metadata = meta;
  if (p.info.namespaced && p.namespace !== undefined) {
    if (meta.namespace === undefined || meta.namespace === '') meta.namespace = p.namespace;
    else if (meta.namespace !== p.namespace)
      throw badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
  }
  if (p.name !== undefined && meta.name !== undefined && meta.name !== p.name)
    throw badRequest(
      `the name of the object (${String(meta.name)}) does not match the name on the URL (${p.name})`,
    );
  if (p.name !== undefined && meta.name === undefined) meta.name = p.name;
  body.apiVersion ??= apiVersionOf(p.info);
  body.kind ??= p.info.kind;
  if (body.kind !== p.info.kind || body.apiVersion !== apiVersionOf(p.info))
    throw badRequest(
      `the API version in the data (${String(body.apiVersion)}) does not match the expected API version (${apiVersionOf(p.info)})`,
    );
  return body;
}

function create(ctx: ApiContext, req: ApiRequest, p: ResourcePath): Reply {
  const warnings: string[] = [];
  const body = checkScope(p, parseBody(req));
  const opts = writeOptions(req, warnings);
  const name = (body.metadata as { name?: unknown }).name;
  try {
    const created = ctx.cluster.api.create(body, opts);
    ctx.wrote ||= !opts.dryRun;
    return json(withType(p.info, created), 201, warnings);
  } catch (e) {
    throw toHttpStatus(e, target(p, typeof name === 'string' ? name : undefined));
  }
}

function update(ctx: ApiContext, req: ApiRequest, p: ResourcePath): Reply {
  const warnings: string[] = [];
  const body = checkScope(p, parseBody(req));
  const opts = writeOptions(req, warnings);
  if (!ctx.cluster.api.get(p.info.key as ResourceKey, p.namespace, p.name!)) {
    // PUT creates when the object is missing (AllowCreateOnUpdate is false for most kinds: NotFound).
    throw new StatusError('NotFound', `${p.info.key} "${p.name}" not found`);
  }
  const updated = ctx.cluster.api.update(body, opts);
  ctx.wrote ||= !opts.dryRun;
  return json(withType(p.info, updated), 200, warnings);
}

const CUSTOM_GROUPS = new Set(['gateway.networking.k8s.io', 'metallb.io']);

/** The patched object, by the request's patch type (apiserver handlers/patch.go). */
function patched(req: ApiRequest, p: ResourcePath, cur: Record<string, unknown>): Record<string, unknown> {
  const type = (req.contentType ?? '').split(';')[0]!.trim();
  try {
    switch (type) {
      case 'application/json-patch+json': {
        let ops: unknown;
        try {
          ops = JSON.parse(req.body);
        } catch (e) {
          throw badRequest(`the body of the request was in an unknown format: ${(e as Error).message}`);
        }
        return jsonPatch(cur, ops) as Record<string, unknown>;
      }
      case 'application/merge-patch+json':
        return mergePatch(cur, parseBody(req)) as Record<string, unknown>;
      case 'application/strategic-merge-patch+json':
        if (CUSTOM_GROUPS.has(p.info.group)) throw unsupportedPatch(type);
        return strategicMergePatch(cur, parseBody(req));
      case 'application/apply-patch+yaml':
      case 'application/apply-patch+cbor':
        // Server-side apply without field ownership: the applied configuration merges into the live
        // object (fields it leaves out are kept). Conflicts between managers are not tracked.
        return (CUSTOM_GROUPS.has(p.info.group) ? mergePatch : strategicMergePatch)(
          cur,
          parseBody({ ...req, contentType: 'application/yaml' }),
        ) as Record<string, unknown>;
      default:
        throw unsupportedPatch(type);
    }
  } catch (e) {
    if (!(e instanceof PatchError)) throw e;
    if (e.conflict) throw new StatusError('Conflict', e.message);
    // apiserver's NewGenericServerResponse(422): a generic message and empty details; json-patch's
    // own text is dropped (a real 422 body: ansible-collections/kubernetes.core#648).
    throw new HttpStatus(
      422,
      'Invalid',
      'the server rejected our request due to an error in our request',
      {},
    );
  }
}

function unsupportedPatch(type: string): HttpStatus {
  return new HttpStatus(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml${type === 'application/strategic-merge-patch+json' ? '' : ', application/strategic-merge-patch+json'}`,
  );
}

function patch(ctx: ApiContext, req: ApiRequest, p: ResourcePath): Reply {
  const warnings: string[] = [];
  const opts = writeOptions(req, warnings);
  const applying = (req.contentType ?? '').startsWith('application/apply-patch');
  const current = ctx.cluster.api.get(p.info.key as ResourceKey, p.namespace, p.name!) as
    | AnyObject
    | undefined;
  if (!current) {
    if (!applying) throw new StatusError('NotFound', `${p.info.key} "${p.name}" not found`);
    const body = checkScope(p, parseBody({ ...req, contentType: 'application/yaml' }));
    const created = ctx.cluster.api.create(body, opts);
    ctx.wrote ||= !opts.dryRun;
    return json(withType(p.info, created), 201, warnings);
  }
  let next = patched(req, p, { ...current });
  // The main resource ignores .status: the stored one stays.
  if (current.status !== undefined) next = { ...next, status: current.status };
  next = checkScope(p, next);
  const decoded = ctx.cluster.api.update(next, { ...opts, dryRun: true });
  if (sameObject(decoded, current) || opts.dryRun)
    return json(withType(p.info, opts.dryRun ? decoded : current), 200, warnings);
  const updated = ctx.cluster.api.update(next, { ...opts, warnings: [] });
  ctx.wrote = true;
  return json(withType(p.info, updated), 200, warnings);
}

function deleteOptions(req: ApiRequest): DeleteOptions {
  let body: Record<string, unknown> = {};
  if (req.body.trim() !== '') body = parseBody(req);
  const policy = req.query.get('propagationPolicy') ?? body.propagationPolicy;
  if (policy !== undefined && policy !== 'Background' && policy !== 'Orphan' && policy !== 'Foreground')
    throw new HttpStatus(
      422,
      'Invalid',
      `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "${String(policy)}": supported values: "Foreground", "Background", "Orphan", "nil"`,
    );
  const graceText = req.query.get('gracePeriodSeconds') ?? body.gracePeriodSeconds;
  const grace = graceText === undefined ? undefined : Number(graceText);
  if (grace !== undefined && !Number.isInteger(grace)) throw badRequest('invalid gracePeriodSeconds');
  const dryRun = [
    ...req.query.getAll('dryRun'),
    ...((Array.isArray(body.dryRun) ? body.dryRun : []) as string[]),
  ];
  return {
    ...(policy !== undefined ? { propagationPolicy: policy } : {}),
    ...(grace !== undefined ? { gracePeriodSeconds: Math.max(0, grace) } : {}),
    dryRun: dryRun.includes('All'),
  };
}

function deleteOne(ctx: ApiContext, req: ApiRequest, p: ResourcePath): Reply {
  const opts = deleteOptions(req);
  const existing = stored(ctx, p);
  const result = ctx.cluster.api.delete(p.info.key as ResourceKey, p.namespace, p.name!, opts);
  ctx.wrote ||= !opts.dryRun;
  const still = ctx.cluster.api.get(p.info.key as ResourceKey, p.namespace, p.name!) as AnyObject | undefined;
  // A graceful deletion answers with the object (deletionTimestamp set); an immediate one with Status.
  if (still || opts.dryRun) return json(withType(p.info, still ?? result));
  return json({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: {
      name: p.name,
      ...(p.info.group ? { group: p.info.group } : {}),
      kind: p.info.plural,
      uid: existing.metadata.uid,
    },
  });
}

function deleteCollection(ctx: ApiContext, req: ApiRequest, p: ResourcePath): Reply {
  const opts = deleteOptions(req);
  const filter = selectorsOf(req, p.info);
  const items = listObjects(ctx.cluster, p.info, p.namespace).filter(filter);
  const out: AnyObject[] = [];
  for (const obj of items) {
    out.push(
      ctx.cluster.api.delete(p.info.key as ResourceKey, obj.metadata.namespace, obj.metadata.name, opts),
    );
  }
  ctx.wrote ||= !opts.dryRun && items.length > 0;
  return json({
    kind: `${p.info.kind}List`,
    apiVersion: apiVersionOf(p.info),
    metadata: { resourceVersion: String(ctx.cluster.resourceVersion) },
    items: out.map((o) => withType(p.info, o)),
  });
}

// ---- subresources --------------------------------------------------------------------------------

function scaleOf(obj: AnyObject): { spec: { replicas: number } } & Record<string, unknown> {
  const spec = (obj as { spec?: { replicas?: number; selector?: { matchLabels?: Record<string, string> } } })
    .spec;
  const status = (obj as { status?: { replicas?: number } }).status;
  const labels = spec?.selector?.matchLabels ?? {};
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: obj.metadata.name,
      namespace: obj.metadata.namespace,
      uid: obj.metadata.uid,
      resourceVersion: obj.metadata.resourceVersion,
      creationTimestamp: obj.metadata.creationTimestamp,
    },
    spec: { replicas: spec?.replicas ?? 0 },
    status: {
      replicas: status?.replicas ?? 0,
      selector: Object.entries(labels)
        .map(([k, v]) => `${k}=${v}`)
        .join(','),
    },
  };
}

function subresourceRequest(ctx: ApiContext, req: ApiRequest, p: ResourcePath): Reply {
  const sub = p.subresource!;
  const verbs = subresourceVerbs(p.info.key, sub);
  if (!verbs) throw notFoundPath();
  const verb = { GET: 'get', HEAD: 'get', PUT: 'update', PATCH: 'patch' }[req.method];
  if (!verb || !verbs.includes(verb)) throw methodNotAllowed();
  const current = stored(ctx, p);
  if (sub === 'log') return podLog(ctx, req, current);
  if (sub === 'status') {
    if (verb === 'get') return json(withType(p.info, current));
    const next = verb === 'update' ? checkScope(p, parseBody(req)) : patched(req, p, { ...current });
    const updated = ctx.cluster.api.updateStatus({ ...current, status: next.status } as AnyObject);
    ctx.wrote = true;
    return json(withType(p.info, updated));
  }
  // scale
  const scale = scaleOf(current);
  if (verb === 'get') return json(scale);
  const body = verb === 'update' ? parseBody(req) : patched(req, p, scale);
  const replicas = (body.spec as { replicas?: unknown } | undefined)?.replicas;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas))
    throw new HttpStatus(
      422,
      'Invalid',
      `Scale.autoscaling "${p.name}" is invalid: spec.replicas: Invalid value: ${JSON.stringify(replicas ?? null)}: must be an integer`,
    );
  if (replicas === scale.spec.replicas) return json(scale);
  const next = { ...current, spec: { ...(current as { spec?: object }).spec, replicas } };
  const updated = ctx.cluster.api.update(next, {});
  ctx.wrote = true;
  return json(scaleOf(updated));
}

/** RFC3339Nano, as the kubelet prefixes lines with `timestamps=true`. */
/**
 * SelfSubjectAccessReview (`kubectl auth can-i`): a create-only review the server answers, not an
 * object the engine stores. It is left out of discovery, as the engine's resource table (and so our
 * own `kubectl api-resources`) does not list it; kubectl posts the review without looking it up.
 */
const ACCESS_REVIEW = {
  group: 'authorization.k8s.io',
  plural: 'selfsubjectaccessreviews',
  kind: 'SelfSubjectAccessReview',
};

/** POST selfsubjectaccessreviews: the admin's client certificate (system:masters) may do anything. */
function accessReview(req: ApiRequest): Reply {
  if (req.method !== 'POST') throw methodNotAllowed();
  const body = parseBody(req);
  if (body.kind !== ACCESS_REVIEW.kind)
    throw badRequest(`expected a ${ACCESS_REVIEW.kind}, got ${String(body.kind)}`);
  return json(
    {
      ...body,
      apiVersion: 'authorization.k8s.io/v1',
      kind: ACCESS_REVIEW.kind,
      metadata: { creationTimestamp: null },
      status: { allowed: true, reason: '' },
    },
    201,
  );
}
