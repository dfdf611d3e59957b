/** Small readers of a Service spec shared by allocation and update handling. */
import { isPlainObject } from '../util/json.ts';

export type Spec = Record<string, unknown>;
export type Port = Record<string, unknown>;

export function specOf(object: unknown): Spec {
  const o = object as Record<string, unknown>;
  if (!isPlainObject(o.spec)) o.spec = {};
  return o.spec as Spec;
}

export function portsOf(spec: Spec): Port[] {
  return Array.isArray(spec.ports) ? spec.ports.filter(isPlainObject) : [];
}

export const needsNodePorts = (spec: Spec): boolean =>
  spec.type === 'NodePort' || spec.type === 'LoadBalancer';

/** `apiservice.NeedsHealthCheck`. */
export const needsHealthCheck = (spec: Spec): boolean =>
  spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';

export const isHeadless = (spec: Spec): boolean =>
  spec.clusterIP === 'None' || (Array.isArray(spec.clusterIPs) && spec.clusterIPs[0] === 'None');

/** The NodePorts and healthCheckNodePort a Service holds. */
export function nodePortsOf(spec: Spec): number[] {
  const out = portsOf(spec)
    .map((p) => p.nodePort)
    .filter((n): n is number => typeof n === 'number' && n !== 0);
  if (typeof spec.healthCheckNodePort === 'number' && spec.healthCheckNodePort !== 0)
    out.push(spec.healthCheckNodePort);
  return out;
}
