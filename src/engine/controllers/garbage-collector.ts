/**
 * The garbage collector (pkg/controller/garbagecollector): an object whose owners (ownerReferences)
 * are all gone is deleted — background propagation, so deleting a Deployment removes its ReplicaSets,
 * which removes their pods (gracefully). Dangling references next to a live owner are dropped. An
 * owner being deleted with the `orphan` finalizer (`kubectl delete --cascade=orphan`) first has its
 * dependents' references removed; with `foregroundDeletion` its dependents go first.
 *
 * Simplified: the dependency graph is recomputed from the store on each run instead of kept by
 * informers.
 */
import type { AnyObject, ResourceKey } from '../api/objects.ts';
import type { Controller, ControllerContext } from './runtime.ts';
import { RESOURCES } from '../api/resources.ts';
import { deepClone } from '../util/json.ts';

const KEYS = RESOURCES.map((r) => r.key).filter((k) => k !== 'events');

export class GarbageCollector implements Controller {
  readonly name = 'garbage-collector';
  private readonly ctx: ControllerContext;
  private dirty = false;
  private unwatch: (() => void) | undefined;

  constructor(ctx: ControllerContext) {
    this.ctx = ctx;
  }

  start(): void {
    this.unwatch?.();
    this.unwatch = this.ctx.api.watch('*', (e) => {
      if (e.resource === 'events') return;
      if (
        e.type === 'DELETED' ||
        e.object.metadata.deletionTimestamp ||
        (e.type === 'ADDED' && e.object.metadata.ownerReferences)
      ) {
        this.dirty = true;
      }
    });
    this.dirty = true;
  }

  sync(): boolean {
    if (!this.dirty) return false;
    this.dirty = false;
    const { api } = this.ctx;
    const all: { key: ResourceKey; obj: AnyObject }[] = [];
    for (const key of KEYS) for (const obj of api.list(key)) all.push({ key, obj: obj });
    const byUid = new Map(all.map((o) => [o.obj.metadata.uid, o]));
    let wrote = false;
    for (const { key, obj } of all) {
      wrote = this.finalizeOwner(key, obj, all) || wrote;
      const refs = obj.metadata.ownerReferences ?? [];
      if (refs.length === 0) continue;
      const live = refs.filter((r) => byUid.has(r.uid));
      if (live.length === refs.length) continue;
      try {
        if (live.length === 0) {
          // Already being deleted gracefully (a terminating pod): nothing more to do.
          if (obj.metadata.deletionTimestamp) continue;
          api.delete(key, obj.metadata.namespace, obj.metadata.name);
        } else {
          const next = deepClone(obj);
          next.metadata.ownerReferences = live;
          api.updateMetadata(next);
        }
        wrote = true;
      } catch {
        // Gone meanwhile.
      }
    }
    if (wrote) this.dirty = true;
    return wrote;
  }

  /** Orphan / foreground finalizers on an owner being deleted. */
  private finalizeOwner(
    key: ResourceKey,
    owner: AnyObject,
    all: readonly { key: ResourceKey; obj: AnyObject }[],
  ): boolean {
    const finalizers = owner.metadata.finalizers ?? [];
    if (!owner.metadata.deletionTimestamp || finalizers.length === 0) return false;
    const { api } = this.ctx;
    const dependents = all.filter((o) =>
      o.obj.metadata.ownerReferences?.some((r) => r.uid === owner.metadata.uid),
    );
    if (finalizers.includes('orphan')) {
      for (const d of dependents) {
        const next = deepClone(d.obj);
        const kept = (next.metadata.ownerReferences ?? []).filter((r) => r.uid !== owner.metadata.uid);
        // An empty list is omitted (omitempty), as the GC's delete-patch leaves it.
        if (kept.length > 0) next.metadata.ownerReferences = kept;
        else delete next.metadata.ownerReferences;
        api.updateMetadata(next);
      }
    } else if (finalizers.includes('foregroundDeletion')) {
      // Waiting on dependents writes nothing; their DELETED events bring the collector back.
      let wrote = false;
      for (const d of dependents) {
        if (d.obj.metadata.deletionTimestamp) continue;
        // attemptToDeleteItem: a dependent that owns objects itself is deleted in the foreground too,
        // so a Deployment waits for its ReplicaSets, which wait for their pods.
        const owns = all.some((o) =>
          o.obj.metadata.ownerReferences?.some((r) => r.uid === d.obj.metadata.uid),
        );
        api.delete(
          d.key,
          d.obj.metadata.namespace,
          d.obj.metadata.name,
          owns ? { propagationPolicy: 'Foreground' } : {},
        );
        wrote = true;
      }
      if (dependents.length > 0) return wrote;
    } else return false;
    const next = deepClone(owner);
    next.metadata.finalizers = finalizers.filter((f) => f !== 'orphan' && f !== 'foregroundDeletion');
    api.updateMetadata(next);
    // The last finalizer gone, the delete completes as an ordinary one: a pod on a node still goes
    // through the kubelet's graceful termination, a Service gives its cluster IP back. An object whose
    // grace period was 0 went with the update itself.
    if (next.metadata.finalizers.length === 0 && api.get(key, owner.metadata.namespace, owner.metadata.name))
      api.delete(key, owner.metadata.namespace, owner.metadata.name);
    return true;
  }
}
