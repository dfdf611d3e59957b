/**
 * The API server's storage: versioned objects and watches, like etcd behind kube-apiserver. Objects
 * handed out are the stored instances themselves; callers must never mutate them (copy with
 * `deepClone`, change, then `update`). Watch handlers run synchronously and must only enqueue work:
 * controllers act later, in the cluster's settle loop, as informers decouple them in Kubernetes.
 */
import { alreadyExists, conflict, notFound } from './errors.ts';
import type { AnyObject, ResourceKey, ResourceTypes, StoredMeta } from './objects.ts';
import { resourceInfo } from './resources.ts';
import type { SimClock } from '../util/clock.ts';
import type { Rng } from '../util/rng.ts';
import { deepClone, deepCloneReusing, jsonEqual } from '../util/json.ts';
import { Table, type IndexFn, type IndexInput } from './table.ts';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface WatchEvent {
  readonly type: WatchEventType;
  readonly resource: ResourceKey;
  readonly object: AnyObject;
  /** The previous version, for MODIFIED and DELETED. */
  readonly oldObject?: AnyObject;
}

export type WatchHandler = (event: WatchEvent) => void;

export interface StoreSnapshot {
  readonly resourceVersion: number;
  readonly objects: readonly { resource: ResourceKey; object: AnyObject }[];
}

/** An object as given to create(): metadata.name set, the rest filled in by the store. */
export type NewObject = Omit<AnyObject, 'metadata'> & {
  metadata: Partial<StoredMeta> & { name: string };
};

/**
 * Resources whose registry strategy tracks metadata.generation (set to 1 on create, bumped on spec
 * changes): the workload controllers, Pods (PodObservedGenerationTracking, on by default since v1.34),
 * EndpointSlices, the networking kinds and every custom resource. ConfigMaps, Services, Namespaces,
 * Nodes and Events have none on a real cluster.
 */
const GENERATION_TRACKED = new Set<ResourceKey>([
  'pods',
  'deployments.apps',
  'replicasets.apps',
  'daemonsets.apps',
  'endpointslices.discovery.k8s.io',
  'networkpolicies.networking.k8s.io',
  'ingresses.networking.k8s.io',
  'ingressclasses.networking.k8s.io',
  'gatewayclasses.gateway.networking.k8s.io',
  'gateways.gateway.networking.k8s.io',
  'httproutes.gateway.networking.k8s.io',
  'referencegrants.gateway.networking.k8s.io',
  'ipaddresspools.metallb.io',
  'l2advertisements.metallb.io',
]);

export const POD_NODE_INDEX = 'spec.nodeName';
export const EVENT_OBJECT_INDEX = 'involvedObject.uid';
export const SLICE_SERVICE_INDEX = 'kubernetes.io/service-name';
/** Pods and ReplicaSets by the uid of their controller (the ownerReference with `controller: true`). */
export const POD_CONTROLLER_INDEX = 'metadata.ownerReferences.controller';
/** Pods without a controller, by namespace: the orphans a ReplicaSet may adopt. */
export const POD_ORPHAN_INDEX = 'orphans';
/** Pods by each of their labels, as `namespace/key=value`. */
export const POD_LABEL_INDEX = 'metadata.labels';
/**
 * Services by the first key of their selector (in key order), as `namespace/key=value`: a pod can only
 * match a Service with a label equal to that pair, so looking up each of the pod's labels finds every
 * Service that may select it (see labelSelectorKeys).
 */
export const SERVICE_SELECTOR_INDEX = 'spec.selector';

/** `namespace/key=value` for every label: the keys POD_LABEL_INDEX and SERVICE_SELECTOR_INDEX use. */
export function labelIndexKeys(
  namespace: string | undefined,
  labels: Record<string, string> | undefined,
): string[] {
  const out: string[] = [];
  for (const k in labels) out.push(`${namespace ?? ''}/${k}=${labels[k]}`);
  return out;
}

/**
 * Stored objects that a snapshot has handed out. They are immutable like every stored object, so a
 * restore may share them instead of copying (see ApiStore.snapshot).
 */
const HANDED_OUT = new WeakSet<object>();

/**
 * Keys handed out so far, by namespace and name, and their parts by key. A fresh key string is
 * flattened and hashed by every Set and Map it meets, and a settle queues hundreds of thousands
 * (each watch event, for each controller); the same pair gives back the same string, hashed once,
 * from names the stored objects already hold hashed. A pure memo of objectKey: shared by every
 * cluster, and dropped whole when it grows past INTERNED_KEYS_LIMIT so that it stays bounded.
 */
const KEYS = new Map<string, Map<string, string>>();
const KEY_PARTS = new Map<string, readonly [string, string]>();
const INTERNED_KEYS_LIMIT = 200_000;

/** `namespace/name` (just `name` for cluster-scoped objects): the key controllers queue objects by. */
export function objectKey(namespace: string | undefined, name: string): string {
  const ns = namespace ?? '';
  let names = KEYS.get(ns);
  let key = names?.get(name);
  if (key !== undefined) return key;
  if (KEY_PARTS.size >= INTERNED_KEYS_LIMIT) {
    KEYS.clear();
    KEY_PARTS.clear();
    names = undefined;
  }
  if (!names) KEYS.set(ns, (names = new Map()));
  key = ns ? `${ns}/${name}` : name;
  names.set(name, key);
  KEY_PARTS.set(key, [ns, name]);
  return key;
}

/** The namespace ('' when none) and name of an objectKey. */
export function splitKey(key: string): readonly [string, string] {
  const parts = KEY_PARTS.get(key);
  if (parts) return parts;
  const i = key.indexOf('/');
  return i < 0 ? ['', key] : [key.slice(0, i), key.slice(i + 1)];
}

/** What a reader of objects needs: get and list (the API server and the store both provide it). */
export type ObjectReader = Pick<ApiStore, 'get' | 'list'>;

export class ApiStore {
  private readonly tables = new Map<ResourceKey, Table>();
  private readonly watchers = new Map<ResourceKey | '*', Set<WatchHandler>>();
  private revision = 0;

  private readonly clock: SimClock;
  private readonly rng: Rng;

  constructor(clock: SimClock, rng: Rng) {
    this.clock = clock;
    this.rng = rng;
    // The third argument names what each index reads (a namespace never changes on update).
    const spec = (o: AnyObject) => o.spec;
    const owners = (o: AnyObject) => o.metadata.ownerReferences;
    const labels = (o: AnyObject) => o.metadata.labels;
    this.addIndex(
      'pods',
      POD_NODE_INDEX,
      (o) => (o.spec as { nodeName?: string } | undefined)?.nodeName,
      spec,
    );
    this.addIndex(
      'events',
      EVENT_OBJECT_INDEX,
      (o) => (o.involvedObject as { uid?: string } | undefined)?.uid,
      (o) => o.involvedObject,
    );
    this.addIndex('pods', POD_CONTROLLER_INDEX, (o) => controllerUid(o), owners);
    this.addIndex('replicasets.apps', POD_CONTROLLER_INDEX, (o) => controllerUid(o), owners);
    this.addIndex(
      'pods',
      POD_ORPHAN_INDEX,
      (o) => (controllerUid(o) === undefined ? (o.metadata.namespace ?? '') : undefined),
      owners,
    );
    this.addIndex(
      'pods',
      POD_LABEL_INDEX,
      (o) => labelIndexKeys(o.metadata.namespace, o.metadata.labels),
      labels,
    );
    this.addIndex(
      'services',
      SERVICE_SELECTOR_INDEX,
      (o) => {
        const selector = (o.spec as { selector?: Record<string, string> } | undefined)?.selector;
        const first = Object.keys(selector ?? {}).sort()[0];
        return first === undefined ? undefined : `${o.metadata.namespace ?? ''}/${first}=${selector![first]}`;
      },
      spec,
    );
    this.addIndex(
      'endpointslices.discovery.k8s.io',
      SLICE_SERVICE_INDEX,
      (o) => {
        const svc = o.metadata.labels?.['kubernetes.io/service-name'];
        return svc === undefined ? undefined : `${o.metadata.namespace ?? ''}/${svc}`;
      },
      labels,
    );
  }

  /**
   * Registers a secondary index (like a client-go indexer). Built-in ones: pods by node
   * (`POD_NODE_INDEX`), by controller (`POD_CONTROLLER_INDEX`, `POD_ORPHAN_INDEX`) and by label
   * (`POD_LABEL_INDEX`); Services by selector (`SERVICE_SELECTOR_INDEX`); events by involved object
   * uid (`EVENT_OBJECT_INDEX`), EndpointSlices by `namespace/service` (`SLICE_SERVICE_INDEX`).
   */
  addIndex(resource: ResourceKey, name: string, fn: IndexFn, reads?: IndexInput): void {
    this.table(resource).addIndex(name, fn, reads);
  }

  /** Objects of `resource` whose index `name` has `value`, sorted by namespace then name. */
  byIndex<K extends ResourceKey>(resource: K, name: string, value: string): ResourceTypes[K][] {
    return this.table(resource).byIndex(name, value) as ResourceTypes[K][];
  }

  /** Like byIndex, but the index's cached list itself: callers must neither change nor keep it. */
  byIndexShared<K extends ResourceKey>(
    resource: K,
    name: string,
    value: string,
  ): readonly ResourceTypes[K][] {
    return this.table(resource).byIndexShared(name, value) as readonly ResourceTypes[K][];
  }

  /** Whether some object of `resource` with index `name` = `value` satisfies `fn` (unordered; see Table.someIndexed). */
  someIndexed<K extends ResourceKey>(
    resource: K,
    name: string,
    value: string,
    fn: (obj: ResourceTypes[K]) => boolean,
  ): boolean {
    return this.table(resource).someIndexed(name, value, fn as (obj: AnyObject) => boolean);
  }

  get resourceVersion(): number {
    return this.revision;
  }

  get<K extends ResourceKey>(
    resource: K,
    namespace: string | undefined,
    name: string,
  ): ResourceTypes[K] | undefined {
    return this.table(resource).get(this.bucket(resource, namespace), name) as ResourceTypes[K] | undefined;
  }

  /** Like get(), but throws the API's NotFound error. */
  mustGet<K extends ResourceKey>(resource: K, namespace: string | undefined, name: string): ResourceTypes[K] {
    const found = this.get(resource, namespace, name);
    if (!found) throw notFound(resourceInfo(resource).key, name);
    return found;
  }

  /** Objects of a resource, sorted by namespace then name (the order the API server lists them in). */
  list<K extends ResourceKey>(resource: K, namespace?: string): ResourceTypes[K][] {
    return this.table(resource).list(namespace).slice() as ResourceTypes[K][];
  }

  /** A number that changes whenever an object of `resource` is written (see Table.version). */
  tableVersion(resource: ResourceKey): number {
    return this.table(resource).version;
  }

  count(resource: ResourceKey): number {
    return this.table(resource).size;
  }

  /**
   * Stores a new object: uid, resourceVersion, generation and creationTimestamp are assigned here.
   * The input is copied, never kept, unless the caller hands it over (`adopt`). A given `uid` leaves
   * the cluster's generator untouched, so objects added to bootstrap shift no later draw.
   */
  create<K extends ResourceKey>(
    resource: K,
    input: NewObject,
    opts: { readonly adopt?: boolean; readonly uid?: string } = {},
  ): ResourceTypes[K] {
    const info = resourceInfo(resource);
    const ns = info.namespaced ? input.metadata.namespace : undefined;
    const bucket = ns ?? '';
    const table = this.table(resource);
    if (table.has(bucket, input.metadata.name)) throw alreadyExists(info.key, input.metadata.name);
    // `adopt`: the caller built the object fresh, JSON-shaped, and keeps no reference to it.
    const obj = (opts.adopt ? input : deepClone(input)) as AnyObject;
    // The metadata is ours either way (copied, or handed over), so it is filled in place: the same
    // keys in the same order as spreading it into a new object, without the copy.
    const meta = obj.metadata;
    if (ns) meta.namespace = ns;
    meta.uid = opts.uid ?? this.rng.uuid();
    meta.resourceVersion = String(++this.revision);
    meta.creationTimestamp = this.clock.rfc3339();
    if (GENERATION_TRACKED.has(resource)) obj.metadata.generation = 1;
    else delete obj.metadata.generation;
    if (!info.namespaced) delete obj.metadata.namespace;
    table.set(bucket, meta.name, obj);
    this.emit({ type: 'ADDED', resource, object: obj });
    return obj as ResourceTypes[K];
  }

  /**
   * Replaces an existing object. A stale metadata.resourceVersion is a Conflict, as with the real
   * API's optimistic concurrency; an omitted one means "whatever is current". generation moves only
   * when something other than metadata and status changed. An update that changes nothing is a no-op
   * that keeps the resourceVersion, as the API server does.
   */
  update<K extends ResourceKey>(resource: K, input: AnyObject): ResourceTypes[K] {
    const info = resourceInfo(resource);
    const bucket = this.bucket(resource, input.metadata.namespace);
    const table = this.table(resource);
    const old = table.get(bucket, input.metadata.name);
    if (!old) throw notFound(info.key, input.metadata.name);
    if (input.metadata.resourceVersion && input.metadata.resourceVersion !== old.metadata.resourceVersion) {
      throw conflict(
        info.key,
        input.metadata.name,
        'the object has been modified; please apply your changes to the latest version and try again',
      );
    }
    // Parts the caller passed on unchanged from the stored version (`{ ...old, status }`) are shared.
    const obj = deepCloneReusing(input, old);
    obj.metadata = {
      ...obj.metadata,
      uid: old.metadata.uid,
      creationTimestamp: old.metadata.creationTimestamp,
      resourceVersion: old.metadata.resourceVersion,
    };
    if (GENERATION_TRACKED.has(resource)) obj.metadata.generation = old.metadata.generation ?? 1;
    else delete obj.metadata.generation;
    if (jsonEqual(obj, old)) return old as ResourceTypes[K];
    if (GENERATION_TRACKED.has(resource) && !jsonEqual(specOf(obj), specOf(old))) {
      obj.metadata.generation = (old.metadata.generation ?? 1) + 1;
    }
    obj.metadata.resourceVersion = String(++this.revision);
    table.set(bucket, old.metadata.name, obj);
    this.emit({ type: 'MODIFIED', resource, object: obj, oldObject: old });
    return obj as ResourceTypes[K];
  }

  /**
   * The status subresource's write: `update` of `{ ...stored, status }`, without what such a write
   * cannot change (metadata other than the resourceVersion, the spec, the generation) being copied
   * and compared again. Status writes are most of a settle's writes (every kubelet sync, every
   * workload controller's counts).
   */
  updateStatus<K extends ResourceKey>(
    resource: K,
    namespace: string | undefined,
    name: string,
    status: unknown,
  ): ResourceTypes[K] {
    const info = resourceInfo(resource);
    const bucket = this.bucket(resource, namespace);
    const table = this.table(resource);
    const old = table.get(bucket, name);
    if (!old) throw notFound(info.key, name);
    // A stored object without the generation its kind tracks (an old snapshot) gets one: the full path.
    if (GENERATION_TRACKED.has(resource) !== (old.metadata.generation !== undefined))
      return this.update(resource, { ...old, status } as AnyObject);
    const next = status === undefined ? undefined : deepCloneReusing(status, old.status);
    if (jsonEqual(next, old.status)) return old as ResourceTypes[K];
    const obj: AnyObject = {
      ...old,
      metadata: { ...old.metadata, resourceVersion: String(++this.revision) },
      status: next,
    };
    if (next === undefined) delete obj.status;
    table.set(bucket, old.metadata.name, obj);
    this.emit({ type: 'MODIFIED', resource, object: obj, oldObject: old });
    return obj as ResourceTypes[K];
  }

  /** Removes an object at once (graceful deletion, where a kind has it, is the caller's business). */
  delete<K extends ResourceKey>(resource: K, namespace: string | undefined, name: string): ResourceTypes[K] {
    const info = resourceInfo(resource);
    const bucket = this.bucket(resource, namespace);
    const table = this.table(resource);
    const old = table.get(bucket, name);
    if (!old) throw notFound(info.key, name);
    table.delete(bucket, name);
    ++this.revision;
    this.emit({ type: 'DELETED', resource, object: old, oldObject: old });
    return old as ResourceTypes[K];
  }

  /** Subscribes to one resource's events, or to all with '*'. Returns the unsubscribe function. */
  watch(resource: ResourceKey | '*', handler: WatchHandler): () => void {
    let set = this.watchers.get(resource);
    if (!set) this.watchers.set(resource, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }

  /**
   * Every object, in resource then namespace/name order. The objects are the stored instances, not
   * copies: stored objects are never mutated (a write replaces them), so a snapshot costs a list, and
   * restoring it into another store shares them too (the grader restores thousands of snapshots).
   * Treat a snapshot as read-only; copy it (structuredClone) before changing anything in it.
   */
  snapshot(): StoreSnapshot {
    const objects: { resource: ResourceKey; object: AnyObject }[] = [];
    const keys = [...this.tables.keys()].sort();
    for (const resource of keys) {
      for (const object of this.list(resource)) {
        HANDED_OUT.add(object);
        objects.push({ resource, object });
      }
    }
    return { resourceVersion: this.revision, objects };
  }

  /**
   * Replaces the whole content without emitting events (controllers rebuild their caches after a restore).
   * Objects a store's snapshot handed out are taken as they are; anything else (a snapshot parsed from
   * JSON, objects a caller built) is copied, so the store never shares an object someone else may change.
   */
  restore(snapshot: StoreSnapshot): void {
    for (const t of this.tables.values()) t.clear();
    for (const { resource, object } of snapshot.objects) {
      this.table(resource).set(
        this.bucket(resource, object.metadata.namespace),
        object.metadata.name,
        HANDED_OUT.has(object) ? object : deepClone(object),
      );
    }
    this.revision = snapshot.resourceVersion;
  }

  /** The table's namespace for an object: '' for cluster-scoped resources (and a missing namespace). */
  private bucket(resource: ResourceKey, namespace: string | undefined): string {
    return resourceInfo(resource).namespaced ? (namespace ?? '') : '';
  }

  private table(resource: ResourceKey): Table {
    let t = this.tables.get(resource);
    if (!t) this.tables.set(resource, (t = new Table()));
    return t;
  }

  private emit(event: WatchEvent): void {
    for (const h of this.watchers.get(event.resource) ?? []) h(event);
    for (const h of this.watchers.get('*') ?? []) h(event);
  }
}

function controllerUid(obj: AnyObject): string | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller)?.uid;
}

function specOf(obj: AnyObject): unknown {
  const { metadata: _m, status: _s, ...rest } = obj;
  return rest;
}
