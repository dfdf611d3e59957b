/**
 * Mapping `-f` manifests to API resources, with the builder's errors: missing apiVersion/kind (from
 * the validating schema), kinds the server does not know ("resource mapping not found … ensure CRDs
 * are installed first"), and a namespace that contradicts an explicit `-n`.
 */
import type { Manifest } from '../../api/objects.ts';
import { resourceForKind, type ResourceInfo } from '../../api/resources.ts';
import { isPlainObject } from '../../util/json.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError } from '../errors.ts';
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
  const m = sm.manifest;
  const apiVersion = typeof m.apiVersion === 'string' ? m.apiVersion : '';
  const kind = typeof m.kind === 'string' ? m.kind : '';
  if (apiVersion === '' || kind === '') {
    if (validate) {
      const missing = [
        ...(apiVersion === '' ? ['apiVersion not set'] : []),
        ...(kind === '' ? ['kind not set'] : []),
      ];
      const detail = missing.length === 1 ? missing[0] : `[${missing.join(', ')}]`;
      throw cmdError(`error validating "${sm.source}": error validating data: ${detail}; ${STOP_VALIDATE}`);
    }
    const what = kind === '' ? 'Kind' : 'Version';
    throw cmdError(`unable to decode "${sm.source}": Object '${what}' is missing in '${JSON.stringify(m)}'`);
  }
  const meta = metaOf(m);
  const name = typeof meta.name === 'string' ? meta.name : '';
  const info = resourceForKind(apiVersion, kind);
  if (!info) {
    const ns = typeof meta.namespace === 'string' ? meta.namespace : '';
    const version = apiVersion.includes('/') ? apiVersion : apiVersion;
    throw cmdError(
      `resource mapping not found for name: "${name}" namespace: "${ns}" from "${sm.source}": no matches for kind "${kind}" in version "${version}"\nensure CRDs are installed first`,
    );
  }
  let namespace: string | undefined;
  if (info.namespaced) {
    const own = typeof meta.namespace === 'string' && meta.namespace !== '' ? meta.namespace : undefined;
    if (own && ctx.explicitNamespace && own !== ctx.namespace) {
      throw cmdError(
        `the namespace from the provided object "${own}" does not match the namespace "${ctx.namespace}". You must pass '--namespace=${own}' to perform this operation.`,
      );
    }
    namespace = own ?? ctx.namespace;
  }
  return { source: sm.source, manifest: m, info, name, namespace };
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
