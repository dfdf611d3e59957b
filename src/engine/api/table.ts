/**
 * One resource's objects in the store, with what makes reads cheap at scale: the sorted order is cached
 * and only recomputed when objects come or go (an update never moves an object), lists are kept per
 * namespace, and secondary indexes (pods by node, events by involved object) answer the controllers'
 * hot questions without scanning thousands of objects — the role informer indexers play in client-go.
 *
 * Objects live in one cell each, found by namespace then name. No `namespace/name` key string is
 * built: a fresh string must be flattened and hashed on every look-up (a few hundred nanoseconds
 * against tens for a name the stored object already holds), and a settle makes hundreds of thousands.
 * Indexes and cached lists hold cells, so an update only swaps the cell's object.
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

interface Cell {
  obj: AnyObject;
  readonly namespace: string;
  /** `namespace NUL name`, made when the cell first joins a sorted list. */
  sortKey: string | undefined;
  /** The cell's current values under each index, by index position. */
  readonly values: (readonly string[])[];
}

interface Index {
  readonly position: number;
  readonly fn: IndexFn;
  readonly reads: IndexInput | undefined;
  readonly cells: Map<string, Set<Cell>>;
  /** Sorted object lists per value, built on demand; an update that keeps the value keeps the list. */
  readonly sorted: Map<string, SortedList>;
}

/**
 * Objects in namespace/name order with their cells and sort keys alongside: searches compare the
 * sort keys (flat strings) rather than reading `metadata` off objects of every kind. An update never
 * moves an object, so it only marks the lists that hold it `stale`; the next read takes the current
 * objects from the cells. A settle writes each pod's status many times between two reads of the
 * 5,000-pod list, and finding the pod in every list on each write cost more than the write.
 */
interface SortedList {
  readonly objects: AnyObject[];
  readonly keys: string[];
  readonly cells: Cell[];
  stale: boolean;
}

const NO_VALUES: readonly string[] = [];
const NO_OBJECTS: readonly AnyObject[] = [];

function valuesOf(fn: IndexFn, obj: AnyObject): readonly string[] {
  const v = fn(obj);
  return v === undefined ? NO_VALUES : typeof v === 'string' ? [v] : v;
}

/**
 * The key objects sort by: namespace, then name. NUL sorts before every character a namespace may
 * hold, so comparing the keys compares namespaces first, as compareObjects does.
 */
function sortKeyOf(cell: Cell): string {
  return (cell.sortKey ??= `${cell.namespace}\u0000${cell.obj.metadata.name}`);
}

function sortedList(cells: Iterable<Cell>): SortedList {
  const entries = Array.from(cells, (cell) => ({ key: sortKeyOf(cell), cell }));
  entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return {
    objects: entries.map((e) => e.cell.obj),
    keys: entries.map((e) => e.key),
    cells: entries.map((e) => e.cell),
    stale: false,
  };
}

function markStale(list: SortedList | undefined): void {
  if (list) list.stale = true;
}

export class Table {
  /** Cells by namespace ('' for cluster-scoped objects), then by name. */
  private readonly namespaces = new Map<string, Map<string, Cell>>();
  private count = 0;
  /** Cached sorted lists: the whole table under undefined, each namespace under its name. */
  private readonly sorted = new Map<string | undefined, SortedList | undefined>();
  private readonly indexes = new Map<string, Index>();

  private changes = 0;

  get size(): number {
    return this.count;
  }

  /** Moves on every write (set, delete, clear): a cheap key for caches derived from the whole table. */
  get version(): number {
    return this.changes;
  }

  get(namespace: string, name: string): AnyObject | undefined {
    return this.namespaces.get(namespace)?.get(name)?.obj;
  }

  has(namespace: string, name: string): boolean {
    return this.namespaces.get(namespace)?.has(name) ?? false;
  }

  *values(): IterableIterator<AnyObject> {
    for (const cells of this.namespaces.values()) for (const cell of cells.values()) yield cell.obj;
  }

  set(namespace: string, name: string, obj: AnyObject): void {
    this.changes++;
    let cells = this.namespaces.get(namespace);
    if (!cells) this.namespaces.set(namespace, (cells = new Map()));
    const cell = cells.get(name);
    if (!cell) {
      const added: Cell = { obj, namespace, sortKey: undefined, values: [] };
      cells.set(name, added);
      this.count++;
      this.sorted.delete(undefined);
      this.sorted.delete(namespace);
      this.index(added);
      return;
    }
    // An update keeps the object's place: the cached lists take the new object when next read.
    const old = cell.obj;
    cell.obj = obj;
    this.reindex(cell, old);
    markStale(this.sorted.get(undefined));
    markStale(this.sorted.get(namespace));
  }

  delete(namespace: string, name: string): AnyObject | undefined {
    const cells = this.namespaces.get(namespace);
    const cell = cells?.get(name);
    if (!cells || !cell) return undefined;
    this.changes++;
    cells.delete(name);
    if (cells.size === 0) this.namespaces.delete(namespace);
    this.count--;
    for (const idx of this.indexes.values())
      for (const v of cell.values[idx.position] ?? NO_VALUES) removeCell(idx, v, cell);
    this.sorted.delete(undefined);
    this.sorted.delete(namespace);
    return cell.obj;
  }

  clear(): void {
    this.changes++;
    this.namespaces.clear();
    this.count = 0;
    this.sorted.clear();
    for (const idx of this.indexes.values()) {
      idx.cells.clear();
      idx.sorted.clear();
    }
  }

  /** Objects sorted by namespace then name; `namespace` limits the list to one namespace. */
  list(namespace?: string): readonly AnyObject[] {
    let cached = this.sorted.get(namespace);
    if (!cached) {
      cached = sortedList(
        namespace === undefined ? this.allCells() : (this.namespaces.get(namespace)?.values() ?? []),
      );
      this.sorted.set(namespace, cached);
    }
    return fresh(cached);
  }

  addIndex(name: string, fn: IndexFn, reads?: IndexInput): void {
    if (this.indexes.has(name)) return;
    const idx: Index = { position: this.indexes.size, fn, reads, cells: new Map(), sorted: new Map() };
    this.indexes.set(name, idx);
    for (const cell of this.allCells()) indexCell(idx, cell);
  }

  /** Objects whose index value equals `value`, sorted by namespace then name (a fresh array). */
  byIndex(name: string, value: string): AnyObject[] {
    return this.byIndexShared(name, value).slice();
  }

  /** Like byIndex, but the cached array itself: callers must neither change nor keep it. */
  byIndexShared(name: string, value: string): readonly AnyObject[] {
    const idx = this.mustIndex(name);
    let cached = idx.sorted.get(value);
    if (!cached) {
      const cells = idx.cells.get(value);
      if (!cells) return NO_OBJECTS;
      cached = sortedList(cells);
      idx.sorted.set(value, cached);
    }
    return fresh(cached);
  }

  /**
   * Calls `fn` with each object whose index value equals `value`, in no particular order, until it
   * returns true; returns whether one did. Builds no sorted list: the event recorder asks this about
   * every object it records an event on, and a sorted list per object would outlive the question.
   */
  someIndexed(name: string, value: string, fn: (obj: AnyObject) => boolean): boolean {
    const cells = this.mustIndex(name).cells.get(value);
    if (!cells) return false;
    for (const cell of cells) if (fn(cell.obj)) return true;
    return false;
  }

  private mustIndex(name: string): Index {
    const idx = this.indexes.get(name);
    if (!idx) throw new Error(`no index ${name}`);
    return idx;
  }

  private *allCells(): IterableIterator<Cell> {
    for (const cells of this.namespaces.values()) yield* cells.values();
  }

  private index(cell: Cell): void {
    for (const idx of this.indexes.values()) indexCell(idx, cell);
  }

  /** An update: the cached lists of values the object keeps go stale; for the rest it moves. */
  private reindex(cell: Cell, old: AnyObject): void {
    for (const idx of this.indexes.values()) {
      const before = cell.values[idx.position] ?? NO_VALUES;
      if (idx.reads && idx.reads(old) === idx.reads(cell.obj)) {
        for (const v of before) markStale(idx.sorted.get(v));
        continue;
      }
      const after = valuesOf(idx.fn, cell.obj);
      cell.values[idx.position] = after;
      for (const v of before) {
        if (!after.includes(v)) removeCell(idx, v, cell);
        else markStale(idx.sorted.get(v));
      }
      for (const v of after) if (!before.includes(v)) addCell(idx, v, cell);
    }
  }
}

/** A cached list with the current object of every cell it holds. */
function fresh(list: SortedList): AnyObject[] {
  if (list.stale) {
    for (let i = 0; i < list.cells.length; i++) list.objects[i] = list.cells[i]!.obj;
    list.stale = false;
  }
  return list.objects;
}

/** Files a new cell under its values in one index. */
function indexCell(idx: Index, cell: Cell): void {
  const values = valuesOf(idx.fn, cell.obj);
  cell.values[idx.position] = values;
  for (const v of values) addCell(idx, v, cell);
}

function addCell(idx: Index, value: string, cell: Cell): void {
  let cells = idx.cells.get(value);
  if (!cells) idx.cells.set(value, (cells = new Set()));
  if (cells.has(cell)) return;
  cells.add(cell);
  // A new object joins a cached list at its place instead of dropping the list for a re-sort: a
  // ReplicaSet creating thousands of pods records an event on itself per pod, and re-sorting all of
  // them per event was the cost of `--replicas=10000`. In place: the lists byIndexShared hands out are
  // read at once, never kept (byIndex and list give copies).
  const cached = idx.sorted.get(value);
  if (!cached) return;
  const key = sortKeyOf(cell);
  const i = lowerBound(cached.keys, key);
  cached.objects.splice(i, 0, cell.obj);
  cached.keys.splice(i, 0, key);
  cached.cells.splice(i, 0, cell);
}

function removeCell(idx: Index, value: string, cell: Cell): void {
  const cells = idx.cells.get(value);
  if (!cells?.delete(cell)) return;
  if (cells.size === 0) idx.cells.delete(value);
  idx.sorted.delete(value);
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

export function compareObjects(a: AnyObject, b: AnyObject): number {
  const na = a.metadata.namespace ?? '';
  const nb = b.metadata.namespace ?? '';
  if (na !== nb) return na < nb ? -1 : 1;
  return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
}
