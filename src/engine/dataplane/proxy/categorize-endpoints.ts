/**
 * `CategorizeEndpoints` from `pkg/proxy/topology.go`, shared by all three modes: which endpoints
 * "Cluster" traffic policy uses, which "Local" uses, the union a node can route to, and whether the
 * Service has usable endpoints anywhere. Ready endpoints first; if none are ready anywhere, serving
 * and terminating ones (graceful termination, KEP-1669). Topology hints narrow the cluster set to the
 * node's zone (or the node itself) when every ready endpoint carries hints.
 */
import type { EndpointInfo } from './endpoints-map.ts';
import { compareEndpoints } from './endpoints-map.ts';
import { usesClusterEndpoints, usesLocalEndpoints, type ServicePortInfo } from './service-port-map.ts';

export interface CategorizedEndpoints {
  readonly clusterEndpoints: readonly EndpointInfo[];
  readonly localEndpoints: readonly EndpointInfo[];
  readonly allReachableEndpoints: readonly EndpointInfo[];
  readonly hasAnyEndpoints: boolean;
}

const ZONE_LABEL = 'topology.kubernetes.io/zone';

export function categorizeEndpoints(
  endpoints: readonly EndpointInfo[],
  svc: ServicePortInfo,
  nodeName: string,
  nodeLabels: Readonly<Record<string, string>>,
): CategorizedEndpoints {
  let clusterEndpoints: EndpointInfo[] = [];
  let localEndpoints: EndpointInfo[] = [];
  let hasAnyEndpoints = false;

  if (usesClusterEndpoints(svc)) {
    const zone = nodeLabels[ZONE_LABEL] ?? '';
    const mode = topologyModeFromHints(endpoints, nodeName, zone);
    clusterEndpoints = endpoints.filter((ep) => ep.ready && availableForTopology(ep, mode, nodeName, zone));
    // No ready endpoint anywhere (topology already fell back): try serving-and-terminating ones.
    if (clusterEndpoints.length === 0)
      clusterEndpoints = endpoints.filter((ep) => ep.serving && ep.terminating);
    if (clusterEndpoints.length > 0) hasAnyEndpoints = true;
  }

  if (!usesLocalEndpoints(svc)) {
    return { clusterEndpoints, localEndpoints, allReachableEndpoints: clusterEndpoints, hasAnyEndpoints };
  }

  let hasLocalReady = false;
  let hasLocalServingTerminating = false;
  for (const ep of endpoints) {
    if (ep.ready) {
      hasAnyEndpoints = true;
      if (ep.isLocal) hasLocalReady = true;
    } else if (ep.serving && ep.terminating) {
      hasAnyEndpoints = true;
      if (ep.isLocal) hasLocalServingTerminating = true;
    }
  }
  if (hasLocalReady) localEndpoints = endpoints.filter((ep) => ep.isLocal && ep.ready);
  else if (hasLocalServingTerminating)
    localEndpoints = endpoints.filter((ep) => ep.isLocal && ep.serving && ep.terminating);

  if (!usesClusterEndpoints(svc)) {
    return { clusterEndpoints, localEndpoints, allReachableEndpoints: localEndpoints, hasAnyEndpoints };
  }
  // Upstream merges through a map (random order); we keep kube-proxy's endpoint order instead.
  const merged = new Map<string, EndpointInfo>();
  for (const ep of clusterEndpoints) merged.set(ep.endpoint, ep);
  for (const ep of localEndpoints) merged.set(ep.endpoint, ep);
  const allReachableEndpoints = [...merged.values()].sort(compareEndpoints);
  return { clusterEndpoints, localEndpoints, allReachableEndpoints, hasAnyEndpoints };
}

type TopologyMode = '' | 'PreferSameNode' | 'PreferSameZone';

/** `topologyModeFromHints`: hints count only when every ready endpoint has them. */
function topologyModeFromHints(
  endpoints: readonly EndpointInfo[],
  nodeName: string,
  zone: string,
): TopologyMode {
  let allNodeHints = true;
  let hasForNode = false;
  let allZoneHints = true;
  let hasForZone = false;
  let anyReady = false;
  for (const ep of endpoints) {
    if (!ep.ready) continue;
    anyReady = true;
    if (ep.nodeHints.length === 0) allNodeHints = false;
    else if (ep.nodeHints.includes(nodeName)) hasForNode = true;
    if (ep.zoneHints.length === 0) allZoneHints = false;
    else if (ep.zoneHints.includes(zone)) hasForZone = true;
  }
  if (!anyReady) return '';
  if (allNodeHints && hasForNode) return 'PreferSameNode';
  if (allZoneHints && hasForZone) return 'PreferSameZone';
  return '';
}

function availableForTopology(ep: EndpointInfo, mode: TopologyMode, nodeName: string, zone: string): boolean {
  if (mode === 'PreferSameNode') return ep.nodeHints.includes(nodeName);
  if (mode === 'PreferSameZone') return ep.zoneHints.includes(zone);
  return true;
}
