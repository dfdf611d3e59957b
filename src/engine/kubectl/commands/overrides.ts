/**
 * `--overrides` / `--override-type` of `kubectl run` and `kubectl expose` (kubectl
 * pkg/cmd/util/override_options.go `OverrideOptions.Apply`): the generated object's JSON is patched
 * (merge = RFC 7386, the default; strategic; json = RFC 6902) and decoded again with the client's
 * scheme before anything is sent. Errors are the patch libraries' and the decoder's own texts.
 */
import type { Manifest } from '../../api/objects.ts';
import { resourceForKind } from '../../api/resources.ts';
import { isPlainObject } from '../../util/json.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError } from '../errors.ts';
import { jsonPatch, mergePatch, PatchError, strategicMergePatch } from '../patch.ts';

/** What the JSON serializer's `SimpleMetaFactory.Interpret` unmarshals first: apiVersion and kind. */
const TYPE_META_STRUCT =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

export function withOverrides(ctx: KubectlContext, obj: Manifest): Manifest {
  const text = ctx.flags.string('overrides');
  if (text === '') return obj;
  const type = ctx.flags.string('override-type') || 'merge';
  if (type !== 'merge' && type !== 'strategic' && type !== 'json')
    throw cmdError(`invalid override type: ${type}`);
  let fragment: unknown;
  try {
    fragment = JSON.parse(text);
  } catch {
    // evanphx/json-patch answers an unparsable merge patch with errBadJSONPatch; the others surface
    // encoding/json's error.
    throw cmdError(type === 'merge' ? 'Invalid JSON Patch' : goJsonSyntaxError(text));
  }
  // evanphx MergePatch: a patch that is JSON null or a scalar is errBadJSONPatch; an array is not a
  // document, so it replaces the object whole (and the decode below fails on it).
  if (type === 'merge' && !isPlainObject(fragment) && !Array.isArray(fragment))
    throw cmdError('Invalid JSON Patch');
  let out: unknown;
  try {
    out =
      type === 'merge'
        ? mergePatch(obj, fragment)
        : type === 'json'
          ? jsonPatch(obj, fragment)
          : strategicMergePatch(obj as Record<string, unknown>, strategicFragment(fragment));
  } catch (e) {
    if (e instanceof PatchError) throw cmdError(e.message);
    throw e;
  }
  return decodeTyped(out);
}

/** `runtime.Decode` of the patched JSON: type meta first, then a kind the client scheme knows. */
function decodeTyped(out: unknown): Manifest {
  if (!isPlainObject(out)) {
    const kind = Array.isArray(out) ? 'array' : out === null ? 'null' : typeof out;
    if (out === null) throw cmdError("Object 'Kind' is missing in 'null'");
    throw cmdError(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${kind} into Go value of type ${TYPE_META_STRUCT}`,
    );
  }
  for (const field of ['apiVersion', 'kind'] as const) {
    const v = out[field];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      const kind = Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v;
      throw cmdError(
        `couldn't get version/kind; json parse error: json: cannot unmarshal ${kind} into Go struct field .${field} of type string`,
      );
    }
  }
  const kind = typeof out.kind === 'string' ? out.kind : '';
  const apiVersion = typeof out.apiVersion === 'string' ? out.apiVersion : '';
  if (kind === '') throw cmdError(`Object 'Kind' is missing in '${JSON.stringify(out)}'`);
  if (apiVersion === '') throw cmdError(`Object 'apiVersion' is missing in '${JSON.stringify(out)}'`);
  if (!resourceForKind(apiVersion, kind)) {
    throw cmdError(
      `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme "pkg/scheme/scheme.go:28"`,
    );
  }
  return out as Manifest;
}

function strategicFragment(fragment: unknown): Record<string, unknown> {
  if (isPlainObject(fragment)) return fragment;
  const kind = Array.isArray(fragment) ? 'array' : fragment === null ? 'null' : typeof fragment;
  throw cmdError(`json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`);
}

/** encoding/json's SyntaxError text for the first byte that can't start or continue a JSON value. */
function goJsonSyntaxError(text: string): string {
  const first = text.trimStart()[0];
  if (first === undefined) return 'unexpected end of JSON input';
  return `invalid character '${first}' looking for beginning of value`;
}
