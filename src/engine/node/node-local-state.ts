/**
 * What a node keeps outside the API: files on its disk and kernel tables (host-local IPAM's
 * last-reserved address in /var/lib/cni/networks/…, for instance). It is plain JSON so a cluster
 * snapshot carries it, and it never shows up in API objects, as on a real node.
 */
import { deepClone, type Json } from '../util/json.ts';

export type NodeLocalSnapshot = Record<string, Record<string, Json>>;

export class NodeLocalState {
  private data: NodeLocalSnapshot = {};

  get(node: string, key: string): Json | undefined {
    return this.data[node]?.[key];
  }

  set(node: string, key: string, value: Json): void {
    (this.data[node] ??= {})[key] = deepClone(value);
  }

  snapshot(): NodeLocalSnapshot {
    return deepClone(this.data);
  }

  restore(snapshot: NodeLocalSnapshot | undefined): void {
    this.data = deepClone(snapshot ?? {});
  }
}
