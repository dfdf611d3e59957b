/**
 * kube-apiserver in miniature: every write from kubectl and from controllers passes through here, in
 * the real server's order: decode (resolve apiVersion/kind, strict field validation) → defaulting →
 * mutating admission (namespace lifecycle, service account, priority, default tolerations) →
 * strategy (`PrepareForCreate`/`PrepareForUpdate`) → IP and port allocation → validation → storage.
 *
 * Reads go straight to the store. Deletion of pods is graceful (deletionTimestamp, the kubelet
 * finishes it); an object with finalizers stays, marked, until the last one is removed; cascading
 * deletion of owned objects is the garbage collector's job.
 */
import type { ApiStore, NewObject, WatchHandler } from '../api/store.ts';
import type { AnyObject, Manifest, ResourceKey, ResourceTypes, Written } from '../api/objects.ts';
import type { ClusterConfig } from '../api/cluster-config.ts';
import type { SimClock } from '../util/clock.ts';
import type { Rng } from '../util/rng.ts';
import { decodeManifest, type DecodedObject, type FieldValidation } from './decode.ts';
import { applyDefaults } from './defaults.ts';
import { validateMetadataWrite, validateObject, validateUpdate } from './validation.ts';
import { Allocators } from './allocators.ts';
import { admitPod } from './admission.ts';
import { prepareForCreate, prepareForUpdate } from './strategy.ts';
import { badRequest, forbidden, notFound } from '../api/errors.ts';
import { resourceForKind, resourceInfo, type ResourceInfo } from '../api/resources.ts';
import { deepClone } from '../util/json.ts';
import { sortedClone } from './json-values.ts';

export type { FieldValidation };

export interface WriteOptions {
  /** kubectl's `--validate`: strict (default) rejects unknown fields, warn reports them, ignore drops them. */
  readonly fieldValidation?: FieldValidation;
  /** `--dry-run=server`: run every step but storage. */
  readonly dryRun?: boolean;
  /** Receives warning texts without kubectl's `Warning: ` prefix (unknown fields under Warn). */
  readonly warnings?: string[];
}

export interface DeleteOptions {
  /** Pods only: 0 deletes at once; otherwise the pod is Terminating until the kubelet finishes. */
  readonly gracePeriodSeconds?: number;
  readonly dryRun?: boolean;
  /** `kubectl delete --cascade`: Orphan and Foreground leave the object to the garbage collector. */
  readonly propagationPolicy?: 'Background' | 'Orphan' | 'Foreground';
}

/** The finalizer the garbage collector honours for each non-default propagation policy. */
const GC_FINALIZERS = { Orphan: 'orphan', Foreground: 'foregroundDeletion' } as const;

export interface ApiServerContext {
  readonly clock: SimClock;
  readonly rng: Rng;
  readonly config: ClusterConfig;
}

/** The namespaces the NamespaceLifecycle admission plugin never lets go (`immortalNamespaces`). */
export const IMMORTAL_NAMESPACES: ReadonlySet<string> = new Set([
  'default',
  'kube-system',
  'kube-public',
  'kube-node-lease',
]);

export class ApiServer {
  readonly allocators: Allocators;
  readonly store: ApiStore;
  private readonly ctx: ApiServerContext;

  constructor(store: ApiStore, ctx: ApiServerContext) {
    this.store = store;
    this.ctx = ctx;
    this.allocators = new Allocators(ctx.config, ctx.rng, store);
  }

  get<K extends ResourceKey>(
    resource: K,
    namespace: string | undefined,
    name: string,
  ): ResourceTypes[K] | undefined {
    return this.store.get(resource, namespace, name);
  }

  mustGet<K extends ResourceKey>(resource: K, namespace: string | undefined, name: string): ResourceTypes[K] {
    return this.store.mustGet(resource, namespace, name);
  }

  list<K extends ResourceKey>(resource: K, namespace?: string): ResourceTypes[K][] {
    return this.store.list(resource, namespace);
  }

  /** Objects found through a store index (see ApiStore.addIndex). */
  byIndex<K extends ResourceKey>(resource: K, index: string, value: string): ResourceTypes[K][] {
    return this.store.byIndex(resource, index, value);
  }

  watch(resource: ResourceKey | '*', handler: WatchHandler): () => void {
    return this.store.watch(resource, handler);
  }

  /**
   * POST: a new object from a manifest (or from a controller). Throws StatusError, or kubectl's
   * client-side `ManifestTypeError` / `NoKindMatchError` for a manifest no request could be built from.
   * Typed by the manifest's kind (see `Written`): `create({ kind: 'Pod', … })` gives a Pod.
   */
  create<const M extends Manifest>(manifest: M, opts: WriteOptions = {}): Written<M> {
    const { info, object } = decodeManifest(manifest, { ...opts, rng: this.ctx.rng });
    if (object.metadata.resourceVersion)
      throw badRequest('resourceVersion should not be set on objects to be created');
    return this.createDecoded(info, object, opts) as Written<M>;
  }

  /**
   * POST of an object a workload controller stamps out of a stored template (controller_utils
   * `GetPodFromTemplate`, the Deployment controller's new ReplicaSet). The template was decoded and
   * defaulted when its owner was written, so decoding it again only puts the keys defaulting added
   * back in sorted order: a sorted copy is the same object for a fraction of the cost (the scale
   * bench stamps 1,000 ReplicaSets and 5,000 pods). The controller's own fields must be well-typed.
   * Defaults, admission and validation run as for any object. create-from-template.test.ts compares
   * this path with `create`.
   */
  createFromTemplate<const M extends Manifest>(manifest: M): Written<M> {
    const object = sortedClone(manifest) as DecodedObject;
    const info = resourceForKind(object.apiVersion, object.kind);
    if (!info) throw badRequest(`no resource for ${object.apiVersion}/${object.kind}`);
    return this.createDecoded(info, object, {}) as Written<M>;
  }

  /** The rest of a POST once the object is decoded: defaults, admission, validation, storage. */
  private createDecoded(info: ResourceInfo, object: DecodedObject, opts: WriteOptions): AnyObject {
    applyDefaults(info, object, this.ctx);
    this.admitNamespace(info, object);
    if (info.key === 'pods') admitPod(object, this.store, this.ctx.rng);
    prepareForCreate(info, object as unknown as { metadata: Record<string, unknown> });
    const allocation = this.allocators.begin();
    try {
      allocation.allocateFor(info, object);
      validateObject(info, object, this.ctx);
      if (opts.dryRun) {
        allocation.rollback();
        return object as AnyObject;
      }
      // Decoding (or createFromTemplate's sorted copy) built the object afresh: new maps and arrays,
      // only scalars shared with the manifest. The store takes it without another copy.
      const stored = this.store.create(info.key, object as NewObject, { adopt: true });
      allocation.commit();
      return stored;
    } catch (e) {
      allocation.rollback();
      throw e;
    }
  }

  /**
   * POST for objects our own components build complete and valid (the event recorder's Events): the
   * namespace must still admit content, then straight to storage. Decoding and strict validation would
   * only confirm what the builder guarantees, and at scale they cost more than the write itself.
   * The builder must hand over exactly what decoding would have produced (known fields, keys sorted,
   * no nulls), built fresh for this call: the store keeps it without a copy. event-recorder.test.ts
   * compares both paths.
   */
  createTrusted<K extends ResourceKey>(resource: K, object: NewObject): ResourceTypes[K] {
    const info = resourceInfo(resource);
    this.admitNamespace(info, object as DecodedObject);
    return this.store.create(resource, object, { adopt: true });
  }

  /** PUT counterpart of createTrusted (an Event's count and lastTimestamp moving on). */
  updateTrusted<K extends ResourceKey>(resource: K, object: AnyObject): ResourceTypes[K] {
    return this.store.update(resource, object);
  }

  /**
   * PUT: replaces an existing object; immutable fields are checked against the stored version. Typed
   * as `create` is: writing back a Pod gives the stored Pod.
   */
  update<const M extends Manifest>(manifest: M, opts: WriteOptions = {}): Written<M> {
    const { info, object } = decodeManifest(manifest, opts);
    applyDefaults(info, object, this.ctx);
    const ns = info.namespaced ? (object.metadata.namespace ?? 'default') : undefined;
    if (ns !== undefined) object.metadata.namespace = ns;
    else delete object.metadata.namespace;
    const old = this.store.get(info.key, ns, object.metadata.name) as AnyObject | undefined;
    if (!old) throw notFound(info.key, object.metadata.name);
    const next = object as AnyObject;
    prepareForUpdate(info, next, old);
    keepDeletion(next, old);
    const allocation = this.allocators.begin();
    try {
      allocation.reallocateFor(info, next, old);
      validateUpdate(info, next, old, this.ctx);
      if (opts.dryRun) {
        allocation.rollback();
        return next as Written<M>;
      }
      const stored = this.store.update(info.key, next);
      allocation.commit();
      this.deleteIfFinalized(info.key, stored, old);
      return stored as Written<M>;
    } catch (e) {
      allocation.rollback();
      throw e;
    }
  }

  /** PUT on the status subresource: only .status changes; everything else stays as stored. */
  updateStatus<T extends AnyObject>(object: T): T {
    const info = resourceInfo(this.keyOf(object));
    return this.store.updateStatus(
      info.key,
      object.metadata.namespace,
      object.metadata.name,
      object.status,
    ) as T;
  }

  /** Writes metadata changes (labels, annotations, finalizers, ownerReferences) without touching spec/status validation. */
  updateMetadata<T extends AnyObject>(object: T): T {
    const info = resourceInfo(this.keyOf(object));
    const old = this.store.mustGet(info.key, object.metadata.namespace, object.metadata.name);
    const next = {
      ...old,
      metadata: { ...object.metadata, resourceVersion: old.metadata.resourceVersion },
    } as AnyObject;
    keepDeletion(next, old);
    validateMetadataWrite(info, next);
    const stored = this.store.update(info.key, next);
    this.deleteIfFinalized(info.key, stored, old);
    return stored as T;
  }

  /**
   * registry Store.Update's `ShouldDeleteDuringUpdate`: the write that removes the last finalizer of an
   * object whose deletion only waited for them (deletionTimestamp set, grace period 0) deletes it.
   */
  private deleteIfFinalized(resource: ResourceKey, stored: AnyObject, old: AnyObject): void {
    if ((stored.metadata.finalizers?.length ?? 0) > 0 || !old.metadata.deletionTimestamp) return;
    if ((old.metadata.deletionGracePeriodSeconds ?? 0) !== 0) return;
    const removed = this.store.delete(resource, stored.metadata.namespace, stored.metadata.name) as AnyObject;
    this.allocators.release(resourceInfo(resource), removed);
  }

  /**
   * DELETE. Pods on a node are marked (deletionTimestamp + grace period) and finished by the kubelet;
   * namespaces turn Terminating until the namespace controller has emptied them; everything else goes
   * at once. The four system namespaces cannot be deleted (NamespaceLifecycle).
   */
  delete(
    resource: ResourceKey,
    namespace: string | undefined,
    name: string,
    opts: DeleteOptions = {},
  ): AnyObject {
    if (resource === 'namespaces' && IMMORTAL_NAMESPACES.has(name)) {
      throw forbidden('namespaces', name, 'this namespace may not be deleted');
    }
    const existing = this.store.mustGet(resource, namespace, name) as AnyObject;
    if (opts.dryRun) return existing;
    if (resource === 'namespaces') {
      // Namespace REST Delete: with finalizers the namespace only turns Terminating; the namespace
      // controller empties it and removes it.
      const ns = existing as ResourceTypes['namespaces'];
      if ((ns.spec?.finalizers?.length ?? 0) > 0) {
        if (ns.metadata.deletionTimestamp) return existing;
        const marked = deepClone(ns);
        (marked.metadata as unknown as Record<string, unknown>).deletionTimestamp = this.ctx.clock.rfc3339();
        marked.status = { ...(marked.status as object | undefined), phase: 'Terminating' };
        return this.store.update('namespaces', marked);
      }
    }
    const policy = opts.propagationPolicy;
    if (policy === 'Orphan' || policy === 'Foreground')
      return this.markForCollection(resource, existing, policy, opts);
    if (resource === 'pods') {
      const pod = existing as ResourceTypes['pods'];
      const grace = opts.gracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
      if (pod.spec?.nodeName && grace > 0) {
        if (pod.metadata.deletionTimestamp) return existing;
        const marked = deepClone(pod);
        const meta = marked.metadata as unknown as Record<string, unknown>;
        meta.deletionTimestamp = this.ctx.clock.rfc3339(this.ctx.clock.now() + grace * 1000);
        meta.deletionGracePeriodSeconds = grace;
        return this.store.update('pods', marked);
      }
    }
    // registry Store.Delete with finalizers pending (updateForGracefulDeletionAndFinalizers): the object
    // only gets its deletionTimestamp, its grace period now 0 (the kubelet's final delete of a pod
    // shortens it), and stays until the last finalizer is removed (deleteIfFinalized).
    if ((existing.metadata.finalizers?.length ?? 0) > 0) {
      if (existing.metadata.deletionTimestamp && existing.metadata.deletionGracePeriodSeconds === 0)
        return existing;
      const marked = deepClone(existing);
      const meta = marked.metadata as unknown as Record<string, unknown>;
      meta.deletionTimestamp = this.ctx.clock.rfc3339();
      meta.deletionGracePeriodSeconds = 0;
      return this.store.update(resource, marked);
    }
    const removed = this.store.delete(resource, namespace, name) as AnyObject;
    this.allocators.release(resourceInfo(resource), removed);
    return removed;
  }

  /**
   * registry Store.Delete with an orphan or foreground policy (`deletionFinalizersForGarbageCollection`):
   * the object gets the GC's finalizer and a deletionTimestamp and stays until the garbage collector has
   * dealt with its dependents and removed the finalizer. A pod on a node keeps its grace period.
   */
  private markForCollection(
    resource: ResourceKey,
    existing: AnyObject,
    policy: 'Orphan' | 'Foreground',
    opts: DeleteOptions,
  ): AnyObject {
    const marked = deepClone(existing);
    const meta = marked.metadata as unknown as Record<string, unknown>;
    const kept = (existing.metadata.finalizers ?? []).filter(
      (f) => f !== 'orphan' && f !== 'foregroundDeletion',
    );
    meta.finalizers = [...kept, GC_FINALIZERS[policy]];
    if (!existing.metadata.deletionTimestamp) {
      const pod = resource === 'pods' ? (existing as ResourceTypes['pods']) : undefined;
      const grace = pod?.spec?.nodeName
        ? (opts.gracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30)
        : 0;
      meta.deletionTimestamp = this.ctx.clock.rfc3339(this.ctx.clock.now() + grace * 1000);
      meta.deletionGracePeriodSeconds = grace;
    }
    return this.store.update(resource, marked);
  }

  /** The resource key of a stored object, from its apiVersion and kind. */
  keyOf(object: { apiVersion: string; kind: string }): ResourceKey {
    const info = resourceForKind(object.apiVersion, object.kind);
    if (!info) throw badRequest(`no resource for ${object.apiVersion}, Kind=${object.kind}`);
    return info.key;
  }

  /**
   * NamespaceLifecycle admission: the namespace must exist and not be terminating. Cluster-scoped
   * objects lose any namespace they were given, as `rest.BeforeCreate` clears it.
   */
  private admitNamespace(info: ResourceInfo, object: DecodedObject): void {
    if (!info.namespaced) {
      delete object.metadata.namespace;
      return;
    }
    const namespace = object.metadata.namespace || 'default';
    object.metadata.namespace = namespace;
    const ns = this.store.get('namespaces', undefined, namespace);
    if (!ns) throw notFound('namespaces', namespace);
    if (ns.metadata.deletionTimestamp) {
      throw forbidden(
        info.key,
        object.metadata.name,
        `unable to create new content in namespace ${namespace} because it is being terminated`,
      );
    }
  }
}

/** rest.BeforeUpdate: an update can never remove or change a deletion timestamp or its grace period. */
function keepDeletion(next: AnyObject, old: AnyObject): void {
  const meta = next.metadata as unknown as Record<string, unknown>;
  if (old.metadata.deletionTimestamp) meta.deletionTimestamp = old.metadata.deletionTimestamp;
  if (old.metadata.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds === undefined)
    meta.deletionGracePeriodSeconds = old.metadata.deletionGracePeriodSeconds;
}
