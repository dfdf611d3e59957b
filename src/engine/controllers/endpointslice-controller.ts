/**
 * The EndpointSlice controller (pkg/controller/endpointslice/endpointslice_controller.go + the
 * reconciler in staging/src/k8s.io/endpointslice): for every Service with a selector, slices named
 * `<svc>-<5 chars>` (generateName), labelled `kubernetes.io/service-name` and
 * `endpointslice.kubernetes.io/managed-by: endpointslice-controller.k8s.io`, owned by the Service,
 * listing each matching pod with an IP: ready/serving/terminating conditions, nodeName, targetRef,
 * zone; ports resolved per pod. Four steps per Service: existing → desired → plan
 * (endpointslice-reconciler.ts) → apply.
 */
import type { EndpointSlice, Pod, ResourceKey, Service } from '../api/objects.ts';
import type { WatchEvent } from '../api/store.ts';
import {
  labelIndexKeys,
  objectKey,
  POD_LABEL_INDEX,
  SERVICE_SELECTOR_INDEX,
  SLICE_SERVICE_INDEX,
} from '../api/store.ts';
import type { ApiServer } from '../apiserver/apiserver.ts';
import { matchesMapSelector } from '../api/labels.ts';
import { deepClone, jsonEqual } from '../util/json.ts';
import { BaseController, splitKey } from './base-controller.ts';
import { controllerRef, createWithGeneratedName } from './pod-util.ts';
import { isPodReady } from '../api/pod-status.ts';
import { desiredSlices, planSlices, podInEndpoints, type DesiredSlice } from './endpointslice-reconciler.ts';

export const MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
export const CONTROLLER_NAME = 'endpointslice-controller.k8s.io';
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
const ZONE_LABEL = 'topology.kubernetes.io/zone';

/** Services whose slices this controller maintains: those with a non-empty selector. */
export function hasSelector(svc: Service): boolean {
  if (svc.spec?.type === 'ExternalName') return false;
  for (const _ in svc.spec?.selector ?? {}) return true;
  return false;
}

/**
 * Keys of the selector Services a pod event concerns: those matching the pod's labels before or after.
 * Found through SERVICE_SELECTOR_INDEX (a Service is filed under its first selector pair, which a
 * matching pod must carry), not by testing every Service of the namespace.
 */
export function servicesForPodEvent(api: ApiServer, e: WatchEvent): readonly string[] {
  // The Endpoints and EndpointSlice controllers ask it of the same event, one after the other, inside
  // the same write: the second gets the first's answer.
  if (lastPodEvent.event !== e) lastPodEvent = { event: e, keys: computeServicesForPodEvent(api, e) };
  return lastPodEvent.keys;
}

let lastPodEvent: { event?: WatchEvent; keys: readonly string[] } = { keys: [] };

function computeServicesForPodEvent(api: ApiServer, e: WatchEvent): readonly string[] {
  // `GetServicesToUpdateOnPodChange`: an update that moves nothing an endpoint shows concerns no Service.
  if (e.type === 'MODIFIED' && e.oldObject && !podEndpointsChanged(e.oldObject as Pod, e.object as Pod))
    return [];
  const ns = e.object.metadata.namespace;
  const now = (e.object as Pod).metadata.labels;
  const before = (e.oldObject as Pod | undefined)?.metadata.labels;
  const keys = now ? servicesSelecting(api, ns, now) : [];
  // A status write shares the labels map: one answer serves both.
  if (!before || before === now) return keys;
  return [...new Set([...keys, ...servicesSelecting(api, ns, before)])];
}

/**
 * Keys of the selector Services of `ns` whose selector matches `labels`. A pod's status writes share
 * its labels map, so the answer is kept per map until a Service is written (the table's version). A
 * pure memo: the store is part of the key, since clusters restored from one snapshot share their
 * pods' labels maps and may reach the same table version with different Services.
 */
const selecting = new WeakMap<
  object,
  { store: object; ns: string | undefined; version: number; keys: string[] }
>();

function servicesSelecting(
  api: ApiServer,
  ns: string | undefined,
  labels: Record<string, string>,
): readonly string[] {
  const version = api.store.tableVersion('services');
  const hit = selecting.get(labels);
  if (hit && hit.store === api.store && hit.version === version && hit.ns === ns) return hit.keys;
  const keys: string[] = [];
  for (const value of labelIndexKeys(ns, labels)) {
    for (const s of api.store.byIndexShared('services', SERVICE_SELECTOR_INDEX, value)) {
      const key = objectKey(ns, s.metadata.name);
      if (hasSelector(s) && matchesMapSelector(s.spec!.selector, labels) && !keys.includes(key))
        keys.push(key);
    }
  }
  selecting.set(labels, { store: api.store, ns, version, keys });
  return keys;
}

/**
 * `podEndpointsChanged` (endpointslice util): labels, hostname/subdomain, deletion, readiness or IPs.
 * The phase is compared too, so a pod that finishes leaves the endpoints even when it was not ready.
 */
function podEndpointsChanged(old: Pod, pod: Pod): boolean {
  if (old === pod) return false;
  if (!jsonEqual(old.metadata.labels ?? {}, pod.metadata.labels ?? {})) return true;
  if (old.spec?.hostname !== pod.spec?.hostname || old.spec?.subdomain !== pod.spec?.subdomain) return true;
  if (old.metadata.deletionTimestamp !== pod.metadata.deletionTimestamp) return true;
  if (isPodReady(old) !== isPodReady(pod)) return true;
  if (old.status?.phase !== pod.status?.phase) return true;
  const a = old.status?.podIPs ?? [];
  const b = pod.status?.podIPs ?? [];
  if (old.status?.podIP !== pod.status?.podIP || a.length !== b.length) return true;
  return a.some((ip, i) => ip.ip !== b[i]?.ip);
}

/** The pods of the Service's namespace that its (non-empty) selector matches, in list order. */
export function podsSelectedBy(api: ApiServer, svc: Service): Pod[] {
  const selector = svc.spec?.selector ?? {};
  const first = Object.keys(selector).sort()[0];
  if (first === undefined) return [];
  const [value] = labelIndexKeys(svc.metadata.namespace, { [first]: selector[first]! });
  return api
    .byIndex('pods', POD_LABEL_INDEX, value!)
    .filter((p) => matchesMapSelector(selector, p.metadata.labels));
}

export class EndpointSliceController extends BaseController {
  readonly name = 'endpointslice-controller';

  protected watches(): [ResourceKey, (e: WatchEvent) => readonly string[]][] {
    const forPod = (e: WatchEvent) => servicesForPodEvent(this.ctx.api, e);
    return [
      ['services', (e) => [objectKey(e.object.metadata.namespace, e.object.metadata.name)]],
      ['pods', forPod],
      [
        'endpointslices.discovery.k8s.io',
        (e) => {
          // Its own writes are what it expects (`endpointSliceTracker.ShouldSync` is false for them):
          // only slices changed by someone else bring the Service back.
          if (this.reconciling) return [];
          const svc = e.object.metadata.labels?.[SERVICE_NAME_LABEL];
          return svc && e.object.metadata.labels?.[MANAGED_BY] === CONTROLLER_NAME
            ? [objectKey(e.object.metadata.namespace, svc)]
            : [];
        },
      ],
      // An endpoint reads its node only for the zone: a node's status (images, conditions) changing
      // moves no slice, so only new or removed nodes and zone changes look at every Service again.
      [
        'nodes',
        (e) =>
          e.type === 'MODIFIED' &&
          e.oldObject?.metadata.labels?.[ZONE_LABEL] === e.object.metadata.labels?.[ZONE_LABEL]
            ? []
            : this.initialKeys(),
      ],
    ];
  }

  protected initialKeys(): string[] {
    return this.ctx.api.list('services').map((s) => objectKey(s.metadata.namespace, s.metadata.name));
  }

  protected reconcile(key: string): boolean {
    const [ns, name] = splitKey(key);
    const { api } = this.ctx;
    const svc = api.get('services', ns, name);
    // 1. existing
    const existing = api
      .byIndex('endpointslices.discovery.k8s.io', SLICE_SERVICE_INDEX, `${ns}/${name}`)
      .filter((s) => s.metadata.labels?.[MANAGED_BY] === CONTROLLER_NAME);
    if (!svc || !hasSelector(svc) || svc.metadata.deletionTimestamp) {
      for (const s of existing) api.delete('endpointslices.discovery.k8s.io', ns, s.metadata.name);
      return existing.length > 0;
    }
    // 2. desired
    const pods = podsSelectedBy(api, svc).filter(podInEndpoints);
    const nodes = new Map(api.list('nodes').map((n) => [n.metadata.name, n]));
    const desired = desiredSlices(svc, pods, nodes);
    // 3. plan, 4. apply
    const plan = planSlices(existing, desired);
    let wrote = false;
    for (const d of plan.create) wrote = this.create(svc, d) || wrote;
    for (const { slice, desired: d } of plan.update) wrote = this.update(svc, slice, d) || wrote;
    for (const s of plan.remove) {
      api.delete('endpointslices.discovery.k8s.io', ns, s.metadata.name);
      wrote = true;
    }
    return wrote;
  }

  private labels(svc: Service): Record<string, string> {
    const own = Object.fromEntries(
      Object.entries(svc.metadata.labels ?? {}).filter(([k]) => k !== MANAGED_BY && k !== SERVICE_NAME_LABEL),
    );
    return { ...own, [MANAGED_BY]: CONTROLLER_NAME, [SERVICE_NAME_LABEL]: svc.metadata.name };
  }

  private body(d: DesiredSlice) {
    return { addressType: 'IPv4', endpoints: d.endpoints, ...(d.ports.length > 0 ? { ports: d.ports } : {}) };
  }

  private create(svc: Service, d: DesiredSlice): boolean {
    const created = createWithGeneratedName(
      this.ctx.api,
      this.ctx.rng,
      {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: {
          namespace: svc.metadata.namespace,
          labels: this.labels(svc),
          annotations: { 'endpoints.kubernetes.io/last-change-trigger-time': this.ctx.clock.rfc3339() },
          ownerReferences: [controllerRef(svc)],
        },
        ...this.body(d),
      },
      `${svc.metadata.name}-`,
    );
    return created !== undefined;
  }

  private update(svc: Service, slice: EndpointSlice, d: DesiredSlice): boolean {
    const body = this.body(d);
    const labels = this.labels(svc);
    if (
      jsonEqual(slice.endpoints ?? [], body.endpoints) &&
      jsonEqual(slice.ports ?? [], body.ports ?? []) &&
      jsonEqual(slice.metadata.labels, labels)
    ) {
      return false;
    }
    const next = deepClone(slice) as Record<string, unknown> & {
      metadata: EndpointSlice['metadata'];
    };
    next.metadata.labels = labels;
    next.metadata.annotations = {
      ...next.metadata.annotations,
      'endpoints.kubernetes.io/last-change-trigger-time': this.ctx.clock.rfc3339(),
    };
    next.endpoints = body.endpoints;
    if (body.ports) next.ports = body.ports;
    else delete next.ports;
    this.ctx.api.update(next);
    return true;
  }
}
