/**
 * `kubectl rollout status|restart|history|undo` for Deployments and DaemonSets (pkg/cmd/rollout,
 * pkg/polymorphichelpers). `status` follows the status viewers' messages on the simulated clock
 * (`Waiting for deployment "web" rollout to finish: 1 of 3 updated replicas are available...`), printing
 * each new message, until `successfully rolled out` or `--timeout`.
 */
import type { AnyObject, DaemonSet, Deployment, ReplicaSet } from '../../api/objects.ts';
import type { ResourceInfo } from '../../api/resources.ts';
import { deepClone, jsonEqual } from '../../util/json.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError } from '../errors.ts';
import { fetchRefs, kindPrefix, parseResourceArgs, type Fetched } from '../resource-args.ts';
import { describePodTemplate } from '../describe/pod.ts';
import { PrefixWriter } from '../describe/writer.ts';
import { tabwrite, DESCRIBE_OPTIONS } from '../../util/tabwriter.ts';
import { reportErrors } from './create.ts';
import { dryRunMode, dryRunSuffix, updateObject } from './write.ts';

/** Simulated time `rollout status` waits at most when no --timeout is given. */
export const ROLLOUT_WAIT_CAP_MS = 10 * 60 * 1000;
const REVISION = 'deployment.kubernetes.io/revision';

function targets(ctx: KubectlContext): Fetched[] {
  if (ctx.flags.args.length === 0 && ctx.flags.array('filename').length === 0)
    throw cmdError('required resource not specified');
  const refs = parseResourceArgs(ctx.flags.args);
  if (refs.some((r) => r.name === undefined))
    throw cmdError('resource(s) were provided, but no name was specified');
  const { found, errors } = fetchRefs(ctx.host.api, refs, {
    namespace: ctx.namespace,
    allNamespaces: false,
    selector: [],
  });
  if (errors.length > 0) throw errors[0];
  return found;
}

/** The status viewer message and whether the rollout is done; throws when it failed. */
export function rolloutStatus(info: ResourceInfo, obj: AnyObject): { message: string; done: boolean } {
  if (info.key === 'deployments.apps') {
    const d = obj as Deployment;
    const st = d.status ?? {};
    const name = d.metadata.name;
    if ((d.metadata.generation ?? 0) <= (st.observedGeneration ?? 0)) {
      const progressing = st.conditions?.find((c) => c.type === 'Progressing');
      if (progressing?.reason === 'ProgressDeadlineExceeded')
        throw cmdError(`deployment "${name}" exceeded its progress deadline`);
      const want = d.spec?.replicas ?? 1;
      const updated = st.updatedReplicas ?? 0;
      if (updated < want)
        return {
          message: `Waiting for deployment "${name}" rollout to finish: ${updated} out of ${want} new replicas have been updated...\n`,
          done: false,
        };
      if ((st.replicas ?? 0) > updated)
        return {
          message: `Waiting for deployment "${name}" rollout to finish: ${(st.replicas ?? 0) - updated} old replicas are pending termination...\n`,
          done: false,
        };
      if ((st.availableReplicas ?? 0) < updated)
        return {
          message: `Waiting for deployment "${name}" rollout to finish: ${st.availableReplicas ?? 0} of ${updated} updated replicas are available...\n`,
          done: false,
        };
      return { message: `deployment "${name}" successfully rolled out\n`, done: true };
    }
    return { message: 'Waiting for deployment spec update to be observed...\n', done: false };
  }
  if (info.key === 'daemonsets.apps') {
    const ds = obj as DaemonSet;
    const st = ds.status;
    const name = ds.metadata.name;
    if ((ds.spec?.updateStrategy?.type ?? 'RollingUpdate') !== 'RollingUpdate')
      throw cmdError('rollout status is only available for RollingUpdate strategy type');
    if ((ds.metadata.generation ?? 0) <= (st?.observedGeneration ?? 0)) {
      const desired = st?.desiredNumberScheduled ?? 0;
      if ((st?.updatedNumberScheduled ?? 0) < desired)
        return {
          message: `Waiting for daemon set "${name}" rollout to finish: ${st?.updatedNumberScheduled ?? 0} out of ${desired} new pods have been updated...\n`,
          done: false,
        };
      if ((st?.numberAvailable ?? 0) < desired)
        return {
          message: `Waiting for daemon set "${name}" rollout to finish: ${st?.numberAvailable ?? 0} of ${desired} updated pods are available...\n`,
          done: false,
        };
      return { message: `daemon set "${name}" successfully rolled out\n`, done: true };
    }
    return { message: 'Waiting for daemon set spec update to be observed...\n', done: false };
  }
  throw cmdError(`no status viewer has been implemented for ${info.kind}`);
}

export function runRolloutStatus(ctx: KubectlContext): number {
  const found = targets(ctx);
  for (const x of found) {
    const key = x.info.key;
    const ns = x.object.metadata.namespace;
    const name = x.object.metadata.name;
    let last = '';
    let done = false;
    const check = (): boolean => {
      const obj = ctx.host.api.get(key, ns, name) as AnyObject | undefined;
      if (!obj) throw cmdError(`object has been deleted`);
      const s = rolloutStatus(x.info, obj);
      if (s.message !== last) ctx.out(s.message);
      last = s.message;
      done = s.done;
      return done || !ctx.flags.bool('watch');
    };
    const timeout = ctx.flags.duration('timeout');
    const ok = ctx.host.waitFor(check, timeout > 0 ? timeout : ROLLOUT_WAIT_CAP_MS, 500);
    if (!ok) throw cmdError('timed out waiting for the condition');
  }
  return 0;
}

export function runRolloutRestart(ctx: KubectlContext): number {
  const mode = dryRunMode(ctx);
  const errors: unknown[] = [];
  for (const x of targets(ctx)) {
    try {
      if (!['deployments.apps', 'daemonsets.apps', 'statefulsets.apps'].includes(x.info.key)) {
        throw cmdError(`${x.info.plural} "${x.object.metadata.name}" restarting is not supported`);
      }
      if ((x.object.spec as { paused?: boolean } | undefined)?.paused) {
        throw cmdError(
          `${x.info.key} "${x.object.metadata.name}" can't restart paused deployment (run rollout resume first)`,
        );
      }
      const next = deepClone(x.object) as AnyObject & {
        spec: { template: { metadata?: { annotations?: Record<string, string> } } };
      };
      const meta = (next.spec.template.metadata ??= {});
      meta.annotations = {
        ...(meta.annotations ?? {}),
        'kubectl.kubernetes.io/restartedAt': ctx.host.clock.rfc3339(),
      };
      if (mode !== 'client') updateObject(ctx, next, mode);
      ctx.out(`${kindPrefix(x.info)}/${x.object.metadata.name} restarted${dryRunSuffix(mode)}\n`);
    } catch (e) {
      errors.push(e);
    }
  }
  return reportErrors(ctx, errors);
}

function ownedReplicaSets(ctx: KubectlContext, d: AnyObject): ReplicaSet[] {
  return (ctx.host.api.list('replicasets.apps', d.metadata.namespace) as ReplicaSet[]).filter((rs) =>
    rs.metadata.ownerReferences?.some((r) => r.controller && r.uid === d.metadata.uid),
  );
}

function revisionOf(rs: ReplicaSet): number {
  return Number(rs.metadata.annotations?.[REVISION] ?? 0);
}

export function runRolloutHistory(ctx: KubectlContext): number {
  const wanted = ctx.flags.int('revision');
  for (const x of targets(ctx)) {
    if (x.info.key !== 'deployments.apps')
      throw cmdError(`no history viewer has been implemented for "${x.info.kind}"`);
    const history = new Map(ownedReplicaSets(ctx, x.object).map((rs) => [revisionOf(rs), rs]));
    let body: string;
    if (history.size === 0) body = 'No rollout history found.';
    else if (wanted > 0) {
      const rs = history.get(wanted);
      if (!rs) throw cmdError('unable to find the specified revision');
      const w = new PrefixWriter();
      describePodTemplate(w, rs.spec?.template);
      body = w.toString();
    } else {
      const revisions = [...history.keys()].sort((a, b) => a - b);
      const rows = revisions.map(
        (r) => `${r}\t${history.get(r)!.metadata.annotations?.['kubernetes.io/change-cause'] || '<none>'}`,
      );
      body = tabwrite(`REVISION\tCHANGE-CAUSE\n${rows.join('\n')}\n`, DESCRIBE_OPTIONS);
    }
    const withRevision = wanted > 0 ? `with revision #${wanted}` : '';
    ctx.out(`${kindPrefix(x.info)}/${x.object.metadata.name} ${withRevision}\n${body}\n`);
  }
  return 0;
}

function withoutHash(t: unknown): unknown {
  const c = deepClone(t) as { metadata?: { labels?: Record<string, string> } };
  if (c.metadata?.labels) delete c.metadata.labels['pod-template-hash'];
  return c;
}

export function runRolloutUndo(ctx: KubectlContext): number {
  const mode = dryRunMode(ctx);
  const toRevision = ctx.flags.int('to-revision');
  for (const x of targets(ctx)) {
    if (x.info.key !== 'deployments.apps')
      throw cmdError(`no rollbacker has been implemented for "${x.info.kind}.${x.info.group}"`);
    const d = x.object as Deployment;
    const rss = ownedReplicaSets(ctx, x.object).sort((a, b) => revisionOf(b) - revisionOf(a));
    if (rss.length === 0) throw cmdError(`no rollout history found for deployment "${d.metadata.name}"`);
    let target: ReplicaSet | undefined;
    if (toRevision > 0) {
      target = rss.find((rs) => revisionOf(rs) === toRevision);
      if (!target) throw cmdError(`unable to find specified revision ${toRevision} in history`);
    } else {
      target = rss[1];
      if (!target) throw cmdError(`no rollout history found for deployment "${d.metadata.name}"`);
    }
    if (d.spec?.paused)
      throw cmdError(
        "you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again",
      );
    if (jsonEqual(withoutHash(target.spec?.template), withoutHash(d.spec?.template))) {
      ctx.out(
        `${kindPrefix(x.info)}/${d.metadata.name} skipped rollback (current template already matches revision ${revisionOf(target)})\n`,
      );
      continue;
    }
    const next = deepClone(x.object) as AnyObject & { spec: Record<string, unknown> };
    next.spec.template = withoutHash(target.spec?.template);
    if (mode !== 'client') updateObject(ctx, next, mode);
    ctx.out(`${kindPrefix(x.info)}/${d.metadata.name} rolled back${dryRunSuffix(mode)}\n`);
  }
  return 0;
}
