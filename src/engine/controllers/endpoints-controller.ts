/**
 * The legacy Endpoints controller (pkg/controller/endpoint/endpoints_controller.go): one Endpoints
 * object per selector Service, named like the Service, with subsets grouping addresses by port set;
 * ready pods under `addresses`, not-ready ones under `notReadyAddresses`, terminating ones left out
 * (unless publishNotReadyAddresses). `kubectl get endpoints` still reads it (with a deprecation
 * warning since v1.33).
 */
import type { EndpointAddress, EndpointPort, EndpointSubset } from 'kubernetes-types/core/v1';
import type { Endpoints, Pod, ResourceKey, Service } from '../api/objects.ts';
import type { WatchEvent } from '../api/store.ts';
import { objectKey } from '../api/store.ts';
import { jsonEqual } from '../util/json.ts';
import { parseIPv4 } from '../util/ip.ts';
import { BaseController, splitKey } from './base-controller.ts';
import { isPodReady } from '../api/pod-status.ts';
import { hasSelector, podsSelectedBy, servicesForPodEvent } from './endpointslice-controller.ts';
import { podInEndpoints, resolveTargetPort } from './endpointslice-reconciler.ts';

const MANAGED_BY_LABEL = 'endpoints.kubernetes.io/managed-by';

export function endpointSubsets(svc: Service, pods: readonly Pod[]): EndpointSubset[] {
  const groups = new Map<
    string,
    { ports: EndpointPort[]; ready: EndpointAddress[]; notReady: EndpointAddress[] }
  >();
  for (const pod of pods) {
    const terminating = !!pod.metadata.deletionTimestamp;
    if (terminating && !svc.spec?.publishNotReadyAddresses) continue;
    const ports: EndpointPort[] = [];
    for (const sp of svc.spec?.ports ?? []) {
      const protocol = sp.protocol ?? 'TCP';
      const port = resolveTargetPort(pod, sp.targetPort, sp.port, protocol);
      if (port !== undefined)
        ports.push({
          ...(sp.name ? { name: sp.name } : {}),
          port,
          protocol,
          ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}),
        });
    }
    if ((svc.spec?.ports ?? []).length > 0 && ports.length === 0) continue;
    const key = JSON.stringify(ports);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { ports, ready: [], notReady: [] }));
    const addr: EndpointAddress = {
      ip: pod.status!.podIP!,
      ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
      targetRef: {
        kind: 'Pod',
        namespace: pod.metadata.namespace,
        name: pod.metadata.name,
        uid: pod.metadata.uid,
      },
    };
    (svc.spec?.publishNotReadyAddresses || isPodReady(pod) ? g.ready : g.notReady).push(addr);
  }
  const byIP = (a: EndpointAddress, b: EndpointAddress) => (parseIPv4(a.ip) ?? 0) - (parseIPv4(b.ip) ?? 0);
  return [...groups.values()].map((g) => ({
    ...(g.ready.length > 0 ? { addresses: g.ready.sort(byIP) } : {}),
    ...(g.notReady.length > 0 ? { notReadyAddresses: g.notReady.sort(byIP) } : {}),
    ...(g.ports.length > 0 ? { ports: g.ports } : {}),
  }));
}

export class EndpointsController extends BaseController {
  readonly name = 'endpoints-controller';

  protected watches(): [ResourceKey, (e: WatchEvent) => readonly string[]][] {
    return [
      ['services', (e) => [objectKey(e.object.metadata.namespace, e.object.metadata.name)]],
      ['pods', (e) => servicesForPodEvent(this.ctx.api, e)],
      // Upstream handles only deletions of Endpoints; a change by someone else is put right too, but
      // the controller's own writes do not bring the Service back.
      [
        'endpoints',
        (e) => (this.reconciling ? [] : [objectKey(e.object.metadata.namespace, e.object.metadata.name)]),
      ],
    ];
  }

  protected initialKeys(): string[] {
    return this.ctx.api.list('services').map((s) => objectKey(s.metadata.namespace, s.metadata.name));
  }

  protected reconcile(key: string): boolean {
    const [ns, name] = splitKey(key);
    const { api, clock } = this.ctx;
    const svc = api.get('services', ns, name);
    const current = api.get('endpoints', ns, name);
    if (!svc) {
      if (current && current.metadata.labels?.[MANAGED_BY_LABEL] === 'endpoint-controller') {
        api.delete('endpoints', ns, name);
        return true;
      }
      return false;
    }
    if (!hasSelector(svc)) return false;
    const pods = podsSelectedBy(api, svc).filter(podInEndpoints);
    const subsets = endpointSubsets(svc, pods);
    const labels = { ...svc.metadata.labels, [MANAGED_BY_LABEL]: 'endpoint-controller' };
    const body = { ...(subsets.length > 0 ? { subsets } : {}) };
    if (
      current &&
      jsonEqual((current as Endpoints).subsets ?? [], subsets) &&
      jsonEqual(current.metadata.labels, labels)
    )
      return false;
    const metadata = {
      ...(current?.metadata ?? { name, namespace: ns }),
      labels,
      annotations: {
        ...current?.metadata.annotations,
        'endpoints.kubernetes.io/last-change-trigger-time': clock.rfc3339(),
      },
    };
    if (current) api.update({ apiVersion: 'v1', kind: 'Endpoints', metadata, ...body });
    else api.create({ apiVersion: 'v1', kind: 'Endpoints', metadata, ...body });
    return true;
  }
}
