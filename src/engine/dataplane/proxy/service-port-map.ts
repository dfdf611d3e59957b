/**
 * Services as kube-proxy sees them: one ServicePortInfo per (Service, port), like upstream's
 * `BaseServicePortInfo` (`pkg/proxy/serviceport.go`), and the change tracker that folds watch events
 * into "which services changed" (`pkg/proxy/servicechangetracker.go`). Headless and ExternalName
 * Services are skipped, as `ShouldSkipService` does. IPv4 only.
 */
import type { Service } from '../../api/objects.ts';
import { parseCidr, parseIPv4, formatCidr } from '../../util/ip.ts';
import { jsonEqual } from '../../util/json.ts';

export type L4Protocol = 'TCP' | 'UDP' | 'SCTP';

export interface ServicePortInfo {
  readonly namespace: string;
  readonly name: string;
  /** The port's name ("" for an unnamed single port). */
  readonly portName: string;
  /** `ServicePortName.String()`: `ns/name` plus `:port` for named ports. */
  readonly nameString: string;
  readonly protocol: L4Protocol;
  readonly clusterIP: string;
  readonly port: number;
  readonly nodePort: number;
  readonly targetPort: number | string;
  readonly externalIPs: readonly string[];
  /** status.loadBalancer.ingress IPs with ipMode VIP (or unset), type LoadBalancer only. */
  readonly loadBalancerVIPs: readonly string[];
  readonly loadBalancerSourceRanges: readonly string[];
  readonly sessionAffinityClientIP: boolean;
  readonly stickyMaxAgeSeconds: number;
  readonly externalPolicyLocal: boolean;
  readonly internalPolicyLocal: boolean;
  readonly healthCheckNodePort: number;
  readonly trafficDistribution?: string;
}

/** The key kube-proxy's maps use: ServicePortName including the protocol. */
export function servicePortKey(nameString: string, protocol: string): string {
  return `${nameString}/${protocol}`;
}

export function keyOf(sp: ServicePortInfo): string {
  return servicePortKey(sp.nameString, sp.protocol);
}

/** `ServicePortName.String()` (K-TYPES): no trailing colon for unnamed ports. */
export function servicePortNameString(namespace: string, name: string, portName: string): string {
  return portName === '' ? `${namespace}/${name}` : `${namespace}/${name}:${portName}`;
}

const DEFAULT_STICKY_SECONDS = 10800;

/** The service ports of one Service (empty when kube-proxy ignores the Service). */
export function servicePortsFromService(svc: Service): ServicePortInfo[] {
  const spec = svc.spec ?? {};
  const clusterIP = spec.clusterIP ?? '';
  if (clusterIP === '' || clusterIP === 'None' || spec.type === 'ExternalName') return [];
  if (parseIPv4(clusterIP) === undefined) return [];
  const namespace = svc.metadata.namespace ?? 'default';
  const type = spec.type ?? 'ClusterIP';
  const externalIPs = (spec.externalIPs ?? []).filter((ip) => parseIPv4(ip) !== undefined);
  const loadBalancerVIPs =
    type === 'LoadBalancer'
      ? (svc.status?.loadBalancer?.ingress ?? [])
          .filter(
            (i) => i.ip && parseIPv4(i.ip) !== undefined && (i.ipMode === undefined || i.ipMode === 'VIP'),
          )
          .map((i) => i.ip as string)
      : [];
  // Upstream trims whitespace ("regression test that excess whitespace gets ignored") and drops invalid CIDRs.
  const loadBalancerSourceRanges = (spec.loadBalancerSourceRanges ?? []).flatMap((r) => {
    const c = parseCidr(r.trim());
    return c ? [formatCidr(c)] : [];
  });
  const externallyAccessible = type === 'LoadBalancer' || type === 'NodePort' || externalIPs.length > 0;
  const affinity = spec.sessionAffinity === 'ClientIP';
  const needsHealthCheck = type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
  return (spec.ports ?? []).map((p) => {
    const portName = p.name ?? '';
    const protocol = (p.protocol ?? 'TCP') as L4Protocol;
    return {
      namespace,
      name: svc.metadata.name,
      portName,
      nameString: servicePortNameString(namespace, svc.metadata.name, portName),
      protocol,
      clusterIP,
      port: p.port,
      nodePort: p.nodePort ?? 0,
      targetPort: p.targetPort ?? p.port,
      externalIPs,
      loadBalancerVIPs,
      loadBalancerSourceRanges,
      sessionAffinityClientIP: affinity,
      stickyMaxAgeSeconds: affinity
        ? (spec.sessionAffinityConfig?.clientIP?.timeoutSeconds ?? DEFAULT_STICKY_SECONDS)
        : 0,
      externalPolicyLocal: externallyAccessible && spec.externalTrafficPolicy === 'Local',
      internalPolicyLocal: spec.internalTrafficPolicy === 'Local',
      healthCheckNodePort: needsHealthCheck ? (spec.healthCheckNodePort ?? 0) : 0,
      ...(spec.trafficDistribution ? { trafficDistribution: spec.trafficDistribution } : {}),
    };
  });
}

/** NodePort, LoadBalancer VIPs or externalIPs (`ServicePort.ExternallyAccessible`). */
export function externallyAccessible(sp: ServicePortInfo): boolean {
  return sp.nodePort !== 0 || sp.loadBalancerVIPs.length > 0 || sp.externalIPs.length > 0;
}

/**
 * `UsesClusterEndpoints`: internal traffic policy Cluster, or any external access at all — even with
 * external traffic policy Local, pod and node traffic to external addresses is short-circuited to
 * the cluster endpoints.
 */
export function usesClusterEndpoints(sp: ServicePortInfo): boolean {
  return !sp.internalPolicyLocal || externallyAccessible(sp);
}

/** `UsesLocalEndpoints`: some traffic to this port goes to this node's endpoints only. */
export function usesLocalEndpoints(sp: ServicePortInfo): boolean {
  return sp.internalPolicyLocal || (sp.externalPolicyLocal && externallyAccessible(sp));
}

/**
 * Pending Service changes, folded per Service: a {previous, current} pair that is dropped when the
 * proxy-relevant view did not change (a label edit, a status write), as `ServiceChangeTracker.Update`.
 */
export class ServiceChangeTracker {
  private readonly pending = new Map<string, { previous: ServicePortInfo[]; current: ServicePortInfo[] }>();

  /** Records one event; returns whether any change is pending. */
  update(previous: Service | undefined, current: Service | undefined): boolean {
    const svc = current ?? previous;
    if (!svc) return this.pending.size > 0;
    const key = `${svc.metadata.namespace ?? 'default'}/${svc.metadata.name}`;
    const change = this.pending.get(key) ?? {
      previous: previous ? servicePortsFromService(previous) : [],
      current: [],
    };
    change.current = current ? servicePortsFromService(current) : [];
    if (jsonEqual(change.previous, change.current)) this.pending.delete(key);
    else this.pending.set(key, change);
    return this.pending.size > 0;
  }

  /** Takes the names (`ns/name`) of the Services whose ports changed. */
  checkout(): Set<string> {
    const names = new Set(this.pending.keys());
    this.pending.clear();
    return names;
  }
}

/** The whole map, sorted by name so every rendering is in the same order. */
export function buildServicePortMap(services: Iterable<Service>): ServicePortInfo[] {
  const out: ServicePortInfo[] = [];
  for (const s of services) out.push(...servicePortsFromService(s));
  return out.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
}
