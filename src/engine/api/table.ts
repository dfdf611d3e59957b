/**
 * One resource's objects in the store, with what makes reads cheap at scale: the sorted order is cached
 * and only recomputed when objects come or go (an update never moves an object), lists are kept per
 * namespace, and secondary indexes (pods by node, events by involved object) answer the controllers'
 * hot questions without scanning thousands of objects — the role informer indexers play in client-go.
 */
import type { AnyObject } from './objects.ts';

/** An index function gives an object's value(s) under the index; undefined (or []) leaves it out. */
export type IndexFn = (obj: AnyObject) => string | readonly string[] | undefined;

/**
 * The part of an object an index function reads (`o => o.metadata.labels`). Stored objects share
 * the subtrees an update did not touch, so an update whose part is the same instance keeps its index
 * values and skips the index function: a pod's status write then costs no label-key strings.
 */
export type IndexInput = (obj: AnyObject) => unknown;

interface Index {
  readonly fn: IndexFn;
  readonly reads: IndexInput | undefined;
  /** Each object's current values, so updates and deletes need not compute the old ones again. */
  readonly byKey: Map<string, readonly string[]>;
  readonly values: Map<string, Set<string>>;
  /** Sorted object lists per value, built on demand; an update that keeps the value keeps the list. */
  readonly sorted: Map<string, SortedList>;
}

/**
 * Objects in namespace/name order with their sort keys and table keys alongside: searches compare the
 * sort keys (flat strings) rather than reading `metadata` off objects of every kind. An update never
 * moves an object, so it only marks the lists that hold it `stale`; the next read takes the current
 * instances by their table keys. A settle writes each pod's status many times between two reads of
 * the 5,000-pod list, and finding the pod in every list on each write cost more than the write.
 */
interface SortedList {
  readonly objects: AnyObject[];
  readonly keys: string[];
  readonly ids: string[];
  stale: boolean;
}

const NO_VALUES: readonly string[] = [];

function valuesOf(fn: IndexFn, obj: AnyObject): readonly string[] {
  const v = fn(obj);
  return v === undefined ? NO_VALUES : typeof v === 'string' ? [v] : v;
}

/**
 * The key objects sort by: namespace, then name. NUL sorts before every character a namespace may
 * hold, so comparing the keys compares namespaces first, as compareObjects does.
 */
function sortKey(obj: AnyObject): string {
  return `${obj.metadata.namespace ?? ''}\u0000${obj.metadata.name}`;
}

function sortedList(entries: Iterable<readonly [string, AnyObject]>): SortedList {
  const sorted = [...entries].map(([id, o]) => ({ key: sortKey(o), id, o }));
  sorted.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return {
    objects: sorted.map((e) => e.o),
    keys: sorted.map((e) => e.key),
    ids: sorted.map((e) => e.id),
    stale: false,
  };
}

function markStale(list: SortedList | undefined): void {
  if (list) list.stale = true;
}

export class Table {
  private readonly objects = new Map<string, AnyObject>();
  private readonly byNamespace = new Map<string, Set<string>>();
  private readonly sorted = new Map<string | undefined, SortedList | undefined>();
  private readonly indexes = new Map<string, Index>();

  private changes = 0;

  get size(): number {
    return this.objects.size;
  }

  /** Moves on every write (set, delete, clear): a cheap key for caches derived from the whole table. */
  get version(): number {
    return this.changes;
  }

  get(key: string): AnyObject | undefined {
    return this.objects.get(key);
  }

  has(key: string): boolean {
    return this.objects.has(key);
  }

  values(): IterableIterator<AnyObject> {
    return this.objects.values();
  }

  set(key: string, obj: AnyObject): void {
    this.changes++;
    const old = this.objects.get(key);
    const ns = obj.metadata.namespace ?? '';
    if (!old) {
      let set = this.byNamespace.get(ns);
      if (!set) this.byNamespace.set(ns, (set = new Set()));
      set.add(key);
      this.sorted.delete(undefined);
      this.sorted.delete(ns);
    }
    this.objects.set(key, obj);
    if (!old) {
      this.index(key, obj);
      return;
    }
    // An update keeps the object's place: the cached lists take the new instance when next read.
    this.reindex(key, old, obj);
    markStale(this.sorted.get(undefined));
    markStale(this.sorted.get(ns));
  }

  delete(key: string): AnyObject | undefined {
    const old = this.objects.get(key);
    if (!old) return undefined;
    this.changes++;
    const ns = old.metadata.namespace ?? '';
    this.objects.delete(key);
    this.byNamespace.get(ns)?.delete(key);
    this.unindex(key, old);
    this.sorted.delete(undefined);
    this.sorted.delete(ns);
    return old;
  }

  clear(): void {
    this.changes++;
    this.objects.clear();
    this.byNamespace.clear();
    this.sorted.clear();
    for (const idx of this.indexes.values()) {
      idx.values.clear();
      idx.sorted.clear();
      idx.byKey.clear();
    }
  }

  /** Objects sorted by namespace then name; `namespace` limits the list to one namespace. */
  list(namespace?: string): readonly AnyObject[] {
    const cacheKey = namespace === undefined ? undefined : namespace;
    let cached = this.sorted.get(cacheKey);
    if (!cached) {
      cached = sortedList(
        namespace === undefined
          ? this.objects.entries()
          : [...(this.byNamespace.get(namespace) ?? [])].map((k) => [k, this.objects.get(k)!] as const),
      );
      this.sorted.set(cacheKey, cached);
    }
    return this.fresh(cached);
  }

  /** A cached list with the current instance of every object it holds. */
  private fresh(list: SortedList): AnyObject[] {
    if (list.stale) {
      for (let i = 0; i < list.ids.length; i++) list.objects[i] = this.objects.get(list.ids[i]!)!;
      list.stale = false;
    }
    return list.objects;
  }

  addIndex(name: string, fn: IndexFn, reads?: IndexInput): void {
    if (this.indexes.has(name)) return;
    const idx: Index = { fn, reads, byKey: new Map(), values: new Map(), sorted: new Map() };
    this.indexes.set(name, idx);
    for (const [key, obj] of this.objects) {
      const values = valuesOf(fn, obj);
      idx.byKey.set(key, values);
      for (const v of values) addKey(idx, v, key);
    }
  }

  /** Objects whose index value equals `value`, sorted by namespace then name (a fresh array). */
  byIndex(name: string, value: string): AnyObject[] {
    return this.byIndexShared(name, value).slice();
  }

  /** Like byIndex, but the cached array itself: callers must neither change nor keep it. */
  byIndexShared(name: string, value: string): readonly AnyObject[] {
    const idx = this.indexes.get(name);
    if (!idx) throw new Error(`no index ${name}`);
    let cached = idx.sorted.get(value);
    if (!cached) {
      const keys = idx.values.get(value);
      if (!keys) return NO_OBJECTS;
      cached = sortedList([...keys].map((k) => [k, this.objects.get(k)!] as const));
      idx.sorted.set(value, cached);
    }
    return this.fresh(cached);
  }

  /**
   * Calls `fn` with each object whose index value equals `value`, in no particular order, until it
   * returns true; returns whether one did. Builds no sorted list: the event recorder asks this about
   * every object it records an event on, and a sorted list per object would outlive the question.
   */
  someIndexed(name: string, value: string, fn: (obj: AnyObject) => boolean): boolean {
    const idx = this.indexes.get(name);
    if (!idx) throw new Error(`no index ${name}`);
    const keys = idx.values.get(value);
    if (!keys) return false;
    for (const key of keys) if (fn(this.objects.get(key)!)) return true;
    return false;
  }

  private index(key: string, obj: AnyObject): void {
    let at: string | undefined;
    for (const idx of this.indexes.values()) {
      const values = valuesOf(idx.fn, obj);
      idx.byKey.set(key, values);
      for (const v of values) addKey(idx, v, key, obj, (at ??= sortKey(obj)));
    }
  }

  private unindex(key: string, obj: AnyObject): void {
    for (const idx of this.indexes.values()) {
      for (const v of idx.byKey.get(key) ?? valuesOf(idx.fn, obj)) removeKey(idx, v, key);
      idx.byKey.delete(key);
    }
  }

  /** An update: the cached lists of values the object keeps go stale; for the rest it moves. */
  private reindex(key: string, old: AnyObject, obj: AnyObject): void {
    let at: string | undefined;
    for (const idx of this.indexes.values()) {
      const before = idx.byKey.get(key) ?? valuesOf(idx.fn, old);
      if (idx.reads && idx.reads(old) === idx.reads(obj)) {
        for (const v of before) markStale(idx.sorted.get(v));
        continue;
      }
      const after = valuesOf(idx.fn, obj);
      idx.byKey.set(key, after);
      for (const v of before) {
        if (!after.includes(v)) removeKey(idx, v, key);
        else markStale(idx.sorted.get(v));
      }
      for (const v of after) if (!before.includes(v)) addKey(idx, v, key, obj, (at ??= sortKey(obj)));
    }
  }
}

const NO_OBJECTS: readonly AnyObject[] = [];

function addKey(idx: Index, value: string, key: string, obj?: AnyObject, at?: string): void {
  let set = idx.values.get(value);
  if (!set) idx.values.set(value, (set = new Set()));
  if (set.has(key)) return;
  set.add(key);
  // A new object joins a cached list at its place instead of dropping the list for a re-sort: a
  // ReplicaSet creating thousands of pods records an event on itself per pod, and re-sorting all of
  // them per event was the cost of `--replicas=10000`. In place: the lists byIndexShared hands out are
  // read at once, never kept (byIndex and list give copies).
  const cached = idx.sorted.get(value);
  if (cached && obj && at !== undefined) {
    const i = lowerBound(cached.keys, at);
    cached.objects.splice(i, 0, obj);
    cached.keys.splice(i, 0, at);
    cached.ids.splice(i, 0, key);
  } else idx.sorted.delete(value);
}

/** The first position whose key sorts at or after `target`. */
function lowerBound(keys: readonly string[], target: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keys[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function removeKey(idx: Index, value: string, key: string): void {
  const set = idx.values.get(value);
  if (!set?.delete(key)) return;
  if (set.size === 0) idx.values.delete(value);
  idx.sorted.delete(value);
}

export function compareObjects(a: AnyObject, b: AnyObject): number {
  const na = a.metadata.namespace ?? '';
  const nb = b.metadata.namespace ?? '';
  if (na !== nb) return na < nb ? -1 : 1;
  return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
}
