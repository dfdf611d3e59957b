/**
 * The first step of every write: from a manifest (as kubectl's YAML decoder produced it) to a typed
 * object of a known kind. Failures come back worded as the real tools word them:
 *
 * - kubectl's own checks before any request (kubectl `pkg/validation`, cli-runtime `mapper.go`):
 *   `ManifestTypeError` (`[apiVersion not set, kind not set]`) and `NoKindMatchError`
 *   (`no matches for kind "Foo" in version "v1"`);
 * - the server's request limit (apiserver `MaxRequestBodyBytes`, 3 MiB): `RequestEntityTooLarge`;
 * - decoding (apiserver `handlers/rest.go` `transformDecodeError`): `BadRequest` with
 *   `Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.foo"`,
 *   or the JSON type error; under fieldValidation Warn the unknown fields become warnings, under Ignore
 *   they are dropped silently;
 * - custom resources (Gateway API, MetalLB) are checked against their OpenAPI schema instead of Go
 *   types: `Invalid` with `spec.listeners[0].port: Invalid value: "string": … must be of type integer`.
 */
import {
  ManifestTypeError,
  NoKindMatchError,
  badRequest,
  invalid,
  requestEntityTooLarge,
  type StatusCause,
} from '../api/errors.ts';
import type { ObjectMeta } from '../api/objects.ts';
import { resourceForKind, type ResourceInfo } from '../api/resources.ts';
import { fieldSchema } from '../api/schema/field-schema.ts';
import type { Rng } from '../util/rng.ts';
import { isPlainObject } from '../util/json.ts';
import { decodeAgainstSchema, type SchemaProblem } from './json-decoder.ts';
import { fieldErrorCause, notSupported, required, typeInvalid } from './field-errors.ts';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface DecodeOptions {
  /** kubectl `--validate`: Strict (the default) rejects unknown fields, Warn reports them, Ignore drops them. */
  readonly fieldValidation?: FieldValidation;
  /** Receives warning texts without the `Warning: ` prefix kubectl prints. */
  readonly warnings?: string[];
  /** Draws the suffix of `metadata.generateName`; without it a generateName-only object stays nameless. */
  readonly rng?: Rng;
}

/** A decoded object: only known fields, `metadata.name` possibly still empty (validation reports it). */
export interface DecodedObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta & { name: string };
  [field: string]: unknown;
}

export interface Decoded {
  readonly info: ResourceInfo;
  readonly object: DecodedObject;
}

/** kube-apiserver `--max-request-bytes` default (`MaxRequestBodyBytes = 3 * 1024 * 1024`). */
export const MAX_REQUEST_BYTES = 3 * 1024 * 1024;
/** Go's encoding/json scanner `maxNestingDepth`. */
export const MAX_JSON_DEPTH = 10000;
/** apiserver `names.go`: generated names are at most 63 characters, 5 of them random. */
const MAX_GENERATE_NAME_BASE = 58;

/** Groups served by CustomResourceDefinitions: validated against a structural schema, not Go types. */
const CRD_GROUPS = new Set(['gateway.networking.k8s.io', 'metallb.io']);

export function decodeManifest(manifest: unknown, opts: DecodeOptions = {}): Decoded {
  const { info, apiVersion, kind } = resolveKind(manifest);
  const input = manifest as Record<string, unknown>;
  const gvVersion = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
  const cannotHandle = (err: string) =>
    badRequest(`${kind} in version "${gvVersion}" cannot be handled as a ${kind}: ${err}`);

  const size = measure(input);
  if (size === 'too-large') throw requestEntityTooLarge(MAX_REQUEST_BYTES);
  if (size === 'too-deep') throw cannotHandle('exceeded max depth');

  const root = fieldSchema(info.kind, apiVersion);
  if (!root) throw cannotHandle(`no schema for kind "${kind}"`);
  const structural = CRD_GROUPS.has(info.group);
  const result = decodeAgainstSchema(input, root, info.kind, { structural });
  if (result.error !== undefined) throw cannotHandle(result.error);

  const mode = opts.fieldValidation ?? 'Strict';
  if (result.unknownFields.length > 0) {
    if (mode === 'Strict') throw cannotHandle(`strict decoding error: ${result.unknownFields.join(', ')}`);
    if (mode === 'Warn') opts.warnings?.push(...result.unknownFields);
  }

  const object = result.value as DecodedObject;
  object.apiVersion = apiVersion;
  object.kind = kind;
  const metadata = (isPlainObject(object.metadata) ? object.metadata : {}) as DecodedObject['metadata'];
  object.metadata = metadata;
  if (!metadata.name && metadata.generateName && opts.rng) {
    metadata.name = metadata.generateName.slice(0, MAX_GENERATE_NAME_BASE) + opts.rng.nameSuffix(5);
  }
  metadata.name ??= '';

  if (result.schemaErrors.length > 0) {
    throw invalid(info.kind, metadata.name, result.schemaErrors.map(schemaCause), info.group);
  }
  return { info, object };
}

/** kubectl's checks of apiVersion/kind, then the RESTMapper lookup. */
function resolveKind(manifest: unknown): { info: ResourceInfo; apiVersion: string; kind: string } {
  if (!isPlainObject(manifest)) throw new ManifestTypeError(['invalid object to validate']);
  const problems: string[] = [];
  const { apiVersion, kind } = manifest;
  if (apiVersion === undefined || apiVersion === null) problems.push('apiVersion not set');
  else if (typeof apiVersion !== 'string') problems.push("apiVersion isn't string type");
  else if (apiVersion.split('/').length > 2) problems.push(`unexpected GroupVersion string: ${apiVersion}`);
  if (kind === undefined || kind === null) problems.push('kind not set');
  else if (typeof kind !== 'string') problems.push("kind isn't string type");
  if (problems.length > 0) throw new ManifestTypeError(problems);
  const av = apiVersion as string;
  const k = kind as string;
  const info = resourceForKind(av, k);
  if (!info) {
    const meta = isPlainObject(manifest.metadata) ? manifest.metadata : {};
    const text = (v: unknown) => (typeof v === 'string' ? v : '');
    throw new NoKindMatchError(k, av, text(meta.name), text(meta.namespace));
  }
  return { info, apiVersion: av, kind: k };
}

/**
 * The size of the JSON kubectl would send, and its nesting depth, without recursion. Stops as soon as
 * either limit is passed, so even a self-referencing structure (YAML aliases) terminates.
 */
function measure(value: unknown): 'ok' | 'too-large' | 'too-deep' {
  let bytes = 0;
  // Two parallel stacks rather than a { value, depth } pair per node: every request is measured.
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const v = values.pop();
    const depth = depths.pop()!;
    if (typeof v === 'string') bytes += v.length + 2;
    else if (Array.isArray(v) || isPlainObject(v)) {
      if (depth > MAX_JSON_DEPTH) return 'too-deep';
      bytes += 2;
      if (Array.isArray(v)) {
        for (const item of v) {
          bytes += 1;
          values.push(item);
          depths.push(depth + 1);
        }
      } else {
        for (const key of Object.keys(v)) {
          bytes += key.length + 4;
          values.push(v[key]);
          depths.push(depth + 1);
        }
      }
    } else bytes += 5;
    if (bytes > MAX_REQUEST_BYTES) return 'too-large';
  }
  return 'ok';
}

/** apiextensions-apiserver's conversion of OpenAPI validation errors to field errors. */
function schemaCause(p: SchemaProblem): StatusCause {
  switch (p.kind) {
    case 'required':
      return fieldErrorCause(required(p.path));
    case 'enum':
      return fieldErrorCause(notSupported(p.path, p.value, (p.allowed ?? []).map(String)));
    case 'type':
      return fieldErrorCause(
        typeInvalid(
          p.path,
          p.actual ?? '',
          `${p.path} in body must be of type ${p.expected ?? 'object'}: "${p.actual ?? ''}"`,
        ),
      );
  }
}
