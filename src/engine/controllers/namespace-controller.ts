/**
 * The namespace controller (pkg/controller/namespace/deletion/namespaced_resources_deleter.go): a
 * namespace with a deletionTimestamp is `Terminating`; its content is deleted (pods gracefully), the
 * NamespaceContentRemaining condition says what is left, and once empty the `kubernetes` finalizer
 * is removed and the namespace goes. Objects left in a namespace that no longer exists at all are
 * deleted too.
 */
import type { Namespace, ResourceKey } from '../api/objects.ts';
import type { WatchEvent } from '../api/store.ts';
import { RESOURCES } from '../api/resources.ts';
import { deepClone, jsonEqual } from '../util/json.ts';
import { BaseController } from './base-controller.ts';

const NAMESPACED = RESOURCES.filter((r) => r.namespaced).map((r) => r.key);

export class NamespaceController extends BaseController {
  readonly name = 'namespace-controller';

  protected watches(): [ResourceKey, (e: WatchEvent) => readonly string[]][] {
    const out: [ResourceKey, (e: WatchEvent) => readonly string[]][] = [
      ['namespaces', (e) => [e.object.metadata.name]],
    ];
    // Content disappearing lets a terminating namespace finish.
    for (const key of NAMESPACED) {
      if (key === 'events') continue;
      out.push([
        key,
        (e) => (e.type === 'DELETED' || e.type === 'ADDED' ? [e.object.metadata.namespace ?? ''] : []),
      ]);
    }
    return out;
  }

  protected initialKeys(): string[] {
    const names = new Set(
      this.ctx.api
        .list('namespaces')
        .filter((n) => n.metadata.deletionTimestamp)
        .map((n) => n.metadata.name),
    );
    return [...names];
  }

  protected reconcile(name: string): boolean {
    if (!name) return false;
    const { api } = this.ctx;
    const ns = api.get('namespaces', undefined, name);
    if (ns && !ns.metadata.deletionTimestamp) return false;
    const remaining = new Map<string, number>();
    let wrote = false;
    for (const key of NAMESPACED) {
      const items = api.list(key, name);
      for (const obj of items) {
        if (key === 'pods' && obj.metadata.deletionTimestamp) {
          remaining.set(key, (remaining.get(key) ?? 0) + 1);
          continue;
        }
        api.delete(key, name, obj.metadata.name);
        wrote = true;
        if (api.get(key, name, obj.metadata.name)) remaining.set(key, (remaining.get(key) ?? 0) + 1);
      }
    }
    if (!ns) return wrote;
    if (remaining.size > 0) return this.writeStatus(ns, remaining) || wrote;
    api.store.delete('namespaces', undefined, name);
    return true;
  }

  private writeStatus(ns: Namespace, remaining: Map<string, number>): boolean {
    const now = this.ctx.clock.rfc3339();
    const kinds = [...remaining.keys()].sort();
    const cond = (type: string, status: string, reason: string, message: string) => {
      const old = ns.status?.conditions?.find((c) => c.type === type);
      return {
        type,
        status,
        lastTransitionTime: old && old.status === status ? old.lastTransitionTime : now,
        reason,
        message,
      };
    };
    const status = {
      phase: 'Terminating',
      conditions: [
        cond(
          'NamespaceDeletionDiscoveryFailure',
          'False',
          'ResourcesDiscovered',
          'All resources successfully discovered',
        ),
        cond(
          'NamespaceDeletionGroupVersionParsingFailure',
          'False',
          'ParsedGroupVersions',
          'All legacy kube types successfully parsed',
        ),
        cond(
          'NamespaceDeletionContentFailure',
          'False',
          'ContentDeleted',
          'All content successfully deleted, may be waiting on finalization',
        ),
        cond(
          'NamespaceContentRemaining',
          'True',
          'SomeResourcesRemain',
          `Some resources are remaining: ${kinds.map((k) => `${k} has ${remaining.get(k)} resource instances`).join(', ')}`,
        ),
        cond(
          'NamespaceFinalizersRemaining',
          'False',
          'ContentHasNoFinalizers',
          'All content-preserving finalizers finished',
        ),
      ],
    };
    if (jsonEqual(status, ns.status)) return false;
    const next = deepClone(ns);
    this.ctx.api.updateStatus({ ...next, status });
    return true;
  }
}
