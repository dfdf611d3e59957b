/**
 * The status half of the Ingress controllers that run in the cluster (Traefik, ingress-nginx): an
 * Ingress gets `status.loadBalancer.ingress` only while a ready controller pod serves its class and is
 * configured to publish an address; with no controller nothing writes, so `kubectl get ingress` keeps
 * ADDRESS empty. Routing itself is `api/edge/ingress-routing.ts`, called per request.
 */
import type { ResourceKey } from '../api/objects.ts';
import type { WatchEvent } from '../api/store.ts';
import { jsonEqual } from '../util/json.ts';
import { BaseController } from './base-controller.ts';
import { publishedAddress, runningEdgeProxies } from '../api/edge/edge-state.ts';
import { servesIngress } from '../api/edge/ingress-routing.ts';

const ALL = '*';

export class IngressController extends BaseController {
  readonly name = 'ingress-controller';

  protected watches(): [ResourceKey, (e: WatchEvent) => readonly string[]][] {
    const all = () => [ALL];
    return [
      ['ingresses.networking.k8s.io', all],
      ['ingressclasses.networking.k8s.io', all],
      ['pods', (e) => (e.object.metadata.namespace === 'default' ? [] : [ALL])],
      [
        'services',
        (e) => ((e.object as { spec?: { type?: string } }).spec?.type === 'LoadBalancer' ? [ALL] : []),
      ],
      ['nodes', all],
    ];
  }

  protected initialKeys(): string[] {
    return [ALL];
  }

  protected reconcile(): boolean {
    const api = this.ctx.api;
    const proxies = runningEdgeProxies(api);
    if (proxies.length === 0) return false;
    const classes = api.list('ingressclasses.networking.k8s.io');
    let wrote = false;
    for (const ing of api.list('ingresses.networking.k8s.io')) {
      if (ing.metadata.deletionTimestamp) continue;
      const proxy = proxies.find((p) => servesIngress(p.implementation, ing, classes));
      if (!proxy) continue;
      const ingress = publishedAddress(api, proxy, proxies);
      if (ingress === undefined) continue;
      const next = ingress.length > 0 ? { ingress } : {};
      if (jsonEqual(next, ing.status?.loadBalancer ?? {})) continue;
      api.updateStatus({ ...ing, status: { loadBalancer: next } });
      wrote = true;
    }
    return wrote;
  }
}
