/**
 * `kubectl apply -f` (client-side apply, pkg/cmd/apply): objects that do not exist are created with
 * the last-applied-configuration annotation; existing ones get the three-way merge of last applied,
 * manifest and live object, and print `configured`, or `unchanged` when the merge changes nothing.
 * Errors are per object (`error when creating "web.yaml": …`); the rest still apply. A document that
 * cannot be decoded ends its file, but the documents before it are still applied.
 */
import type { AnyObject, Manifest } from '../../api/objects.ts';
import { StatusError } from '../../api/errors.ts';
import { setOwn } from '../../apiserver/json-values.ts';
import { isPlainObject, jsonEqual } from '../../util/json.ts';
import { lastAppliedOf, threeWayMerge, withLastApplied } from '../apply-merge.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError, usageError } from '../errors.ts';
import { readStreams } from '../manifests.ts';
import { checkErrors, visitFileObjects, type FileObject } from './file-refs.ts';
import {
  createObject,
  dryRunMode,
  fieldValidation,
  printOutcome,
  updateObject,
  type DryRun,
} from './write.ts';

/** Kinds served by CRDs take JSON merge patches (lists replaced), built-ins strategic merge patches. */
export const CRD_GROUPS = new Set(['gateway.networking.k8s.io', 'metallb.io']);

export function runApply(ctx: KubectlContext): number {
  const f = ctx.flags;
  const filenames = f.array('filename');
  if (f.args.length > 0) throw usageError(ctx.commandPath, `Unexpected args: [${f.args.join(' ')}]`);
  if (filenames.length === 0 && f.string('kustomize') === '') throw cmdError('must specify one of -f and -k');
  if (f.string('kustomize') !== '')
    throw cmdError(
      `unable to find one of 'kustomization.yaml', 'kustomization.yml' or 'Kustomization' in directory '${f.string('kustomize')}'`,
    );
  const mode = dryRunMode(ctx);
  const validation = fieldValidation(ctx);
  const streams = readStreams(ctx.host.files, filenames, ctx.io.stdin, f.bool('recursive'));
  // apply.go `GetObjects` collects every object it could read (`Result.Infos` keeps them next to the
  // error), then applies those before reporting the read errors with its own.
  const objects: FileObject[] = [];
  const readError = visitFileObjects(ctx, streams, validation !== 'Ignore', (fo) => objects.push(fo));
  const errors: unknown[] = readError === undefined ? [] : [readError];
  if (objects.length === 0 && errors.length === 0) throw cmdError('no objects passed to apply');
  for (const fo of objects) {
    try {
      applyOne(ctx, fo, mode);
    } catch (e) {
      errors.push(e);
    }
  }
  return checkErrors(ctx, errors);
}

function withNamespace(fo: FileObject): Record<string, unknown> {
  const meta = isPlainObject(fo.manifest.metadata) ? fo.manifest.metadata : {};
  return { ...fo.manifest, metadata: { ...meta, ...(fo.namespace ? { namespace: fo.namespace } : {}) } };
}

function applyOne(ctx: KubectlContext, fo: FileObject, mode: DryRun): void {
  if (fo.name === '') {
    // apply.go `applyOneObject`: a generateName cannot be applied; without any name, `info.Get()` fails
    // in client-go before any request (a plain error, so checkErr prints it with `error: `).
    const meta = isPlainObject(fo.manifest.metadata) ? fo.manifest.metadata : {};
    const generateName = typeof meta.generateName === 'string' ? meta.generateName : '';
    if (generateName !== '') throw cmdError(`from ${generateName}: cannot use generate name with apply`);
    throw cmdError(
      `error when retrieving current configuration of:\n${infoString(fo)}\nfrom server for: "${fo.source}": resource name may not be empty`,
    );
  }
  const modified = withLastApplied(withNamespace(fo));
  const current = ctx.host.api.get(fo.info.key, fo.namespace, fo.name) as AnyObject | undefined;
  const operation = ctx.flags.bool('server-side') ? 'serverside-applied' : undefined;
  if (!current) {
    if (mode === 'client') {
      printOutcome(ctx, modified as Manifest, operation ?? 'created', mode);
      return;
    }
    try {
      const created = createObject(ctx, modified as Manifest, mode);
      printOutcome(ctx, created, operation ?? 'created', mode);
    } catch (e) {
      throw e instanceof StatusError ? e.withSource('creating', fo.source) : e;
    }
    return;
  }
  const original = lastAppliedOf(current);
  if (!original && !operation) {
    const resource = fo.info.group ? `${fo.info.plural}.${fo.info.group}` : fo.info.plural;
    ctx.err(
      `Warning: resource ${resource}/${fo.name} is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n`,
    );
  }
  const strategic = !CRD_GROUPS.has(fo.info.group);
  const merged = threeWayMerge(original, modified, current as Record<string, unknown>, strategic);
  if (jsonEqual(merged, current)) {
    printOutcome(ctx, current, operation ?? 'unchanged', mode);
    return;
  }
  if (mode === 'client') {
    printOutcome(ctx, merged as Manifest, operation ?? 'configured', mode);
    return;
  }
  try {
    const updated = updateObject(ctx, merged as Manifest, mode);
    printOutcome(ctx, updated, operation ?? (jsonEqual(updated, current) ? 'unchanged' : 'configured'), mode);
  } catch (e) {
    if (e instanceof StatusError && e.reason !== 'Invalid') {
      throw new StatusError(
        e.reason,
        `error when applying patch:\n${JSON.stringify(diffPatch(current, merged))}\n\nto:\n${infoString(fo)}\nfor: "${fo.source}": error when patching "${fo.source}": ${e.message}`,
        e.causes,
      );
    }
    throw e;
  }
}

/** cli-runtime `Info.String()`: the mapping (`schema.GroupVersionResource`/`GroupVersionKind` strings) and the name. */
function infoString(fo: FileObject): string {
  const gv = `${fo.info.group}/${fo.info.version}`;
  return `Resource: "${gv}, Resource=${fo.info.plural}", GroupVersionKind: "${gv}, Kind=${fo.info.kind}"\nName: "${fo.name}", Namespace: "${fo.namespace ?? ''}"`;
}

/** A rough JSON merge patch from current to merged, for error messages. */
function diffPatch(current: unknown, merged: unknown): unknown {
  if (!isPlainObject(current) || !isPlainObject(merged)) return merged;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(merged))
    if (!jsonEqual(current[k], merged[k])) setOwn(out, k, diffPatch(current[k], merged[k]));
  for (const k of Object.keys(current)) if (!Object.hasOwn(merged, k)) setOwn(out, k, null);
  return out;
}
