/**
 * The status half of the Gateway API implementations that run in the cluster (Traefik with
 * `--providers.kubernetesgateway`). Without a controller the objects keep the CRDs' default status
 * (`Accepted`/`Programmed` Unknown, reason Pending, "Waiting for controller"), so `kubectl get gateway`
 * prints PROGRAMMED `Unknown`. With one: the GatewayClass whose controllerName it owns is Accepted; its
 * Gateways get the proxy's address, `Accepted`/`Programmed` and per-listener status with attached route
 * counts; attached HTTPRoutes get `Accepted` and `ResolvedRefs` per parent (reasons from the spec:
 * NotAllowedByListeners, NoMatchingListenerHostname, BackendNotFound, RefNotPermitted, InvalidKind).
 */
import type { Condition } from 'kubernetes-types/meta/v1';
import type { AnyObject, Gateway, GatewayClass, HTTPRoute, ResourceKey } from '../api/objects.ts';
import type { WatchEvent } from '../api/store.ts';
import type { ListenerStatus, RouteParentStatus } from '../api/crd-types.ts';
import { jsonEqual } from '../util/json.ts';
import { BaseController } from './base-controller.ts';
import { gatewayAddressOf, gatewayStateForPod, runningEdgeProxies } from '../api/edge/edge-state.ts';
import { attachRoute, listenerVerdict, GATEWAY_GROUP } from '../api/edge/gateway-attachment.ts';

const ALL = '*';
const PENDING = 'Waiting for controller';

export class GatewayController extends BaseController {
  readonly name = 'gateway-controller';

  protected watches(): [ResourceKey, (e: WatchEvent) => readonly string[]][] {
    const all = () => [ALL];
    return [
      ['gatewayclasses.gateway.networking.k8s.io', all],
      ['gateways.gateway.networking.k8s.io', all],
      ['httproutes.gateway.networking.k8s.io', all],
      ['referencegrants.gateway.networking.k8s.io', all],
      ['services', all],
      ['namespaces', all],
      ['pods', (e) => (e.object.metadata.namespace === 'default' ? [] : [ALL])],
    ];
  }

  protected initialKeys(): string[] {
    return [ALL];
  }

  /** Keeps a condition's lastTransitionTime while its status holds (metav1 `SetStatusCondition`). */
  private conditions(
    prev: readonly Condition[] | undefined,
    next: Omit<Condition, 'lastTransitionTime'>[],
    gen: number,
  ): Condition[] {
    return next.map((c) => {
      const old = prev?.find((p) => p.type === c.type);
      return {
        ...c,
        observedGeneration: gen,
        lastTransitionTime:
          old && old.status === c.status ? old.lastTransitionTime : this.ctx.clock.rfc3339(),
      };
    });
  }

  private write<T extends AnyObject>(obj: T, status: unknown): boolean {
    const prev = (obj as { status?: unknown }).status;
    if (jsonEqual(prev, status)) return false;
    this.ctx.api.updateStatus({ ...obj, status } as T);
    return true;
  }

  protected reconcile(): boolean {
    const api = this.ctx.api;
    const proxies = runningEdgeProxies(api).filter((p) => p.implementation.gatewayController);
    let wrote = false;
    const owned = new Map<string, (typeof proxies)[number]>();
    for (const gc of api.list('gatewayclasses.gateway.networking.k8s.io') as GatewayClass[]) {
      const gen = gc.metadata.generation ?? 1;
      const proxy = proxies.find((p) => p.implementation.gatewayController === gc.spec.controllerName);
      if (proxy) owned.set(gc.metadata.name, proxy);
      const conds = proxy
        ? [{ type: 'Accepted', status: 'True', reason: 'Accepted', message: 'Handled by Traefik controller' }]
        : [{ type: 'Accepted', status: 'Unknown', reason: 'Pending', message: PENDING }];
      if (!proxy && gc.status?.conditions?.length) continue;
      wrote = this.write(gc, { conditions: this.conditions(gc.status?.conditions, conds, gen) }) || wrote;
    }
    const routes = api.list('httproutes.gateway.networking.k8s.io') as HTTPRoute[];
    const routeStatus = new Map<string, RouteParentStatus[]>();
    for (const gw of api.list('gateways.gateway.networking.k8s.io') as Gateway[]) {
      const gen = gw.metadata.generation ?? 1;
      const proxy = owned.get(gw.spec.gatewayClassName);
      if (!proxy) {
        if (gw.status?.conditions?.length) continue;
        const pending = ['Accepted', 'Programmed'].map((type) => ({
          type,
          status: 'Unknown',
          reason: 'Pending',
          message: PENDING,
        }));
        wrote = this.write(gw, { conditions: this.conditions(undefined, pending, gen) }) || wrote;
        continue;
      }
      const world = gatewayStateForPod(api, proxy.pod, this.ctx.rng)!;
      const addresses = gatewayAddressOf(api, proxy, proxies).map((a) =>
        a.ip ? { type: 'IPAddress', value: a.ip } : { type: 'Hostname', value: a.hostname ?? '' },
      );
      const attachments = routes.flatMap((r) =>
        attachRoute({ ...world, gateways: [gw] }, r).map((a) => ({ route: r, a })),
      );
      const listeners: ListenerStatus[] = gw.spec.listeners.map((l) => {
        const v = listenerVerdict(world, l);
        const prev = gw.status?.listeners?.find((s) => s.name === l.name)?.conditions;
        return {
          name: l.name,
          attachedRoutes: attachments.filter((x) => x.a.listeners.includes(l.name)).length,
          supportedKinds: [{ group: GATEWAY_GROUP, kind: 'HTTPRoute' }],
          conditions: this.conditions(
            prev,
            [
              {
                type: 'Accepted',
                status: v.accepted ? 'True' : 'False',
                reason: v.reason,
                message: v.message,
              },
              {
                type: 'Programmed',
                status: v.accepted ? 'True' : 'False',
                reason: v.accepted ? 'Programmed' : 'Invalid',
                message: v.accepted ? 'No error found' : v.message,
              },
              { type: 'ResolvedRefs', status: 'True', reason: 'ResolvedRefs', message: 'No error found' },
            ],
            gen,
          ),
        };
      });
      const programmed = addresses.length > 0;
      const status = {
        ...(programmed ? { addresses } : {}),
        conditions: this.conditions(
          gw.status?.conditions,
          [
            {
              type: 'Accepted',
              status: 'True',
              reason: 'Accepted',
              message: 'Gateway successfully scheduled',
            },
            programmed
              ? {
                  type: 'Programmed',
                  status: 'True',
                  reason: 'Programmed',
                  message: 'Gateway successfully scheduled',
                }
              : {
                  type: 'Programmed',
                  status: 'False',
                  reason: 'AddressNotAssigned',
                  message: 'No address assigned to the Gateway',
                },
          ],
          gen,
        ),
        listeners,
      };
      wrote = this.write(gw, status) || wrote;
      for (const { route, a } of attachments) {
        const key = `${route.metadata.namespace}/${route.metadata.name}`;
        const prev = route.status?.parents?.find((p) => jsonEqual(p.parentRef, a.parentRef))?.conditions;
        const list = routeStatus.get(key) ?? [];
        list.push({
          parentRef: a.parentRef,
          controllerName: world.controllerName,
          conditions: this.conditions(prev, [a.accepted, a.resolvedRefs], route.metadata.generation ?? 1),
        });
        routeStatus.set(key, list);
      }
    }
    const ours = new Set(proxies.map((p) => p.implementation.gatewayController));
    for (const route of routes) {
      const mine = routeStatus.get(`${route.metadata.namespace}/${route.metadata.name}`) ?? [];
      const others = (route.status?.parents ?? []).filter((p) => !ours.has(p.controllerName));
      if (mine.length === 0 && others.length === (route.status?.parents ?? []).length) continue;
      wrote = this.write(route, { parents: [...others, ...mine] }) || wrote;
    }
    return wrote;
  }
}
