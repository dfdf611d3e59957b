/**
 * One resource's objects in the store, with what makes reads cheap at scale: the sorted order is cached
 * and only recomputed when objects come or go (an update never moves an object), lists are kept per
 * namespace, and secondary indexes (pods by node, events by involved object) answer the controllers'
 * hot questions without scanning thousands of objects — the role informer indexers play in client-go.
 */
import type { AnyObject } from './objects.ts';

export type IndexFn = (obj: AnyObject) => string | undefined;

export class Table {
  private readonly objects = new Map<string, AnyObject>();
  private readonly byNamespace = new Map<string, Set<string>>();
  private readonly sorted = new Map<string | undefined, AnyObject[] | undefined>();
  private readonly indexes = new Map<string, { fn: IndexFn; values: Map<string, Set<string>> }>();

  get size(): number {
    return this.objects.size;
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
    const old = this.objects.get(key);
    const ns = obj.metadata.namespace ?? '';
    if (old) this.unindex(key, old);
    else {
      let set = this.byNamespace.get(ns);
      if (!set) this.byNamespace.set(ns, (set = new Set()));
      set.add(key);
      this.sorted.delete(undefined);
      this.sorted.delete(ns);
    }
    this.objects.set(key, obj);
    this.index(key, obj);
    // An update keeps the object's place; refresh it in the cached lists.
    if (old) this.replaceInCaches(old, obj, ns);
  }

  delete(key: string): AnyObject | undefined {
    const old = this.objects.get(key);
    if (!old) return undefined;
    const ns = old.metadata.namespace ?? '';
    this.objects.delete(key);
    this.byNamespace.get(ns)?.delete(key);
    this.unindex(key, old);
    this.sorted.delete(undefined);
    this.sorted.delete(ns);
    return old;
  }

  clear(): void {
    this.objects.clear();
    this.byNamespace.clear();
    this.sorted.clear();
    for (const idx of this.indexes.values()) idx.values.clear();
  }

  /** Objects sorted by namespace then name; `namespace` limits the list to one namespace. */
  list(namespace?: string): readonly AnyObject[] {
    const cacheKey = namespace === undefined ? undefined : namespace;
    let cached = this.sorted.get(cacheKey);
    if (!cached) {
      if (namespace === undefined) cached = [...this.objects.values()];
      else cached = [...(this.byNamespace.get(namespace) ?? [])].map((k) => this.objects.get(k)!);
      cached.sort(compareObjects);
      this.sorted.set(cacheKey, cached);
    }
    return cached;
  }

  addIndex(name: string, fn: IndexFn): void {
    if (this.indexes.has(name)) return;
    const values = new Map<string, Set<string>>();
    this.indexes.set(name, { fn, values });
    for (const [key, obj] of this.objects) this.indexOne(values, fn, key, obj);
  }

  /** Objects whose index value equals `value`, sorted by namespace then name. */
  byIndex(name: string, value: string): AnyObject[] {
    const idx = this.indexes.get(name);
    if (!idx) throw new Error(`no index ${name}`);
    const keys = idx.values.get(value);
    if (!keys) return [];
    return [...keys].map((k) => this.objects.get(k)!).sort(compareObjects);
  }

  private index(key: string, obj: AnyObject): void {
    for (const { fn, values } of this.indexes.values()) this.indexOne(values, fn, key, obj);
  }

  private indexOne(values: Map<string, Set<string>>, fn: IndexFn, key: string, obj: AnyObject): void {
    const v = fn(obj);
    if (v === undefined) return;
    let set = values.get(v);
    if (!set) values.set(v, (set = new Set()));
    set.add(key);
  }

  private unindex(key: string, obj: AnyObject): void {
    for (const { fn, values } of this.indexes.values()) {
      const v = fn(obj);
      if (v !== undefined) values.get(v)?.delete(key);
    }
  }

  private replaceInCaches(old: AnyObject, obj: AnyObject, ns: string): void {
    for (const cacheKey of [undefined, ns]) {
      const cached = this.sorted.get(cacheKey);
      if (!cached) continue;
      const i = binarySearch(cached, old);
      if (i >= 0 && cached[i] === old) cached[i] = obj;
      else this.sorted.delete(cacheKey);
    }
  }
}

function binarySearch(list: readonly AnyObject[], target: AnyObject): number {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = compareObjects(list[mid]!, target);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

export function compareObjects(a: AnyObject, b: AnyObject): number {
  const na = a.metadata.namespace ?? '';
  const nb = b.metadata.namespace ?? '';
  if (na !== nb) return na < nb ? -1 : 1;
  return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
}
