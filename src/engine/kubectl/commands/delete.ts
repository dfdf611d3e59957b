/**
 * `kubectl delete` (pkg/cmd/delete): by TYPE NAME, TYPE/NAME, `-f`, `-l` or `--all`. Since v1.34 the
 * line names the namespace: `pod "web" deleted from default namespace`. `--grace-period=0` without
 * `--force` becomes 1 (backwards compatibility); `--force` warns and deletes at once; `--now` is a
 * grace period of 1. `--cascade` picks the propagation policy the API server and garbage collector
 * follow (the boolean spellings are deprecated); `-i` lists the objects and asks before deleting;
 * `--raw` sends a DELETE to a URL path. Like the real one it then waits until the objects are gone
 * (`--wait=false` skips, `--timeout` bounds it), on the simulated clock.
 */
import type { AnyObject } from '../../api/objects.ts';
import { RESOURCES, type ResourceInfo } from '../../api/resources.ts';
import { notFound, StatusError } from '../../api/errors.ts';
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

export type Propagation = 'Background' | 'Orphan' | 'Foreground';

const BOOL_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const BOOL_FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/**
 * delete_flags.go `parseCascadingFlag`: the three policies, or the deprecated booleans (true is
 * background, false orphan) with a warning. Shared with `run --rm`, whose DeleteFlags parse the same.
 */
export function cascadeOf(ctx: KubectlContext): Propagation {
  const value = ctx.flags.string('cascade');
  if (BOOL_TRUE.has(value) || BOOL_FALSE.has(value)) {
    const instead = BOOL_TRUE.has(value) ? 'background' : 'orphan';
    ctx.err(
      `warning: --cascade=${value} is deprecated (boolean value) and can be replaced with --cascade=${instead}.\n`,
    );
    return BOOL_TRUE.has(value) ? 'Background' : 'Orphan';
  }
  if (value === 'orphan') return 'Orphan';
  if (value === 'foreground') return 'Foreground';
  if (value === 'background') return 'Background';
  throw cmdError(`invalid cascade value (${value}). Must be "background", "foreground", or "orphan"`);
}

/**
 * DeleteOptions.Complete's grace period: `--now` is 1, 0 without `--force` becomes 1, `--force` alone
 * is 0; then Validate's `--force` warning or error. Shared with `run --rm`.
 */
export function gracePeriodOf(ctx: KubectlContext): number {
  const f = ctx.flags;
  let grace = f.int('grace-period');
  const force = f.bool('force');
  if (f.bool('now')) {
    if (grace !== -1) throw cmdError('--now and --grace-period cannot be specified together');
    grace = 1;
  }
  if (grace === 0 && !force) grace = 1;
  if (force && grace < 0) grace = 0;
  return grace;
}

function checkForce(ctx: KubectlContext, grace: number): void {
  const force = ctx.flags.bool('force');
  if (grace === 0 && force) {
    ctx.err(
      'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n',
    );
  } else if (grace > 0 && force) {
    throw cmdError('--force and --grace-period greater than 0 cannot be specified together');
  }
}

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
  // ToOptions parses --cascade first; Complete works out the grace period, then builds the targets.
  const cascade = cascadeOf(ctx);
  const grace = gracePeriodOf(ctx);
  const output = f.string('output');
  if (f.string('raw') !== '') return rawDelete(ctx, grace);
  if (f.args.length === 0 && filenames.length === 0) throw new KubectlError(NO_RESOURCES);
  if (all && selectorText !== '') throw cmdError("setting 'all' parameter but found a non empty selector. ");
  if (output !== '' && output !== 'name')
    throw cmdError(`unexpected -o output mode: ${output}. We only support '-o name'`);
  checkForce(ctx, grace);
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
      keepNotFound: true,
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

  // RunDelete with --interactive: the preview list (its errors end the command), then the question.
  if (f.bool('interactive')) {
    if (errors.length > 0) return reportErrors(ctx, errors);
    if (targets.length === 0) {
      ctx.out('No resources found\n');
      return 0;
    }
    ctx.out(`You are about to delete the following ${targets.length} resource(s):\n`);
    for (const t of targets) ctx.out(`${kindPrefix(t.info)}/${t.name}\n`);
    ctx.out('Do you want to continue? (y/n): ');
    // fmt.Fscan reads one whitespace-separated word; none at all (EOF) is a no.
    const answer = ctx.io.stdin.trim().split(/\s+/)[0] ?? '';
    if (answer.toLowerCase() !== 'y') {
      ctx.out('deletion is cancelled\n');
      return 0;
    }
  }

  let warnedClusterScope = false;
  const deleted: Deleted[] = [];
  for (const t of targets) {
    if (ctx.explicitNamespace && !f.bool('all-namespaces') && !t.info.namespaced && !warnedClusterScope) {
      ctx.err('Warning: deleting cluster-scoped resources, not scoped to the provided namespace\n');
      warnedClusterScope = true;
    }
    let uid: string | undefined;
    if (mode !== 'client') {
      try {
        uid = ctx.host.api.delete(t.info.key, t.namespace, t.name, {
          ...(grace >= 0 ? { gracePeriodSeconds: grace } : {}),
          dryRun: mode === 'server',
          propagationPolicy: cascade,
        }).metadata.uid;
      } catch (e) {
        errors.push(e instanceof StatusError && t.source ? e.withSource('deleting', t.source) : e);
        continue;
      }
    }
    deleted.push({ ...t, uid });
    printDeleted(ctx, t, grace, mode, output);
  }
  if (targets.length === 0 && errors.length === 0) ctx.out('No resources found\n');
  if (mode === 'none' && f.bool('wait') && deleted.length > 0) {
    const waitError = waitGone(ctx, deleted, f.duration('timeout'));
    if (waitError) errors.push(waitError);
  }
  return reportErrors(ctx, errors);
}

/** A deleted target and the uid the DELETE answered with (delete.go's UIDMap). */
interface Deleted extends Target {
  readonly uid: string | undefined;
}

/**
 * cmdwait.IsDeleted on each deleted object, bounded by `--timeout` (0: a week upstream, capped here):
 * the first one still there names the timeout error. An object under the same name with another uid
 * was recreated by its controller, so the deleted one counts as gone.
 */
function waitGone(
  ctx: KubectlContext,
  deleted: readonly Deleted[],
  timeout: number,
): KubectlError | undefined {
  const present = (t: Deleted): boolean => {
    const live = ctx.host.api.get(t.info.key, t.namespace, t.name);
    return live !== undefined && (t.uid === undefined || live.metadata.uid === t.uid);
  };
  const budget = timeout > 0 ? Math.min(timeout, DELETE_WAIT_CAP_MS) : DELETE_WAIT_CAP_MS;
  if (ctx.host.waitFor(() => !deleted.some(present), budget, 1000)) return undefined;
  const t = deleted.find(present)!;
  const resource = t.info.group ? `${t.info.plural}.${t.info.group}` : t.info.plural;
  return cmdError(`timed out waiting for the condition on ${resource}/${t.name}`);
}

/**
 * `--raw URL` (Validate's checks, then rawhttp.RawDelete): a DELETE on the path, the server's answer
 * printed as it comes (the object still being deleted, or a Success Status once it is gone).
 */
function rawDelete(ctx: KubectlContext, grace: number): number {
  const f = ctx.flags;
  const raw = f.string('raw');
  const output = f.string('output');
  if (output !== '' && output !== 'name')
    throw cmdError(`unexpected -o output mode: ${output}. We only support '-o name'`);
  checkForce(ctx, grace);
  if (f.bool('interactive')) throw cmdError('--interactive can not be used with --raw');
  const filenames = f.array('filename');
  if (filenames.length > 1) throw cmdError('--raw can only use a single local file or stdin');
  if (filenames.length === 1 && /^https?:\/\//.test(filenames[0]!))
    throw cmdError('--raw cannot read from a url');
  if (f.bool('recursive')) throw cmdError('--raw and --recursive are mutually exclusive');
  if (output !== '') throw cmdError('--raw and --output are mutually exclusive');
  // url.ParseRequestURI: a scheme, or else an absolute path.
  if (raw.startsWith(':'))
    throw cmdError(`--raw must be a valid URL path: parse "${raw}": missing protocol scheme`);
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(raw) && !raw.startsWith('/'))
    throw cmdError(`--raw must be a valid URL path: parse "${raw}": invalid URI for request`);
  const file = filenames[0];
  if (file !== undefined && file !== '-' && ctx.host.files.read(file) === undefined)
    throw cmdError(`open ${file}: no such file or directory`);
  const target = rawTarget(raw.split('?')[0]!);
  if (!target) throw new StatusError('NotFound', 'the server could not find the requested resource');
  const { info, namespace, name } = target;
  const obj = ctx.host.api.get(info.key, namespace, name);
  if (!obj) throw notFound(info.key, name);
  ctx.host.api.delete(info.key, namespace, name, {});
  const still = ctx.host.api.get(info.key, namespace, name) as AnyObject | undefined;
  // The API server's JSON encoder ends the body with a newline.
  const body = still ?? {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { name, ...(info.group ? { group: info.group } : {}), kind: info.plural, uid: obj.metadata.uid },
  };
  ctx.out(`${JSON.stringify(body)}\n`);
  return 0;
}

/** `/api/v1/[namespaces/NS/]PLURAL/NAME` or `/apis/GROUP/VERSION/[namespaces/NS/]PLURAL/NAME`. */
function rawTarget(
  path: string,
): { info: ResourceInfo; namespace: string | undefined; name: string } | undefined {
  const parts = path.split('/').filter((p) => p !== '');
  let group: string;
  let rest: string[];
  if (parts[0] === 'api' && parts[1] === 'v1') [group, rest] = ['', parts.slice(2)];
  else if (parts[0] === 'apis' && parts.length > 2) [group, rest] = [parts[1]!, parts.slice(3)];
  else return undefined;
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length === 4) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  if (rest.length !== 2) return undefined;
  const info = RESOURCES.find((r) => r.plural === rest[0] && r.group === group);
  if (!info || info.namespaced !== (namespace !== undefined)) return undefined;
  return { info, namespace, name: rest[1]! };
}

/**
 * delete.go `DeleteOptions.PrintObj`: the line for one deleted object. `replace --force` deletes
 * through the same DeleteOptions, so it prints with this too.
 */
export function printDeleted(
  ctx: KubectlContext,
  t: Target,
  grace: number,
  mode: string,
  output: string,
): void {
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
