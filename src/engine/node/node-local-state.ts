/**
 * What a node keeps outside the API: files on its disk and kernel tables (host-local IPAM's
 * last-reserved address in /var/lib/cni/networks/…, for instance). It is plain JSON so a cluster
 * snapshot carries it, and it never shows up in API objects, as on a real node.
 */
import { deepClone, isPlainObject, type Json } from '../util/json.ts';

export type NodeLocalSnapshot = Record<string, Record<string, Json>>;

export class NodeLocalState {
  private data: NodeLocalSnapshot = {};

  get(node: string, key: string): Json | undefined {
    return this.data[node]?.[key];
  }

  set(node: string, key: string, value: Json): void {
    (this.data[node] ??= {})[key] = deepClone(value);
  }

  /**
   * Changes one record-valued key in place (created empty when missing or not a record), for keys that
   * grow one entry at a time: `set` would copy the whole record per entry.
   */
  updateRecord(node: string, key: string, change: (record: Record<string, Json>) => void): void {
    const entries = (this.data[node] ??= {});
    const current = entries[key];
    const record = isPlainObject(current) ? current : (entries[key] = {});
    change(record);
  }

  snapshot(): NodeLocalSnapshot {
    return deepClone(this.data);
  }

  restore(snapshot: NodeLocalSnapshot | undefined): void {
    this.data = deepClone(snapshot ?? {});
  }
}
