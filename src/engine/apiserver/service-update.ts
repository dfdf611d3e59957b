/**
 * What a Service update does to allocated values before allocation runs (k8s.io/kubernetes
 * `pkg/registry/core/service/storage/storage.go` `patchAllocatedValues` and the Service strategy's
 * `dropTypeDependentFields`): omitted IPs and ports are kept, and values the new type no longer needs
 * are cleared, which is what releases them.
 */
import { needsHealthCheck, needsNodePorts, nodePortsOf, portsOf, type Spec } from './service-fields.ts';

/**
 * Service REST `patchAllocatedValues`: a PUT that omits what the server allocated (clusterIP, NodePorts,
 * healthCheckNodePort) keeps the old values, so `kubectl replace` of a hand-written file works.
 */
export function patchAllocatedValues(spec: Spec, before: Spec): void {
  const hadIP = before.type !== 'ExternalName';
  if (hadIP && spec.type !== 'ExternalName') {
    if (spec.clusterIP === undefined || spec.clusterIP === '') spec.clusterIP = before.clusterIP;
    if (!Array.isArray(spec.clusterIPs) || spec.clusterIPs.length === 0) {
      spec.clusterIPs = spec.clusterIP === before.clusterIP ? before.clusterIPs : [spec.clusterIP];
    }
  }
  if (needsNodePorts(before) && needsNodePorts(spec)) {
    const oldByPort = new Map(
      portsOf(before).map((p) => [`${String(p.protocol)}/${String(p.port)}`, p.nodePort]),
    );
    for (const p of portsOf(spec)) {
      if (!p.nodePort) {
        const old = oldByPort.get(`${String(p.protocol)}/${String(p.port)}`);
        if (old) p.nodePort = old;
      }
    }
  }
  if (needsHealthCheck(before) && needsHealthCheck(spec) && !spec.healthCheckNodePort) {
    spec.healthCheckNodePort = before.healthCheckNodePort;
  }
}

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
