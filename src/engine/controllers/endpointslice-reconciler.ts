/**
 * The pure half of the EndpointSlice controller, after staging/src/k8s.io/endpointslice
 * (`reconciler.go`, `utils.go`): the desired endpoints of a Service grouped by port mapping (a named
 * targetPort can resolve to different numbers on different pods), at most 100 per slice, and the
 * plan against the existing slices — reuse a slice with the same ports, create what is missing,
 * delete what is left over.
 */
import type { Endpoint, EndpointPort } from 'kubernetes-types/discovery/v1';
import type { EndpointSlice, Node, Pod, Service } from '../api/objects.ts';
import { parseIPv4 } from '../util/ip.ts';
import { isPodReady, isPodTerminal } from '../api/pod-status.ts';

export const MAX_ENDPOINTS_PER_SLICE = 100;

export interface DesiredSlice {
  readonly ports: EndpointPort[];
  readonly endpoints: Endpoint[];
}

/** `FindPort`: a numeric targetPort as is; a named one from the pod's container ports (same protocol). */
export function resolveTargetPort(
  pod: Pod,
  target: number | string | undefined,
  port: number,
  protocol: string,
): number | undefined {
  if (target === undefined || target === '' || target === 0) return port;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return Number(target);
  for (const c of pod.spec?.containers ?? []) {
    for (const p of c.ports ?? [])
      if (p.name === target && (p.protocol ?? 'TCP') === protocol) return p.containerPort;
  }
  return undefined;
}

/** `podToEndpoint`: ready/serving/terminating as the controller computes them. */
export function podEndpoint(pod: Pod, svc: Service, node: Node | undefined): Endpoint {
  const terminating = !!pod.metadata.deletionTimestamp;
  const ready = svc.spec?.publishNotReadyAddresses || isPodReady(pod);
  const zone = node?.metadata.labels?.['topology.kubernetes.io/zone'];
  const hostname =
    pod.spec?.hostname && pod.spec.subdomain === svc.metadata.name ? pod.spec.hostname : undefined;
  return {
    addresses: [pod.status!.podIP!],
    conditions: { ready: ready && !terminating, serving: ready, terminating },
    ...(hostname ? { hostname } : {}),
    ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
    targetRef: {
      kind: 'Pod',
      namespace: pod.metadata.namespace,
      name: pod.metadata.name,
      uid: pod.metadata.uid,
    },
    ...(zone ? { zone } : {}),
  };
}

/** Pods that belong in a Service's slices (`ShouldPodBeInEndpoints`): has an IP, not finished. */
export function podInEndpoints(pod: Pod): boolean {
  return !!pod.status?.podIP && !isPodTerminal(pod);
}

export function desiredSlices(
  svc: Service,
  pods: readonly Pod[],
  nodes: ReadonlyMap<string, Node>,
): DesiredSlice[] {
  const groups = new Map<string, DesiredSlice>();
  const sorted = [...pods].sort(
    (a, b) =>
      (parseIPv4(a.status?.podIP ?? '') ?? 0) - (parseIPv4(b.status?.podIP ?? '') ?? 0) ||
      a.metadata.name.localeCompare(b.metadata.name),
  );
  for (const pod of sorted) {
    const ports: EndpointPort[] = [];
    for (const sp of svc.spec?.ports ?? []) {
      const protocol = sp.protocol ?? 'TCP';
      const port = resolveTargetPort(pod, sp.targetPort, sp.port, protocol);
      if (port === undefined) continue;
      ports.push({
        name: sp.name ?? '',
        port,
        protocol,
        ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}),
      });
    }
    if ((svc.spec?.ports ?? []).length > 0 && ports.length === 0) continue;
    const key = JSON.stringify(ports);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { ports, endpoints: [] }));
    g.endpoints.push(podEndpoint(pod, svc, nodes.get(pod.spec?.nodeName ?? '')));
  }
  const out: DesiredSlice[] = [];
  for (const g of groups.values()) {
    for (let i = 0; i < g.endpoints.length; i += MAX_ENDPOINTS_PER_SLICE) {
      out.push({ ports: g.ports, endpoints: g.endpoints.slice(i, i + MAX_ENDPOINTS_PER_SLICE) });
    }
  }
  return out;
}

export interface SlicePlan {
  readonly create: DesiredSlice[];
  readonly update: { slice: EndpointSlice; desired: DesiredSlice }[];
  readonly remove: EndpointSlice[];
}

/**
 * Matches desired slices to existing ones with the same ports (keeping names stable); no desired
 * endpoints at all means one placeholder slice with none.
 */
export function planSlices(existing: readonly EndpointSlice[], desired: readonly DesiredSlice[]): SlicePlan {
  const want = desired.length > 0 ? desired : [{ ports: [], endpoints: [] }];
  const pool = [...existing].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  const create: DesiredSlice[] = [];
  const update: { slice: EndpointSlice; desired: DesiredSlice }[] = [];
  for (const d of want) {
    const key = JSON.stringify(d.ports);
    const i = pool.findIndex((s) => JSON.stringify(s.ports ?? []) === key);
    if (i >= 0) update.push({ slice: pool.splice(i, 1)[0]!, desired: d });
    else if (pool.length > 0 && desired.length === 0)
      update.push({ slice: pool.splice(0, 1)[0]!, desired: d });
    else create.push(d);
  }
  // A slice whose ports changed is reused rather than replaced, as `finalize` turns create+delete into update.
  while (create.length > 0 && pool.length > 0)
    update.push({ slice: pool.shift()!, desired: create.shift()! });
  return { create, update, remove: pool };
}
