/**
 * kube-controller-manager's serviceaccount-controller (pkg/controller/serviceaccount/
 * serviceaccounts_controller.go): every active namespace gets the `default` ServiceAccount when it
 * appears, and again whenever it is deleted. A terminating namespace is left alone, so namespace
 * deletion can empty it.
 */
import type { ResourceKey } from '../api/objects.ts';
import type { WatchEvent } from '../api/store.ts';
import { BaseController } from './base-controller.ts';

/** `DefaultServiceAccountsControllerOptions`: the accounts ensured in every namespace. */
const ENSURED = ['default'];

export class ServiceAccountsController extends BaseController {
  readonly name = 'service-account-controller';

  protected watches(): [ResourceKey, (e: WatchEvent) => readonly string[]][] {
    return [
      ['namespaces', (e) => (e.type === 'DELETED' ? [] : [e.object.metadata.name])],
      [
        'serviceaccounts',
        (e) =>
          e.type === 'DELETED' && ENSURED.includes(e.object.metadata.name)
            ? [e.object.metadata.namespace ?? '']
            : [],
      ],
    ];
  }

  protected initialKeys(): string[] {
    return this.ctx.api.list('namespaces').map((n) => n.metadata.name);
  }

  protected reconcile(namespace: string): boolean {
    const { api } = this.ctx;
    const ns = api.get('namespaces', undefined, namespace);
    if (!ns || ns.metadata.deletionTimestamp || (ns.status?.phase ?? 'Active') !== 'Active') return false;
    let wrote = false;
    for (const name of ENSURED) {
      if (api.get('serviceaccounts', namespace, name)) continue;
      api.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } });
      wrote = true;
    }
    return wrote;
  }
}
