/**
 * kube-controller-manager's root-ca-cert-publisher (pkg/controller/certificates/rootcacertpublisher/
 * publisher.go): every namespace holds the `kube-root-ca.crt` ConfigMap with the cluster CA (its
 * `--root-ca-file`) under `ca.crt` and the description annotation; a deleted or altered copy is put
 * back. Pods read it through their projected `kube-api-access-*` volume.
 */
import { distributionOf } from '../api/distribution.ts';
import type { AnyObject, ConfigMap, ResourceKey } from '../api/objects.ts';
import type { WatchEvent } from '../api/store.ts';
import { parseTimestamp } from '../util/clock.ts';
import { BaseController } from './base-controller.ts';
import { clusterCaPem } from './cluster-ca.ts';

export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

export class RootCACertPublisher extends BaseController {
  readonly name = 'root-ca-cert-publisher';
  private rootCA: string | undefined;

  protected watches(): [ResourceKey, (e: WatchEvent) => readonly string[]][] {
    return [
      [
        'namespaces',
        (e) =>
          e.type === 'ADDED' || (e.type === 'MODIFIED' && !e.object.metadata.deletionTimestamp)
            ? [e.object.metadata.name]
            : [],
      ],
      [
        'configmaps',
        (e) =>
          e.type !== 'ADDED' && e.object.metadata.name === ROOT_CA_CONFIGMAP
            ? [e.object.metadata.namespace ?? '']
            : [],
      ],
    ];
  }

  protected initialKeys(): string[] {
    return this.ctx.api.list('namespaces').map((n) => n.metadata.name);
  }

  /**
   * The CA, made once per cluster: seeded by kube-system's uid (itself from the cluster seed) and
   * dated from its creation, when the control plane came up.
   */
  private caBundle(): string {
    if (this.rootCA === undefined) {
      const system = this.ctx.api.get('namespaces', undefined, 'kube-system');
      const created = system?.metadata.creationTimestamp;
      this.rootCA = clusterCaPem(
        distributionOf(this.ctx.config).bootstrap,
        `${this.ctx.config.name}/${system?.metadata.uid ?? ''}`,
        created ? parseTimestamp(created) : this.ctx.clock.now(),
      );
    }
    return this.rootCA;
  }

  protected reconcile(namespace: string): boolean {
    const { api } = this.ctx;
    const ns = api.get('namespaces', undefined, namespace);
    if (!ns || ns.metadata.deletionTimestamp) return false;
    const data = { 'ca.crt': this.caBundle() };
    const cm = api.get('configmaps', namespace, ROOT_CA_CONFIGMAP);
    if (!cm) {
      api.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: ROOT_CA_CONFIGMAP,
          namespace,
          annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION },
        },
        data,
      });
      return true;
    }
    const current = (cm as ConfigMap).data ?? {};
    const same = Object.keys(current).length === 1 && current['ca.crt'] === data['ca.crt'];
    if (same && cm.metadata.annotations?.[DESCRIPTION_ANNOTATION]) return false;
    api.update({
      ...cm,
      metadata: {
        ...cm.metadata,
        annotations: { ...cm.metadata.annotations, [DESCRIPTION_ANNOTATION]: DESCRIPTION },
      },
      data,
    } as AnyObject);
    return true;
  }
}
