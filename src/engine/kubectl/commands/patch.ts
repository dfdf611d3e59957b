/**
 * `kubectl patch` (pkg/cmd/patch): `-p`/`--patch-file` (YAML or JSON), `--type strategic|merge|json`,
 * `--subresource status|scale`, `--local`, `--dry-run`, `-o`. The server applies the patch
 * (`handlers/patch.go`) and validates the result with field validation Warn (patch has no
 * `--validate`); the line is `deployment.apps/web patched`, or `patched (no change)` when the object
 * came back equal to what was read.
 */
import type { AnyObject, Manifest } from '../../api/objects.ts';
import { StatusError } from '../../api/errors.ts';
import { deepClone, isPlainObject, jsonEqual } from '../../util/json.ts';
import { parseDocument } from 'yaml';
import { YAML_LIMITS } from '../../util/yaml-limits.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError, KubectlError } from '../errors.ts';
import { goYamlError } from '../manifests.ts';
import { goYamlToJsError } from '../go-yaml-limits.ts';
import { jsonPatch, mergePatch, PatchError, strategicMergePatch, type PatchType } from '../patch.ts';
import type { Fetched } from '../resource-args.ts';
import { CRD_GROUPS } from './apply.ts';
import { reportErrors } from './create.ts';
import { localTargets, NO_RESOURCES, visitTargets } from './targets.ts';
import { dryRunMode, printOutcome, printWarnings, type DryRun } from './write.ts';

const SUBRESOURCES = ['status', 'scale'];

/** `yaml.ToJSON`: the patch text as JSON, or kubectl's `unable to parse` error. */
export function parsePatchText(text: string): unknown {
  const doc = parseDocument(text, { version: '1.1', uniqueKeys: false });
  const first = doc.errors[0];
  if (first)
    throw cmdError(
      // go-yaml numbers lines from 1; a one-line patch never reports line 0.
      `unable to parse ${JSON.stringify(text)}: ${goYamlError(first.code, first.message, first.linePos?.[0]?.line ?? 1).replace(/^yaml: line 0:/, 'yaml: line 1:')}`,
    );
  try {
    return doc.toJS(YAML_LIMITS) ?? null;
  } catch (e) {
    throw cmdError(`unable to parse ${JSON.stringify(text)}: ${goYamlToJsError(e)}`);
  }
}

/** What the API server does with a patch body of `type` against `current` (throws StatusError). */
export function applyPatch(
  current: AnyObject,
  type: PatchType,
  patch: unknown,
  crd: boolean,
  local = false,
): Record<string, unknown> {
  try {
    if (type === 'json') {
      const out = jsonPatch(current, patch);
      if (!isPlainObject(out)) throw new PatchError('the result of the patch is not an object');
      return out;
    }
    if (!isPlainObject(patch))
      throw new StatusError(
        'BadRequest',
        `json: cannot unmarshal ${Array.isArray(patch) ? 'array' : typeof patch === 'string' ? 'string' : 'number'} into Go value of type map[string]interface {}`,
      );
    if (type === 'merge') return mergePatch(current, patch) as Record<string, unknown>;
    if (crd) {
      // A CRD's endpoint answers 415; kubectl wraps it ("%s is not supported by %s", the GVK).
      throw cmdError(
        `application/strategic-merge-patch+json is not supported by ${current.apiVersion}, Kind=${current.kind}: the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml`,
      );
    }
    return strategicMergePatch(current as Record<string, unknown>, patch);
  } catch (e) {
    if (!(e instanceof PatchError)) throw e;
    // Patched in kubectl (--local, --dry-run=client): json-patch's own message.
    if (local) throw cmdError(e.message);
    if (e.conflict) throw new StatusError('Conflict', e.message);
    // apiserver answers a failed JSON patch with NewGenericServerResponse(422), which drops the
    // json-patch message; kubectl prints its generic Invalid text.
    throw new KubectlError(
      'The request is invalid: the server rejected our request due to an error in our request',
    );
  }
}

function scaleOf(obj: AnyObject): Record<string, unknown> {
  const spec = (obj as { spec?: { replicas?: number } }).spec;
  const status = (obj as { status?: { replicas?: number } }).status;
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: { ...obj.metadata },
    spec: { replicas: spec?.replicas ?? 0 },
    status: { replicas: status?.replicas ?? 0 },
  };
}

function patchOne(
  ctx: KubectlContext,
  x: Fetched,
  type: PatchType,
  patch: unknown,
  mode: DryRun,
  local: boolean,
): void {
  // --local and --dry-run=client patch the object in hand; only the dry-run marks the line.
  const offline = local || mode === 'client';
  const current = x.object;
  const crd = CRD_GROUPS.has(x.info.group);
  const sub = ctx.flags.string('subresource');
  if (sub === 'scale') {
    if (!['deployments.apps', 'replicasets.apps', 'statefulsets.apps'].includes(x.info.key))
      throw new StatusError('NotFound', `${x.info.key} "${current.metadata.name}" not found`);
    const before = scaleOf(current);
    const after = applyPatch(before as AnyObject, type, patch, false, offline);
    const replicas = (after.spec as { replicas?: unknown } | undefined)?.replicas;
    const next = deepClone(current) as unknown as { spec: Record<string, unknown> };
    next.spec = { ...next.spec, replicas };
    const changed = !jsonEqual(before, after);
    let shown: Record<string, unknown> = after;
    if (changed && !offline) shown = scaleOf(write(ctx, next as Manifest, mode));
    printOutcome(ctx, shown as Manifest, changed ? 'patched' : 'patched (no change)', mode);
    return;
  }
  let next = applyPatch(current, type, patch, crd, offline);
  // The status subresource keeps everything but .status; the main resource ignores .status. Kinds
  // without a status (ConfigMap, Secret…) get none: a patched-in one is an unknown field the server reports.
  const status = (next as { status?: unknown }).status;
  const currentStatus = (current as { status?: unknown }).status;
  if (sub === 'status') next = { ...deepClone(current), status };
  else if (currentStatus !== undefined) next = { ...next, status: currentStatus };
  let changed = !jsonEqual(current, next);
  let result: AnyObject | Record<string, unknown> = next;
  if (changed && !offline) {
    if (sub === 'status' && mode === 'none' && ctx.host.api.updateStatus) {
      result = ctx.host.api.updateStatus(next as AnyObject);
    } else {
      // The server decodes the patched object (dropping unknown fields with a warning) and does not
      // write an object that comes out equal to the stored one: kubectl then says "(no change)".
      const decoded = write(ctx, next as Manifest, 'server');
      changed = !sameObject(decoded, current);
      result =
        changed && mode === 'none'
          ? ctx.host.api.update(next as Manifest, { fieldValidation: 'Ignore' })
          : decoded;
    }
  }
  printOutcome(ctx, result as Manifest, changed ? 'patched' : 'patched (no change)', mode);
}

/** Equal but for what every write changes (resourceVersion, managedFields). */
export function sameObject(a: AnyObject, b: AnyObject): boolean {
  const strip = (o: AnyObject) => ({
    ...o,
    metadata: { ...o.metadata, resourceVersion: undefined, managedFields: undefined },
  });
  return jsonEqual(strip(a), strip(b));
}

function write(ctx: KubectlContext, manifest: Manifest, mode: DryRun): AnyObject {
  const warnings: string[] = [];
  try {
    return ctx.host.api.update(manifest, { fieldValidation: 'Warn', dryRun: mode === 'server', warnings });
  } finally {
    printWarnings(ctx, warnings);
  }
}

export function runPatch(ctx: KubectlContext): number {
  const f = ctx.flags;
  const patchText = f.string('patch');
  const patchFile = f.string('patch-file');
  if (patchText !== '' && patchFile !== '')
    throw cmdError('cannot specify --patch and --patch-file together');
  if (patchText === '' && patchFile === '')
    throw cmdError('must specify --patch or --patch-file containing the contents of the patch');
  const local = f.bool('local');
  const mode = dryRunMode(ctx);
  if (local && f.args.length > 0) throw cmdError('cannot specify --local and server resources');
  if (local && mode === 'server')
    throw cmdError('cannot specify --local and --dry-run=server - did you mean --dry-run=client?');
  const typeText = f.string('type');
  const type = typeText.toLowerCase();
  if (type !== 'json' && type !== 'merge' && type !== 'strategic')
    throw cmdError(`--type must be one of [json merge strategic], not ${JSON.stringify(typeText)}`);
  const sub = f.string('subresource');
  if (sub !== '' && !SUBRESOURCES.includes(sub))
    throw cmdError(
      `invalid subresource value: ${JSON.stringify(sub)}. Must be one of [${SUBRESOURCES.join(' ')}]`,
    );
  let text = patchText;
  if (patchFile !== '') {
    const read = ctx.host.files.read(patchFile);
    if (read === undefined)
      throw cmdError(`unable to read patch file: open ${patchFile}: no such file or directory`);
    text = read;
  }
  const patch = parsePatchText(text);
  const { found, errors } = local
    ? localTargets(ctx, NO_RESOURCES)
    : visitTargets(ctx, f.args, { selectors: false });
  if (found.length === 0 && errors.length === 0) throw cmdError('no objects passed to patch');
  const all: unknown[] = [...errors];
  for (const x of found) {
    try {
      patchOne(ctx, x, type, patch, mode, local);
    } catch (e) {
      all.push(e);
    }
  }
  return reportErrors(ctx, all);
}
