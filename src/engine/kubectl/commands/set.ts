/**
 * `kubectl set image|env|selector|resources|serviceaccount|subject` (pkg/cmd/set): change the pod
 * template (or a Service's selector) of each object, send the change as a patch, print
 * `deployment.apps/web image updated`. As upstream: an object the change leaves as it was prints
 * nothing (set serviceaccount excepted); resources come before the
 * `NAME=VALUE` pairs (`GetResourcesAndPairs`); `-c` takes a glob; `--dry-run=client`/`--local` print
 * the changed object without sending it.
 */
import type { AnyObject, Manifest } from '../../api/objects.ts';
import { deepClone, isPlainObject, jsonEqual } from '../../util/json.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError, KubectlError } from '../errors.ts';
import type { Fetched } from '../resource-args.ts';
import { kindPrefix } from '../resource-args.ts';
import { reportErrors } from './create.ts';
import { localTargets, NO_RESOURCES, visitTargets } from './targets.ts';

const LOCAL_NEEDS_FILES = `error: you must specify resources by --filename when --local is set.
Example resource specifications include:
   '-f rsrc.yaml'
   '--filename=rsrc.json'`;
import { dryRunMode, printOutcome, printWarnings, type DryRun } from './write.ts';

type Obj = Record<string, unknown>;

/** `GetResourcesAndPairs`: resource words first, then `K=V` / `K-` pairs. */
function resourcesAndPairs(
  args: readonly string[],
  pairType: string,
): { resources: string[]; pairs: string[] } {
  const resources: string[] = [];
  const pairs: string[] = [];
  for (const s of args) {
    const pair = (s.includes('=') && !s.startsWith('=')) || (s.endsWith('-') && s !== '-');
    if (pair) pairs.push(s);
    else if (pairs.length > 0)
      throw cmdError(`all resources must be specified before ${pairType} changes: ${s}`);
    else resources.push(s);
  }
  return { resources, pairs };
}

/** The pod spec inside an object (polymorphichelpers `updatePodSpecForObject`), or undefined. */
function podSpecOf(obj: Obj): Obj | undefined {
  const at = (o: unknown, ...path: string[]): unknown =>
    path.reduce<unknown>((cur, k) => (isPlainObject(cur) ? cur[k] : undefined), o);
  switch (obj.kind) {
    case 'Pod':
      return at(obj, 'spec') as Obj | undefined;
    case 'Deployment':
    case 'ReplicaSet':
    case 'DaemonSet':
    case 'StatefulSet':
    case 'Job':
    case 'ReplicationController':
      return at(obj, 'spec', 'template', 'spec') as Obj | undefined;
    case 'CronJob':
      return at(obj, 'spec', 'jobTemplate', 'spec', 'template', 'spec') as Obj | undefined;
    default:
      return undefined;
  }
}

function containersOf(spec: Obj, kinds: readonly string[]): Obj[] {
  return kinds.flatMap((k) => (Array.isArray(spec[k]) ? (spec[k] as unknown[]).filter(isPlainObject) : []));
}

/** `path.Match` as `-c` uses it: `*`, `?` and classes. */
function globMatch(pattern: string, name: string): boolean {
  const re = pattern
    .replace(/[.+^${}()|\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${re}$`).test(name);
}

/** Changes `obj` (a copy of `x.object`) in place; returns an error text for this object, if any. */
type Change = (obj: Obj, x: Fetched) => string | undefined;

function notPodTemplate(x: Fetched): string {
  return `${kindPrefix(x.info)}/${x.object.metadata.name} the object is not a pod or does not have a pod template: *v1.${x.info.kind}`;
}

interface ChangeOptions {
  /** Whether `-l`/`--all` pick the targets (set selector takes neither). */
  readonly selectors: boolean;
  /** The command's wrapping of a failed request (`failed to patch image update to pod template: %v`). */
  readonly failure?: (message: string) => string;
  /** set serviceaccount prints every object, changed or not (its Run skips no empty patch). */
  readonly printUnchanged?: boolean;
  /** The error for `--local` without `-f`, when it is not LOCAL_NEEDS_FILES. */
  readonly localNeedsFiles?: string;
}

/** Runs one change over the targets: patch, print `<kind>/<name> <operation>`, collect errors. */
function runChange(
  ctx: KubectlContext,
  resources: readonly string[],
  operation: string,
  change: Change,
  opts: ChangeOptions = { selectors: true },
): number {
  const local = ctx.flags.bool('local');
  const mode: DryRun = dryRunMode(ctx);
  if (local && mode === 'server')
    throw cmdError('cannot specify --local and --dry-run=server - did you mean --dry-run=client?');
  const { found, errors } = local
    ? localTargets(ctx, opts.localNeedsFiles ?? LOCAL_NEEDS_FILES)
    : visitTargets(ctx, resources, opts);
  const all: unknown[] = [...errors];
  for (const x of found) {
    const next = deepClone(x.object) as Obj;
    const problem = change(next, x);
    if (problem !== undefined) {
      all.push(new KubectlError(`error: ${problem}`));
      continue;
    }
    if (!opts.printUnchanged && jsonEqual(next, x.object)) continue;
    if (local || mode === 'client') {
      printOutcome(ctx, next as Manifest, operation, mode);
      continue;
    }
    const warnings: string[] = [];
    try {
      const actual = ctx.host.api.update(next as Manifest, {
        fieldValidation: 'Warn',
        dryRun: mode === 'server',
        warnings,
      });
      printOutcome(ctx, actual as AnyObject, operation, mode);
    } catch (e) {
      // set wraps the server's error in its own (`failed to patch image update to pod template: %v`).
      const message = e instanceof Error ? e.message : String(e);
      all.push(opts.failure ? cmdError(opts.failure(message)) : e);
    } finally {
      printWarnings(ctx, warnings);
    }
  }
  return reportErrors(ctx, all);
}

export function runSetImage(ctx: KubectlContext): number {
  const { resources, pairs } = resourcesAndPairs(ctx.flags.args, 'image');
  const images = new Map<string, string>();
  for (const p of pairs) {
    const eq = p.indexOf('=');
    if (eq > 0) images.set(p.slice(0, eq), p.slice(eq + 1));
  }
  // The builder runs first (Complete), then Validate.
  const check = () => {
    if (images.size === 0) throw cmdError('at least one image update is required');
  };
  const failure = (m: string) => `failed to patch image update to pod template: ${m}`;
  return runChange(
    ctx,
    resources,
    'image updated',
    (obj, x) => {
      check();
      const spec = podSpecOf(obj);
      if (!spec) return notPodTemplate(x);
      for (const [name, image] of images) {
        let hit = false;
        for (const c of containersOf(spec, ['initContainers', 'containers', 'ephemeralContainers'])) {
          if (c.name === name || name === '*') {
            c.image = image;
            hit = true;
          }
        }
        if (!hit) return `unable to find container named ${JSON.stringify(name)}`;
      }
      return undefined;
    },
    { selectors: true, failure },
  );
}

export function runSetEnv(ctx: KubectlContext): number {
  const f = ctx.flags;
  const { resources, pairs } = resourcesAndPairs(f.args, 'env');
  if (resources.length === 0 && f.array('filename').length === 0)
    throw cmdError('one or more resources must be specified as <resource> <name> or <resource>/<name>');
  const set: [string, string][] = [];
  const remove: string[] = [];
  for (const p of [...f.array('env'), ...pairs]) {
    if (p.endsWith('-') && !p.includes('=')) remove.push(p.slice(0, -1));
    else {
      const eq = p.indexOf('=');
      if (eq <= 0) throw cmdError(`environment variables must be of the form key=value: ${p}`);
      set.push([p.slice(0, eq), p.slice(eq + 1)]);
    }
  }
  const list = f.bool('list');
  if (!list && set.length === 0 && remove.length === 0 && f.string('from') === '')
    throw cmdError('at least one environment variable must be provided');
  if (f.string('from') !== '') throw cmdError('--from is not supported in this simulated cluster');
  const pattern = f.string('containers');
  const overwrite = f.bool('overwrite');
  if (list) {
    const { found, errors } = f.bool('local')
      ? localTargets(ctx, LOCAL_NEEDS_FILES)
      : visitTargets(ctx, resources, { selectors: true });
    for (const x of found) {
      const spec = podSpecOf(x.object as Obj);
      if (!spec) continue;
      // set_env.go lists the containers, then the init containers.
      for (const c of containersOf(spec, ['containers', 'initContainers'])) {
        if (!globMatch(pattern, String(c.name))) continue;
        ctx.out(`# ${x.info.kind} ${x.object.metadata.name}, container ${String(c.name)}\n`);
        for (const e of Array.isArray(c.env) ? c.env.filter(isPlainObject) : []) {
          if (e.value !== undefined) ctx.out(`${String(e.name)}=${String(e.value)}\n`);
          else ctx.out(`# ${String(e.name)} from ${envVarRefString(e.valueFrom)}\n`);
        }
      }
    }
    return reportErrors(ctx, errors);
  }
  const failure = (m: string) => `failed to patch env update to pod template: ${m}`;
  return runChange(
    ctx,
    resources,
    'env updated',
    (obj, x) => {
      const spec = podSpecOf(obj);
      if (!spec) return notPodTemplate(x);
      for (const c of containersOf(spec, ['initContainers', 'containers'])) {
        if (!globMatch(pattern, String(c.name))) continue;
        let env = Array.isArray(c.env) ? (c.env as unknown[]).filter(isPlainObject) : [];
        for (const [name, value] of set) {
          const at = env.findIndex((e) => e.name === name);
          if (at < 0) env.push({ name, value });
          else if (overwrite) env[at] = { name, value };
        }
        env = env.filter((e) => !remove.includes(String(e.name)));
        if (env.length > 0) c.env = env;
        else delete c.env;
      }
      return undefined;
    },
    { selectors: true, failure },
  );
}

/** envutil `GetEnvVarRefString`. */
function envVarRefString(v: unknown): string {
  if (!isPlainObject(v)) return 'invalid valueFrom';
  if (isPlainObject(v.configMapKeyRef))
    return `configmap ${String(v.configMapKeyRef.name)}, key ${String(v.configMapKeyRef.key)}`;
  if (isPlainObject(v.secretKeyRef))
    return `secret ${String(v.secretKeyRef.name)}, key ${String(v.secretKeyRef.key)}`;
  if (isPlainObject(v.fieldRef)) return `field path ${String(v.fieldRef.fieldPath)}`;
  if (isPlainObject(v.resourceFieldRef)) {
    const c = v.resourceFieldRef.containerName ? `${String(v.resourceFieldRef.containerName)}/` : '';
    return `resource field ${c}${String(v.resourceFieldRef.resource)}`;
  }
  return 'invalid valueFrom';
}

export function runSetSelector(ctx: KubectlContext): number {
  const f = ctx.flags;
  const args = f.args;
  const hasFiles = f.array('filename').length > 0;
  // EXPRESSIONS is the last argument; the resources come before it.
  if ((hasFiles && args.length < 1) || (!hasFiles && args.length < 2))
    throw cmdError('one selector is required');
  const expr = args[args.length - 1]!;
  const selector: Record<string, string> = {};
  for (const term of expr.split(',')) {
    const m = /^([A-Za-z0-9./_-]+)=([A-Za-z0-9._-]*)$/.exec(term.trim());
    if (!m) throw cmdError(`invalid selector: ${JSON.stringify(expr)}`);
    selector[m[1]!] = m[2]!;
  }
  return runChange(
    ctx,
    args.slice(0, -1),
    'selector updated',
    (obj) => {
      if (obj.kind !== 'Service') return 'setting a selector is only supported for Services';
      const spec = isPlainObject(obj.spec) ? obj.spec : {};
      spec.selector = selector;
      obj.spec = spec;
      return undefined;
    },
    { selectors: false },
  );
}

function parseResourceList(text: string, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (text === '') return out;
  for (const part of text.split(',')) {
    const m = /^([a-z0-9./-]+)=([0-9.]+[A-Za-z]*)$/.exec(part);
    if (!m) throw cmdError(`invalid argument "${text}" for "--${flag}" flag`);
    out[m[1]!] = m[2]!;
  }
  return out;
}

export function runSetResources(ctx: KubectlContext): number {
  const f = ctx.flags;
  const limits = parseResourceList(f.string('limits'), 'limits');
  const requests = parseResourceList(f.string('requests'), 'requests');
  const pattern = f.string('containers');
  const validate = () => {
    if (Object.keys(limits).length === 0 && Object.keys(requests).length === 0)
      throw cmdError('you must specify an update to requests or limits (in the form of --requests/--limits)');
  };
  const failure = (m: string) => `failed to patch resources update to pod template ${m}`;
  return runChange(
    ctx,
    f.args,
    'resource requirements updated',
    (obj, x) => {
      validate();
      const spec = podSpecOf(obj);
      if (!spec) return notPodTemplate(x);
      let hit = false;
      for (const c of containersOf(spec, ['initContainers', 'containers'])) {
        if (!globMatch(pattern, String(c.name))) continue;
        hit = true;
        const res = isPlainObject(c.resources) ? c.resources : {};
        if (Object.keys(limits).length > 0)
          res.limits = { ...(isPlainObject(res.limits) ? res.limits : {}), ...limits };
        if (Object.keys(requests).length > 0)
          res.requests = { ...(isPlainObject(res.requests) ? res.requests : {}), ...requests };
        c.resources = res;
      }
      if (!hit) return `unable to find container named ${pattern}`;
      return undefined;
    },
    { selectors: true, failure },
  );
}

/**
 * `kubectl set serviceaccount (-f FILENAME | TYPE NAME) SERVICE_ACCOUNT` (set_serviceaccount.go): the
 * last argument is the account, set as the pod template's serviceAccountName.
 */
export function runSetServiceAccount(ctx: KubectlContext): number {
  const args = ctx.flags.args;
  if (ctx.flags.bool('local') && dryRunMode(ctx) === 'server')
    throw cmdError('cannot specify --local and --dry-run=server - did you mean --dry-run=client?');
  if (args.length === 0) throw cmdError('serviceaccount is required');
  const account = args[args.length - 1]!;
  return runChange(
    ctx,
    args.slice(0, -1),
    'serviceaccount updated',
    (obj, x) => {
      const spec = podSpecOf(obj);
      if (!spec) return notPodTemplate(x);
      spec.serviceAccountName = account;
      return undefined;
    },
    {
      selectors: true,
      failure: (m) => `failed to patch ServiceAccountName ${m}`,
      printUnchanged: true,
      localNeedsFiles: NO_RESOURCES,
    },
  );
}

/**
 * `kubectl set subject` (set_subject.go): adds users, groups and service accounts to RoleBindings and
 * ClusterRoleBindings. The simulated cluster serves no RBAC API, so every object it can name is
 * refused as kubectl refuses a non-binding, after Validate's checks of the flags.
 */
export function runSetSubject(ctx: KubectlContext): number {
  const f = ctx.flags;
  if (f.bool('local') && f.args.length > 0) throw new KubectlError(LOCAL_NEEDS_FILES);
  const validate = (): void => {
    if (f.bool('all') && f.string('selector') !== '')
      throw cmdError('cannot set --all and --selector at the same time');
    if (
      f.array('user').length === 0 &&
      f.array('group').length === 0 &&
      f.array('serviceaccount').length === 0
    )
      throw cmdError('you must specify at least one value of user, group or serviceaccount');
    for (const sa of f.array('serviceaccount')) {
      const tokens = sa.split(':');
      if (tokens.length !== 2 || tokens[1] === '')
        throw cmdError('serviceaccount must be <namespace>:<name>');
    }
  };
  return runChange(
    ctx,
    f.args,
    'subjects updated',
    (_obj, x) => {
      validate();
      return `${kindPrefix(x.info)}/${x.object.metadata.name} setting subjects is only supported for RoleBinding/ClusterRoleBinding`;
    },
    { selectors: true, localNeedsFiles: NO_RESOURCES },
  );
}
