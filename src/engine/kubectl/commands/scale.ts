/**
 * `kubectl scale` (pkg/cmd/scale): sets spec.replicas through the scale subresource of Deployments,
 * ReplicaSets (and StatefulSets, ReplicationControllers upstream), with `--current-replicas` and
 * `--resource-version` preconditions; prints `deployment.apps/web scaled` (or the object with `-o`).
 * `--timeout` then waits, on the simulated clock, until the controller reports the new replica count.
 */
import type { AnyObject } from '../../api/objects.ts';
import type { ResourceInfo } from '../../api/resources.ts';
import { deepClone } from '../../util/json.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError, KubectlError } from '../errors.ts';
import { readManifests } from '../manifests.ts';
import { fetchRefs, parseLabelSelector, parseResourceArgs, type Fetched } from '../resource-args.ts';
import { reportErrors, requireFlags } from './create.ts';
import { refsFromManifests } from './file-refs.ts';
import { dryRunMode, printOutcome, updateObject, type DryRun } from './write.ts';
import { NO_RESOURCES } from './targets.ts';

const SCALABLE = new Set([
  'deployments.apps',
  'replicasets.apps',
  'statefulsets.apps',
  'replicationcontrollers',
]);

export function runScale(ctx: KubectlContext): number {
  const f = ctx.flags;
  requireFlags(ctx, ['replicas']);
  const replicas = f.int('replicas');
  if (replicas < 0)
    throw cmdError('The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0');
  if (f.int('current-replicas') < -1)
    throw cmdError('The --current-replicas must specify an integer of -1 or greater');
  const mode = dryRunMode(ctx);
  let found: Fetched[];
  let errors: Error[];
  if (f.array('filename').length > 0) {
    const manifests = readManifests(ctx.host.files, f.array('filename'), ctx.io.stdin, f.bool('recursive'));
    found = [];
    errors = [];
    for (const { ref, namespace } of refsFromManifests(ctx, manifests)) {
      const r = fetchRefs(ctx.host.api, [ref], { namespace, allNamespaces: false, selector: [] });
      found.push(...r.found);
      errors.push(...r.errors);
    }
  } else {
    if (f.args.length === 0) {
      throw new KubectlError(NO_RESOURCES);
    }
    const refs = parseResourceArgs(f.args);
    if (!f.bool('all') && f.string('selector') === '' && refs.some((r) => r.name === undefined)) {
      throw cmdError('resource(s) were provided, but no name was specified');
    }
    ({ found, errors } = fetchRefs(ctx.host.api, refs, {
      namespace: ctx.namespace,
      allNamespaces: false,
      selector: parseLabelSelector(f.string('selector')),
    }));
  }
  if (f.string('resource-version') !== '' && found.length > 1)
    throw cmdError('cannot use --resource-version with multiple resources');
  const all: unknown[] = [...errors];
  for (const x of found) {
    try {
      scaleOne(ctx, x.info, x.object, replicas, mode);
    } catch (e) {
      all.push(e);
    }
  }
  return reportErrors(ctx, all);
}

/**
 * scale.go `WaitForScaleHasDesiredReplicas` (`--timeout`, real requests only): poll every second until
 * the scale's status.replicas reaches spec.replicas, or someone else changed spec.replicas meanwhile.
 */
function waitForReplicas(ctx: KubectlContext, info: ResourceInfo, obj: AnyObject, replicas: number): void {
  const synced = (): boolean => {
    const now = ctx.host.api.get(info.key, obj.metadata.namespace, obj.metadata.name) as
      | AnyObject
      | undefined;
    if (!now) return false;
    const spec = (now.spec as { replicas?: number } | undefined)?.replicas ?? 1;
    const status = (now.status as { replicas?: number } | undefined)?.replicas ?? 0;
    return spec !== replicas || status === replicas;
  };
  if (!ctx.host.waitFor(synced, ctx.flags.duration('timeout'), 1000))
    throw cmdError(`timed out waiting for ${JSON.stringify(obj.metadata.name)} to be synced`);
}

function scaleOne(
  ctx: KubectlContext,
  info: ResourceInfo,
  obj: AnyObject,
  replicas: number,
  mode: DryRun,
): void {
  if (!SCALABLE.has(info.key)) throw cmdError(`the server could not find the requested resource`);
  const spec = (obj.spec ?? {}) as { replicas?: number };
  const current = spec.replicas ?? 1;
  const want = ctx.flags.int('current-replicas');
  if (want >= 0 && want !== current) throw cmdError(`Expected replicas to be ${want}, was ${current}`);
  const rv = ctx.flags.string('resource-version');
  if (rv && rv !== obj.metadata.resourceVersion) {
    throw cmdError(`Expected resource version to be ${rv}, was ${obj.metadata.resourceVersion}`);
  }
  const next = deepClone(obj);
  (next.spec as { replicas?: number }).replicas = replicas;
  let result: AnyObject = next;
  if (mode !== 'client') {
    result = updateObject(ctx, next, mode === 'server' ? 'server' : 'none');
    if (mode === 'none' && ctx.flags.duration('timeout') > 0) waitForReplicas(ctx, info, obj, replicas);
  }
  printOutcome(ctx, result, 'scaled', mode);
}
