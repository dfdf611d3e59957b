/**
 * `kubectl replace -f` (pkg/cmd/replace): each object of the files is PUT whole (`deployment.apps/web
 * replaced`). Without a resourceVersion in the manifest, the client first reads the live one
 * (resource.Helper `Replace` with overwrite), so only a stale resourceVersion written in the file is a
 * Conflict; an object that does not exist is NotFound (replace never creates). `--force` deletes the
 * objects through delete's DeleteOptions (`deployment.apps "web" deleted from default namespace`, the
 * `--cascade` policy), waits until they are gone, then creates them again without their resourceVersion.
 * `--save-config` records the last-applied annotation, and a manifest that already carries one gets
 * it recomputed (`CreateOrUpdateAnnotation`). Errors are collected per object (ContinueOnError).
 */
import type { AnyObject, Manifest } from '../../api/objects.ts';
import { notFound, StatusError } from '../../api/errors.ts';
import { isPlainObject } from '../../util/json.ts';
import { LAST_APPLIED, withLastApplied } from '../apply-merge.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError } from '../errors.ts';
import { readStreams } from '../manifests.ts';
import { parseOutputFormat } from '../printers/output.ts';
import { cascadeOf, DELETE_WAIT_CAP_MS, printDeleted, type Propagation } from './delete.ts';
import { checkErrors, visitFileObjects, type FileObject } from './file-refs.ts';
import {
  createObject,
  dryRunMode,
  fieldValidation,
  printOutcome,
  updateObject,
  type DryRun,
} from './write.ts';

/** How long `--force` waits for the deleted objects to go when `--timeout` is not given (replace.go). */
const FORCE_WAIT_DEFAULT_MS = 5 * 60 * 1000;

/** `ReplaceOptions.Complete` then `Validate`, in their order. */
function checkFlags(ctx: KubectlContext): { mode: DryRun; force: boolean; cascade: Propagation } {
  const f = ctx.flags;
  fieldValidation(ctx);
  const mode = dryRunMode(ctx);
  if (ctx.outputRequested()) parseOutputFormat(f.string('output'), false, ctx.templateInput());
  // DeleteFlags.ToOptions parses --cascade (its warning or error) whether or not --force is given.
  const cascade = cascadeOf(ctx);
  const filenames = f.array('filename');
  const kustomize = f.string('kustomize');
  if (filenames.length > 0 && kustomize !== '') throw cmdError('only one of -f or -k can be specified');
  if (filenames.length === 0 && kustomize === '') throw cmdError('must specify one of -f and -k');
  const force = f.bool('force');
  if (f.int('grace-period') >= 0 && !force) throw cmdError('--grace-period must have --force specified');
  if (f.duration('timeout') !== 0 && !force) throw cmdError('--timeout must have --force specified');
  if (force && mode !== 'none') throw cmdError('--dry-run can not be used when --force is set');
  const raw = f.string('raw');
  if (raw !== '') {
    if (filenames.length !== 1) throw cmdError('--raw can only use a single local file or stdin');
    if (/^https?:\/\//.test(filenames[0]!)) throw cmdError('--raw cannot read from a url');
    if (f.bool('recursive')) throw cmdError('--raw and --recursive are mutually exclusive');
    if (f.string('output') !== '') throw cmdError('--raw and --output are mutually exclusive');
    // url.ParseRequestURI: an absolute path or an absolute URL.
    if (!raw.startsWith('/') && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(raw))
      throw cmdError(`--raw must be a valid URL path: parse ${JSON.stringify(raw)}: invalid URI for request`);
    throw cmdError('--raw is not available in this simulated cluster');
  }
  if (kustomize !== '')
    throw cmdError(
      `must build at directory: not a valid directory: evalsymlink failure on '${kustomize}' : lstat ${kustomize}: no such file or directory`,
    );
  return { mode, force, cascade };
}

export function runReplace(ctx: KubectlContext): number {
  const { mode, force, cascade } = checkFlags(ctx);
  return force ? forceReplace(ctx, cascade) : replaceAll(ctx, mode);
}

/** The object as the builder hands it over: the default namespace set, the annotation (re)written. */
function prepared(ctx: KubectlContext, fo: FileObject): Manifest {
  const meta = isPlainObject(fo.manifest.metadata) ? fo.manifest.metadata : {};
  const obj = { ...fo.manifest, metadata: { ...meta, ...(fo.namespace ? { namespace: fo.namespace } : {}) } };
  const annotations = isPlainObject(meta.annotations) ? meta.annotations : {};
  const record = ctx.flags.bool('save-config') || typeof annotations[LAST_APPLIED] === 'string';
  return (record ? withLastApplied(obj) : obj) as Manifest;
}

function replaceAll(ctx: KubectlContext, mode: DryRun): number {
  const f = ctx.flags;
  const validation = fieldValidation(ctx);
  const subresource = f.string('subresource');
  const streams = readStreams(ctx.host.files, f.array('filename'), ctx.io.stdin, f.bool('recursive'));
  const error = visitFileObjects(ctx, streams, validation !== 'Ignore', (fo) => {
    const obj = prepared(ctx, fo);
    if (mode === 'client') {
      printOutcome(ctx, obj, 'replaced', mode);
      return;
    }
    let result: AnyObject;
    try {
      result = subresource === '' ? updateObject(ctx, obj, mode) : replaceSubresource(ctx, fo, obj, mode);
    } catch (e) {
      throw e instanceof StatusError ? e.withSource('replacing', fo.source) : e;
    }
    printOutcome(ctx, result, 'replaced', mode);
  });
  return checkErrors(ctx, error === undefined ? [] : [error]);
}

/** A PUT to `<object>/<subresource>`: only `status` is served here for every kind. */
function replaceSubresource(ctx: KubectlContext, fo: FileObject, obj: Manifest, mode: DryRun): AnyObject {
  const subresource = ctx.flags.string('subresource');
  if (subresource === 'scale')
    throw cmdError('--subresource=scale is not available in this simulated cluster');
  if (subresource !== 'status')
    throw new StatusError('NotFound', 'the server could not find the requested resource');
  const live = ctx.host.api.get(fo.info.key, fo.namespace, fo.name) as AnyObject | undefined;
  if (!live) throw notFound(fo.info.group ? `${fo.info.plural}.${fo.info.group}` : fo.info.plural, fo.name);
  const next = { ...live, status: obj.status } as AnyObject;
  return mode === 'none' && ctx.host.api.updateStatus ? ctx.host.api.updateStatus(next) : next;
}

/**
 * cli-runtime's `Helper.Create(ns, true, obj)` clears the resourceVersion before the POST, so a manifest
 * exported with `get -o yaml` is recreated rather than refused by the server.
 */
function withoutResourceVersion(obj: Manifest): Manifest {
  const meta = isPlainObject(obj.metadata) ? obj.metadata : {};
  if (!('resourceVersion' in meta)) return obj;
  const { resourceVersion: _dropped, ...rest } = meta;
  return { ...obj, metadata: rest } as Manifest;
}

/**
 * replace.go `forceReplace`: `DeleteOptions.DeleteResult` on what exists (not-found ignored;
 * `--grace-period=0` becomes 1; `-o` handed to the delete printer), wait until every object is gone,
 * then create them all from the files again.
 */
function forceReplace(ctx: KubectlContext, cascade: Propagation): number {
  const f = ctx.flags;
  let grace = f.int('grace-period');
  if (grace === 0) grace = 1;
  const streams = readStreams(ctx.host.files, f.array('filename'), ctx.io.stdin, f.bool('recursive'));
  const deleted: FileObject[] = [];
  let found = 0;
  const deleteError = visitFileObjects(ctx, streams, false, (fo) => {
    found++;
    if (!ctx.host.api.get(fo.info.key, fo.namespace, fo.name)) return;
    try {
      ctx.host.api.delete(fo.info.key, fo.namespace, fo.name, {
        ...(grace >= 0 ? { gracePeriodSeconds: grace } : {}),
        propagationPolicy: cascade,
      });
    } catch (e) {
      throw e instanceof StatusError ? e.withSource('deleting', fo.source) : e;
    }
    deleted.push(fo);
    printDeleted(ctx, fo, grace, 'none', f.string('output'));
  });
  if (deleteError !== undefined) return checkErrors(ctx, [deleteError]);
  if (found === 0) ctx.out('No resources found\n');
  const timeout = f.duration('timeout') || FORCE_WAIT_DEFAULT_MS;
  const gone = (): boolean => deleted.every((fo) => !ctx.host.api.get(fo.info.key, fo.namespace, fo.name));
  if (!ctx.host.waitFor(gone, Math.min(timeout, DELETE_WAIT_CAP_MS), 1000))
    throw cmdError('timed out waiting for the condition');

  let count = 0;
  const validation = fieldValidation(ctx);
  const createError = visitFileObjects(ctx, streams, validation !== 'Ignore', (fo) => {
    const created = createObject(ctx, withoutResourceVersion(prepared(ctx, fo)), 'none');
    count++;
    printOutcome(ctx, created, 'replaced', 'none');
  });
  if (createError !== undefined) return checkErrors(ctx, [createError]);
  if (count === 0) throw cmdError('no objects passed to replace');
  return 0;
}
