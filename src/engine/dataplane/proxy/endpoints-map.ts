/**
 * Endpoints as kube-proxy sees them: EndpointSlices merged per service port, like upstream's
 * `EndpointSliceCache` (`pkg/proxy/endpointslicecache.go`). Endpoints are de-duplicated by `IP:port`
 * and sorted by that string, lexicographically — `byEndpoint.Less` — so 10.244.10.5:80 comes before
 * 10.244.2.7:80. Only the first address of an endpoint counts, and only IPv4 slices.
 */
import type { EndpointSlice } from '../../api/objects.ts';
import { parseIPv4 } from '../../util/ip.ts';
import { servicePortKey, servicePortNameString } from './service-port-map.ts';

export interface EndpointInfo {
  readonly ip: string;
  readonly port: number;
  /** `IP:port`, the endpoint's `String()`. */
  readonly endpoint: string;
  readonly ready: boolean;
  readonly serving: boolean;
  readonly terminating: boolean;
  readonly isLocal: boolean;
  readonly nodeName?: string;
  readonly zone?: string;
  readonly zoneHints: readonly string[];
  readonly nodeHints: readonly string[];
  /** The pod behind the endpoint, for traces. */
  readonly targetRef?: { readonly namespace: string; readonly name: string };
}

/** Service-port key (see `servicePortKey`) → endpoints in kube-proxy's order. */
export type EndpointsMap = ReadonlyMap<string, readonly EndpointInfo[]>;

export function compareEndpoints(a: EndpointInfo, b: EndpointInfo): number {
  return a.endpoint < b.endpoint ? -1 : a.endpoint > b.endpoint ? 1 : 0;
}

/**
 * Builds the endpoints map from every slice of the cluster, as seen by kube-proxy on `nodeName`
 * (which decides `isLocal`).
 */
export function buildEndpointsMap(
  slices: Iterable<EndpointSlice>,
  nodeName: string,
): Map<string, EndpointInfo[]> {
  return collectEndpoints(slices, nodeName).map;
}

/** No node is called this (node names are DNS subdomains): every endpoint is remote. */
const NO_NODE = '\0';

/**
 * buildEndpointsMap for many nodes (kube-proxy renders every node): the slices are read once, and a
 * node's map differs from the all-remote one only in `isLocal` of the endpoints on that node. When an
 * endpoint appears in two slices (the local view wins) each node's map is built in full instead.
 */
export function endpointsMapsByNode(
  slices: Iterable<EndpointSlice>,
): (nodeName: string) => Map<string, EndpointInfo[]> {
  const all = [...slices];
  const remote = collectEndpoints(all, NO_NODE);
  if (remote.duplicates) return (nodeName) => buildEndpointsMap(all, nodeName);
  return (nodeName) => {
    const out = new Map<string, EndpointInfo[]>();
    for (const [key, list] of remote.map) {
      const copy = list.slice();
      for (let i = 0; i < copy.length; i++)
        if (copy[i]!.nodeName === nodeName) {
          const local = { ...copy[i]!, isLocal: true };
          localCopies.set(local, copy[i]!);
          copy[i] = local;
        }
      out.set(key, copy);
    }
    return out;
  };
}

/** A node's local copy of an endpoint → the shared all-remote original it was made from. */
const localCopies = new WeakMap<EndpointInfo, EndpointInfo>();

/**
 * The endpoint with its node-local view set aside: the same object for every node's copy. Rules that
 * read locality only through categorizeEndpoints' lists can be shared on this identity.
 */
export function sharedEndpoint(ep: EndpointInfo): EndpointInfo {
  return localCopies.get(ep) ?? ep;
}

function collectEndpoints(
  slices: Iterable<EndpointSlice>,
  nodeName: string,
): { map: Map<string, EndpointInfo[]>; duplicates: boolean } {
  let duplicates = false;
  const byPort = new Map<string, Map<string, EndpointInfo>>();
  for (const slice of slices) {
    if (slice.addressType !== 'IPv4') continue;
    const service = slice.metadata.labels?.['kubernetes.io/service-name'];
    if (!service) continue;
    const namespace = slice.metadata.namespace ?? 'default';
    for (const p of slice.ports ?? []) {
      // Upstream ignores a port without a port number ("ignoring invalid endpoint port").
      if (p.port === undefined || p.port === null) continue;
      const key = servicePortKey(
        servicePortNameString(namespace, service, p.name ?? ''),
        p.protocol ?? 'TCP',
      );
      let set = byPort.get(key);
      if (!set) byPort.set(key, (set = new Map()));
      for (const ep of slice.endpoints ?? []) {
        const ip = ep.addresses?.[0];
        if (!ip || parseIPv4(ip) === undefined) continue;
        const info = endpointInfo(ep, ip, p.port, nodeName);
        const existing = set.get(info.endpoint);
        if (existing) duplicates = true;
        // Upstream: duplicates across slices are merged, favouring the local view.
        if (!existing || (info.isLocal && !existing.isLocal)) set.set(info.endpoint, info);
      }
    }
  }
  const map = new Map<string, EndpointInfo[]>();
  for (const [key, set] of byPort) map.set(key, [...set.values()].sort(compareEndpoints));
  return { map, duplicates };
}

type SliceEndpoint = NonNullable<EndpointSlice['endpoints']>[number];

function endpointInfo(ep: SliceEndpoint, ip: string, port: number, nodeName: string): EndpointInfo {
  const c = ep.conditions ?? {};
  // EndpointSlice semantics: a nil ready/serving means true, a nil terminating means false.
  const ready = c.ready === undefined || c.ready === null || c.ready;
  const serving = c.serving === undefined || c.serving === null || c.serving;
  const terminating = c.terminating === true;
  const hints = (ep.hints ?? {}) as { forZones?: { name: string }[]; forNodes?: { name: string }[] };
  return {
    ip,
    port,
    endpoint: `${ip}:${port}`,
    ready,
    serving,
    terminating,
    isLocal: ep.nodeName !== undefined && ep.nodeName === nodeName,
    ...(ep.nodeName ? { nodeName: ep.nodeName } : {}),
    ...(ep.zone ? { zone: ep.zone } : {}),
    zoneHints: (hints.forZones ?? []).map((z) => z.name),
    nodeHints: (hints.forNodes ?? []).map((n) => n.name),
    ...(ep.targetRef?.name
      ? { targetRef: { namespace: ep.targetRef.namespace ?? '', name: ep.targetRef.name } }
      : {}),
  };
}
