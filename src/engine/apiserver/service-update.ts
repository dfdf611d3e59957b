/**
 * What a Service update does to allocated values before allocation runs (k8s.io/kubernetes
 * `pkg/registry/core/service/storage/storage.go` `patchAllocatedValues` and the Service strategy's
 * `dropTypeDependentFields`): omitted IPs and ports are kept, and values the new type no longer needs
 * are cleared, which is what releases them.
 */
import { needsHealthCheck, needsNodePorts, nodePortsOf, portsOf, type Spec } from './service-fields.ts';

/**
 * Service REST `patchAllocatedValues`: a PUT that omits what the server allocated (clusterIP, NodePorts,
 * healthCheckNodePort) keeps the old values, so `kubectl replace` of a hand-written file works. NodePorts
 * are matched by port name, as upstream does, so renumbering a named port keeps its NodePort; a NodePort
 * the new spec already uses for another port is not patched in twice.
 */
export function patchAllocatedValues(spec: Spec, before: Spec): void {
  if (before.type !== 'ExternalName' && spec.type !== 'ExternalName') {
    if (spec.clusterIP === undefined || spec.clusterIP === '') spec.clusterIP = before.clusterIP;
    if (!nonEmptyList(spec.clusterIPs) && nonEmptyList(before.clusterIPs))
      spec.clusterIPs = before.clusterIPs;
  }
  if (needsNodePorts(before) && needsNodePorts(spec)) {
    const inNew = new Set(nodePortsOf({ ports: spec.ports }));
    const used = new Set(nodePortsOf({ ports: before.ports }).filter((p) => inNew.has(p)));
    const oldByName = new Map(portsOf(before).map((p) => [String(p.name ?? ''), p.nodePort]));
    for (const p of portsOf(spec)) {
      if (p.nodePort) continue;
      const old = oldByName.get(String(p.name ?? ''));
      if (typeof old === 'number' && old !== 0 && !used.has(old)) p.nodePort = old;
    }
  }
  if (needsHealthCheck(before) && needsHealthCheck(spec) && !spec.healthCheckNodePort) {
    spec.healthCheckNodePort = before.healthCheckNodePort;
  }
}

/**
 * Service REST `normalizeClusterIPs`: keeps the singular and plural fields linked for clients that set
 * only one. An update that changes `clusterIP` and leaves `clusterIPs` as it was (a merge patch of
 * `spec.clusterIP`, say) moves `clusterIPs` along with it, so validation then refuses the change of the
 * primary IP ("may not change once set") instead of storing a Service whose two fields disagree.
 */
export function normalizeClusterIPs(spec: Spec, before: Spec | undefined): void {
  const ip = typeof spec.clusterIP === 'string' ? spec.clusterIP : '';
  if (before === undefined) {
    if (ip !== '' && !nonEmptyList(spec.clusterIPs)) spec.clusterIPs = [ip];
    return;
  }
  const oldIP = typeof before.clusterIP === 'string' ? before.clusterIP : '';
  if (nonEmptyList(before.clusterIPs) && !nonEmptyList(spec.clusterIPs) && oldIP === ip)
    spec.clusterIPs = before.clusterIPs;
  if (oldIP === ip) return;
  const same = JSON.stringify(spec.clusterIPs ?? []) === JSON.stringify(before.clusterIPs ?? []);
  if (!same) return;
  if (oldIP !== '' && ip === '') delete spec.clusterIPs;
  else spec.clusterIPs = [ip];
}

const nonEmptyList = (v: unknown): v is unknown[] => Array.isArray(v) && v.length > 0;

/**
 * Service strategy `dropTypeDependentFields`: fields the old type needed and the new one does not are
 * cleared when the request left them as they were (NodePorts going to ClusterIP, IPs going to
 * ExternalName), which is what releases them.
 */
export function dropTypeDependentFields(spec: Spec, before: Spec): void {
  if (spec.type === 'ExternalName' && before.type !== 'ExternalName') {
    for (const f of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy'] as const) {
      if (spec[f] === undefined || JSON.stringify(spec[f]) === JSON.stringify(before[f])) delete spec[f];
    }
  }
  if (!needsNodePorts(spec) && needsNodePorts(before)) {
    const oldPorts = new Set(nodePortsOf({ ports: before.ports }));
    for (const p of portsOf(spec))
      if (typeof p.nodePort === 'number' && oldPorts.has(p.nodePort)) delete p.nodePort;
  }
  if (
    !needsHealthCheck(spec) &&
    needsHealthCheck(before) &&
    spec.healthCheckNodePort === before.healthCheckNodePort
  ) {
    delete spec.healthCheckNodePort;
  }
  if (
    spec.type !== 'LoadBalancer' &&
    before.type === 'LoadBalancer' &&
    spec.allocateLoadBalancerNodePorts === before.allocateLoadBalancerNodePorts
  ) {
    delete spec.allocateLoadBalancerNodePorts;
  }
  if (
    spec.type !== 'NodePort' &&
    spec.type !== 'LoadBalancer' &&
    before.externalTrafficPolicy !== undefined
  ) {
    const externalIPs = Array.isArray(spec.externalIPs) && spec.externalIPs.length > 0;
    if (!externalIPs && spec.externalTrafficPolicy === before.externalTrafficPolicy)
      delete spec.externalTrafficPolicy;
  }
}
