/**
 * Pod and ownership helpers shared by the workload controllers (pkg/controller/controller_utils.go,
 * pkg/api/v1/pod/util.go).
 */
import type { OwnerReference } from 'kubernetes-types/meta/v1';
import type { ApiServer } from '../apiserver/apiserver.ts';
import type { AnyObject, Manifest, ManifestOf, Pod, Written } from '../api/objects.ts';
import type { Rng } from '../util/rng.ts';
import type { EventSink } from './runtime.ts';
import { isStatusError } from '../api/errors.ts';

export function controllerRef(owner: AnyObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name,
    uid: owner.metadata.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}

export function controllerOf(obj: {
  metadata: { ownerReferences?: OwnerReference[] };
}): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller);
}

export function isControlledBy(
  obj: { metadata: { ownerReferences?: OwnerReference[] } },
  owner: AnyObject,
): boolean {
  return controllerOf(obj)?.uid === owner.metadata.uid;
}

/**
 * Creates an object named `<prefix><5 random characters>` the way the API server fills in
 * generateName (`names.SimpleNameGenerator`), retrying on a name clash. `post` is the API call that
 * stores it: `create`, or `createFromTemplate` for a pod stamped out of a stored template.
 */
export function createWithGeneratedName<M extends Manifest>(
  api: ApiServer,
  rng: Rng,
  manifest: M,
  prefix: string,
  post: (named: M) => Written<M> = (named) => api.create(named),
): Written<M> | undefined {
  const meta = (manifest.metadata ?? {}) as Record<string, unknown>;
  for (let i = 0; i < 8; i++) {
    const name = `${prefix.slice(0, 58)}${rng.nameSuffix(5)}`;
    try {
      return post({ ...manifest, metadata: { ...meta, name, generateName: prefix } });
    } catch (e) {
      if (isStatusError(e) && e.reason === 'AlreadyExists') continue;
      throw e;
    }
  }
  return undefined;
}

/**
 * controller_utils `RealPodControl.CreatePods`: creates a controller's pod and records the outcome on
 * the owner, `SuccessfulCreate` (`Created pod: NAME`) or, when the API server refuses it (admission,
 * quota), `FailedCreate` (`Error creating: …`). Returns whether a pod was created.
 */
export function createControlledPod(
  ctx: { readonly api: ApiServer; readonly rng: Rng; readonly recorder: EventSink },
  owner: AnyObject,
  component: string,
  manifest: ManifestOf<'Pod'>,
  prefix: string,
  post?: (named: ManifestOf<'Pod'>) => Pod,
): boolean {
  let created: Pod | undefined;
  try {
    created = createWithGeneratedName(ctx.api, ctx.rng, manifest, prefix, post);
  } catch (e) {
    if (!isStatusError(e)) throw e;
    ctx.recorder.event(owner, 'Warning', 'FailedCreate', `Error creating: ${e.message}`, { component });
    return false;
  }
  if (!created) return false;
  ctx.recorder.event(owner, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`, {
    component,
  });
  return true;
}
