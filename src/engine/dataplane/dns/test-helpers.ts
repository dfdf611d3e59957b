/**
 * Builders for DNS tests. Conventions (mirroring CoreDNS's handler_test.go fixtures where a test ports one):
 * namespace `testns`, Services in 10.96.0.0/12, pods in 10.244.0.0/16, kubeadm's Corefile (ttl 30).
 */
import type { EndpointSlice, Namespace, Pod, Service } from '../../api/objects.ts';

const meta = (name: string, namespace?: string, labels?: Record<string, string>) => ({
  name,
  namespace,
  labels,
  uid: `uid-${namespace ?? ''}-${name}`,
  resourceVersion: '1',
  creationTimestamp: '2025-01-01T00:00:00Z',
});

export function makeService(ns: string, name: string, mutate?: (s: Service) => void): Service {
  const s: Service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta(name, ns),
    spec: {
      type: 'ClusterIP',
      clusterIP: '10.96.0.1',
      clusterIPs: ['10.96.0.1'],
      ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
    },
  };
  mutate?.(s);
  return s;
}

export interface EpSpec {
  ip: string;
  hostname?: string;
  pod?: string;
  ready?: boolean;
}

export function makeSlice(
  ns: string,
  service: string,
  endpoints: EpSpec[],
  ports: { name?: string; port: number; protocol?: string }[] = [{ name: 'http', port: 80, protocol: 'TCP' }],
): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: meta(`${service}-abcde`, ns, { 'kubernetes.io/service-name': service }),
    addressType: 'IPv4',
    endpoints: endpoints.map((e) => ({
      addresses: [e.ip],
      hostname: e.hostname,
      conditions: { ready: e.ready ?? true },
      targetRef: e.pod ? { kind: 'Pod', name: e.pod, namespace: ns } : undefined,
    })),
    ports: ports.map((p) => ({ name: p.name, port: p.port, protocol: p.protocol ?? 'TCP' })),
  };
}

export function makePod(ns: string, name: string, ip: string, labels: Record<string, string> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta(name, ns, labels),
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
    status: { podIP: ip, phase: 'Running' },
  };
}

export function makeNamespace(name: string, labels: Record<string, string> = {}): Namespace {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: meta(name, undefined, { 'kubernetes.io/metadata.name': name, ...labels }),
  };
}
