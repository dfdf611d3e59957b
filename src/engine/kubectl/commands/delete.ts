/**
 * `kubectl delete` (pkg/cmd/delete): by TYPE NAME, TYPE/NAME, `-f`, `-l` or `--all`. Since v1.34 the
 * line names the namespace: `pod "web" deleted from default namespace`. `--grace-period=0` without
 * `--force` becomes 1 (backwards compatibility); `--force` warns and deletes at once; `--now` is a
 * grace period of 1. Like the real one it then waits until the objects are gone (`--wait=false` skips),
 * on the simulated clock.
 */
import type { AnyObject } from '../../api/objects.ts';
import type { ResourceInfo } from '../../api/resources.ts';
import { StatusError } from '../../api/errors.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError, KubectlError } from '../errors.ts';
import { readManifests } from '../manifests.ts';
import {
  fetchRefs,
  kindPrefix,
  parseLabelSelector,
  parseResourceArgs,
  type ResourceRef,
} from '../resource-args.ts';
import { reportErrors } from './create.ts';
import { resolveFileObject } from './file-refs.ts';
import { dryRunMode } from './write.ts';
import { NO_RESOURCES } from './targets.ts';

/** Simulated time kubectl waits at most for deleted objects to disappear. */
export const DELETE_WAIT_CAP_MS = 10 * 60 * 1000;

interface Target {
  readonly info: ResourceInfo;
  readonly namespace: string | undefined;
  readonly name: string;
  readonly source?: string;
}

export function runDelete(ctx: KubectlContext): number {
  const f = ctx.flags;
  const filenames = f.array('filename');
  const selectorText = f.string('selector');
  const all = f.bool('all');
  if (f.args.length === 0 && filenames.length === 0) throw new KubectlError(NO_RESOURCES);
  if (all && selectorText !== '') throw cmdError("setting 'all' parameter but found a non empty selector. ");
  const output = f.string('output');
  if (output !== '' && output !== 'name')
    throw cmdError(`unexpected -o output mode: ${output}. We only support '-o name'`);
  let grace = f.int('grace-period');
  const force = f.bool('force');
  if (f.bool('now')) {
    if (grace !== -1) throw cmdError('--now and --grace-period cannot be specified together');
    grace = 1;
  }
  if (grace === 0 && !force) grace = 1;
  if (force && grace < 0) grace = 0;
  if (grace === 0 && force) {
    ctx.err(
      'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n',
    );
  } else if (grace > 0 && force) {
    throw cmdError('--force and --grace-period greater than 0 cannot be specified together');
  }
  const mode = dryRunMode(ctx);
  const ignoreNotFound = f.changed('ignore-not-found')
    ? f.bool('ignore-not-found')
    : all || selectorText !== '' || f.string('field-selector') !== '';

  const targets: Target[] = [];
  const errors: unknown[] = [];
  if (filenames.length > 0) {
    if (f.args.length > 0)
      throw cmdError(
        'when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well',
      );
    const manifests = readManifests(ctx.host.files, filenames, ctx.io.stdin, f.bool('recursive'));
    for (const sm of manifests) {
      const fo = resolveFileObject(ctx, sm, false);
      if (fo.name === '') throw cmdError('resource name may not be empty');
      if (ctx.host.api.get(fo.info.key, fo.namespace, fo.name))
        targets.push({ info: fo.info, namespace: fo.namespace, name: fo.name, source: sm.source });
      else if (!ignoreNotFound)
        errors.push(
          new StatusError(
            'NotFound',
            `error when deleting "${sm.source}": ${fo.info.key} "${fo.name}" not found`,
          ),
        );
    }
  } else {
    const refs: ResourceRef[] = parseResourceArgs(f.args);
    const named = refs.some((r) => r.name !== undefined);
    const fieldSelector = f.string('field-selector');
    if (!named && !all && selectorText === '' && fieldSelector === '')
      throw cmdError('resource(s) were provided, but no name was specified');
    if (named && (selectorText !== '' || fieldSelector !== ''))
      throw cmdError('name cannot be provided when a selector is specified');
    const { found, errors: notFound } = fetchRefs(ctx.host.api, refs, {
      namespace: ctx.namespace,
      allNamespaces: f.bool('all-namespaces'),
      selector: parseLabelSelector(selectorText),
      fieldSelector,
      labelSelectorText: selectorText,
    });
    for (const x of found)
      targets.push({ info: x.info, namespace: x.object.metadata.namespace, name: x.object.metadata.name });
    if (!ignoreNotFound) errors.push(...notFound);
  }

  let warnedClusterScope = false;
  const deleted: Target[] = [];
  for (const t of targets) {
    if (ctx.explicitNamespace && !f.bool('all-namespaces') && !t.info.namespaced && !warnedClusterScope) {
      ctx.err('Warning: deleting cluster-scoped resources, not scoped to the provided namespace\n');
      warnedClusterScope = true;
    }
    if (mode !== 'client') {
      try {
        ctx.host.api.delete(t.info.key, t.namespace, t.name, {
          ...(grace >= 0 ? { gracePeriodSeconds: grace } : {}),
          dryRun: mode === 'server',
        });
      } catch (e) {
        errors.push(e instanceof StatusError && t.source ? e.withSource('deleting', t.source) : e);
        continue;
      }
    }
    deleted.push(t);
    printDeleted(ctx, t, grace, mode, output);
  }
  if (targets.length === 0 && errors.length === 0) ctx.out('No resources found\n');
  if (mode === 'none' && f.bool('wait') && deleted.length > 0) {
    const timeout = f.duration('timeout');
    const gone = (): boolean => deleted.every((t) => !ctx.host.api.get(t.info.key, t.namespace, t.name));
    ctx.host.waitFor(gone, timeout > 0 ? Math.min(timeout, DELETE_WAIT_CAP_MS) : DELETE_WAIT_CAP_MS, 1000);
  }
  return reportErrors(ctx, errors);
}

function printDeleted(ctx: KubectlContext, t: Target, grace: number, mode: string, output: string): void {
  const kind = kindPrefix(t.info);
  if (output === 'name') {
    ctx.out(`${kind}/${t.name}\n`);
    return;
  }
  let operation = grace === 0 ? 'force deleted' : 'deleted';
  if (t.info.namespaced) operation += ` from ${t.namespace} namespace`;
  if (mode === 'client') operation += ' (dry run)';
  if (mode === 'server') operation += ' (server dry run)';
  ctx.out(`${kind} "${t.name}" ${operation}\n`);
}

/** Deletes one object the way `kubectl delete` does, for `run --rm`: print and wait. */
export function deleteAndWait(ctx: KubectlContext, obj: AnyObject, info: ResourceInfo): void {
  ctx.host.api.delete(info.key, obj.metadata.namespace, obj.metadata.name, {});
  ctx.host.waitFor(
    () => !ctx.host.api.get(info.key, obj.metadata.namespace, obj.metadata.name),
    DELETE_WAIT_CAP_MS,
    1000,
  );
}
