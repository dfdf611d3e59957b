/**
 * Mapping `-f` manifests to API resources, with the builder's errors: missing apiVersion/kind (from
 * the validating schema), kinds the server does not know ("resource mapping not found … ensure CRDs
 * are installed first"), and a namespace that contradicts an explicit `-n`.
 */
import type { Manifest } from '../../api/objects.ts';
import { resourceForKind, type ResourceInfo } from '../../api/resources.ts';
import { isPlainObject } from '../../util/json.ts';
import type { KubectlContext } from '../context.ts';
import { NoKindMatchError, StatusError } from '../../api/errors.ts';
import { cmdError, errorText, KubectlError, statusErrorText } from '../errors.ts';
import type { SourcedManifest } from '../manifests.ts';
import type { ResourceRef } from '../resource-args.ts';

export interface FileObject {
  readonly source: string;
  readonly manifest: Manifest;
  readonly info: ResourceInfo;
  readonly name: string;
  /** The namespace the object goes to (undefined for cluster-scoped kinds). */
  readonly namespace: string | undefined;
}

const STOP_VALIDATE = 'if you choose to ignore these errors, turn validation off with --validate=false';

function metaOf(m: Manifest): Record<string, unknown> {
  return isPlainObject(m.metadata) ? m.metadata : {};
}

/** Resolves one manifest; throws kubectl's error text. */
export function resolveFileObject(ctx: KubectlContext, sm: SourcedManifest, validate = true): FileObject {
  const typeError = validate ? typeFieldError(sm) : undefined;
  if (typeError) throw typeError;
  return requireNamespace(ctx, mapFileObject(ctx, sm));
}

/** The validating schema's check of apiVersion and kind (`ValidateSchema` in the stream visitor). */
function typeFieldError(sm: SourcedManifest): KubectlError | undefined {
  const m = sm.manifest;
  const missing = [
    ...(typeof m.apiVersion === 'string' && m.apiVersion !== '' ? [] : ['apiVersion not set']),
    ...(typeof m.kind === 'string' && m.kind !== '' ? [] : ['kind not set']),
  ];
  if (missing.length === 0) return undefined;
  const detail = missing.length === 1 ? missing[0] : `[${missing.join(', ')}]`;
  return cmdError(`error validating "${sm.source}": error validating data: ${detail}; ${STOP_VALIDATE}`);
}

/** `infoForData`: decoding the type fields and the REST mapping, with the builder's default namespace. */
function mapFileObject(ctx: KubectlContext, sm: SourcedManifest): FileObject {
  const m = sm.manifest;
  const apiVersion = typeof m.apiVersion === 'string' ? m.apiVersion : '';
  const kind = typeof m.kind === 'string' ? m.kind : '';
  if (kind === '')
    throw cmdError(`unable to decode "${sm.source}": Object 'Kind' is missing in '${JSON.stringify(m)}'`);
  const meta = metaOf(m);
  const name = typeof meta.name === 'string' ? meta.name : '';
  // The unstructured decoder does not require apiVersion (apimachinery's "TODO(109023)"): without one
  // the REST mapper looks the kind up in the core group, where a Service is found and a Deployment not.
  const info = resourceForKind(apiVersion === '' ? 'v1' : apiVersion, kind);
  if (!info) {
    const ns = typeof meta.namespace === 'string' ? meta.namespace : '';
    throw cmdError(new NoKindMatchError(kind, apiVersion, name, ns).mappingText(sm.source));
  }
  const own = typeof meta.namespace === 'string' && meta.namespace !== '' ? meta.namespace : undefined;
  const namespace = info.namespaced ? (own ?? ctx.namespace) : undefined;
  return { source: sm.source, manifest: m, info, name, namespace };
}

/** The builder's `RequireNamespace` decorator, applied when `-n` was given. */
function requireNamespace(ctx: KubectlContext, fo: FileObject): FileObject {
  const own = metaOf(fo.manifest).namespace;
  if (
    fo.info.namespaced &&
    typeof own === 'string' &&
    own !== '' &&
    ctx.explicitNamespace &&
    own !== ctx.namespace
  ) {
    throw cmdError(
      `the namespace from the provided object "${own}" does not match the namespace "${ctx.namespace}". You must pass '--namespace=${own}' to perform this operation.`,
    );
  }
  return fo;
}

/** utilerrors.Aggregate: the errors a ContinueOnError visit collected. */
export class AggregateError extends Error {
  readonly errors: readonly unknown[];
  constructor(errors: readonly unknown[]) {
    super(aggregateMessage(errors));
    this.name = 'AggregateError';
    this.errors = errors;
  }
}

/** An error's Go `Error()` text: no `error: ` or `Error from server` prefix (those are checkErr's). */
function goMessage(e: unknown): string {
  if (e instanceof KubectlError) return e.text.replace(/^error: /, '');
  return e instanceof Error ? e.message : String(e);
}

/** `aggregate.Error()`: one message alone, several as `[a, b]` with repeats dropped. */
function aggregateMessage(errors: readonly unknown[]): string {
  const seen = [...new Set(errors.map(goMessage))];
  return seen.length === 1 ? seen[0]! : `[${seen.join(', ')}]`;
}

/**
 * Visits the objects of decoded `-f` streams the way a ContinueOnError builder does: a manifest
 * without apiVersion/kind (when validating) ends its source like a decode error; a kind with no
 * mapping is recorded and the source goes on; `fn` runs per object and its errors (and
 * RequireNamespace's) are recorded too. Returns the visit's error, nested as cli-runtime nests it:
 * `fn`'s errors first, then one aggregate of the sources' errors.
 */
export function visitFileObjects(
  ctx: KubectlContext,
  streams: readonly { manifests: readonly SourcedManifest[]; error: KubectlError | undefined }[],
  validate: boolean,
  fn: (fo: FileObject) => void,
): unknown {
  const fnErrors: unknown[] = [];
  const sourceErrors: unknown[] = [];
  for (const stream of streams) {
    let stopped = false;
    for (const sm of stream.manifests) {
      const typeError = validate ? typeFieldError(sm) : undefined;
      if (typeError) {
        sourceErrors.push(typeError);
        stopped = true;
        break;
      }
      let fo: FileObject;
      try {
        fo = mapFileObject(ctx, sm);
      } catch (e) {
        sourceErrors.push(e);
        continue;
      }
      try {
        fn(requireNamespace(ctx, fo));
      } catch (e) {
        fnErrors.push(e);
      }
    }
    if (!stopped && stream.error) sourceErrors.push(stream.error);
  }
  const errors = [...fnErrors, ...(sourceErrors.length > 0 ? [new AggregateError(sourceErrors)] : [])];
  return errors.length === 0 ? undefined : errors.length === 1 ? errors[0] : new AggregateError(errors);
}

/**
 * `cmdutil.CheckErr` on a command's errors (one returned as is, several as an aggregate): an aggregate
 * of one is unwrapped, several print one line each (`MultipleErrors`, API errors with their
 * `Error from server` prefix, no `error: ` prefix). Returns the exit code.
 */
export function checkErrors(ctx: KubectlContext, errors: readonly unknown[]): number {
  if (errors.length === 0) return 0;
  let e = errors.length === 1 ? errors[0] : new AggregateError(errors);
  if (e instanceof AggregateError && e.errors.length === 1) e = e.errors[0];
  if (e instanceof AggregateError) {
    for (const x of e.errors) ctx.err(`${x instanceof StatusError ? statusErrorText(x) : goMessage(x)}\n`);
    return 1;
  }
  if (e instanceof KubectlError) throw e;
  ctx.err(`${errorText(e)}\n`);
  return 1;
}

/** For get/describe/delete -f: references to the objects the files describe. */
export function refsFromManifests(
  ctx: KubectlContext,
  manifests: readonly SourcedManifest[],
): { ref: ResourceRef; namespace: string }[] {
  return manifests.map((sm) => {
    const fo = resolveFileObject(ctx, sm, false);
    if (fo.name === '') throw cmdError('resource name may not be empty');
    return { ref: { info: fo.info, name: fo.name }, namespace: fo.namespace ?? ctx.namespace };
  });
}
