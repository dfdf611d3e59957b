/**
 * Builders for proxy tests, in the style of upstream's `makeTestService(ns, name, mutate)` and
 * `makeTestEndpointSlice`.
 *
 * Conventions (as in `pkg/proxy/{iptables,nftables}/proxier_test.go`):
 *   Pod IPs              10.0.0.0/8 (upstream fixtures) or 10.244.0.0/16 (kubeadm/kind)
 *   Service ClusterIPs   172.30.0.0/16 (upstream fixtures) or 10.96.0.0/12
 *   Local node           test-node, 192.168.0.2
 *   Service ExternalIPs  192.168.99.0/24
 *   LoadBalancer IPs     1.2.3.4, 5.6.7.8
 *   Non-cluster clients  203.0.113.0/24; LB source range 203.0.113.0/25
 */
import type { EndpointSlice, Service } from '../../api/objects.ts';
import { buildEndpointsMap } from './endpoints-map.ts';
import type { ProxyInput } from './proxy-input.ts';
import { buildServicePortMap } from './service-port-map.ts';

let counter = 0;

function meta(namespace: string, name: string, labels?: Record<string, string>) {
  counter++;
  return {
    name,
    namespace,
    uid: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    resourceVersion: String(counter),
    creationTimestamp: '2026-01-01T00:00:00Z',
    ...(labels ? { labels } : {}),
  };
}

/** kubernetes-types marks status read-only (the server owns it); fixtures write it anyway. */
export type Writable<T> = { -readonly [K in keyof T]: T[K] };

export function makeService(
  namespace: string,
  name: string,
  mutate: (svc: Writable<Service>) => void,
): Service {
  const svc: Writable<Service> = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta(namespace, name),
    spec: { type: 'ClusterIP', ports: [] },
    status: { loadBalancer: {} },
  };
  mutate(svc);
  return svc;
}

export function makeEndpointSlice(
  namespace: string,
  service: string,
  index: number,
  mutate: (eps: EndpointSlice) => void,
): EndpointSlice {
  const eps: EndpointSlice = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: meta(namespace, `${service}-${index}`, { 'kubernetes.io/service-name': service }),
    addressType: 'IPv4',
    endpoints: [],
    ports: [],
  };
  mutate(eps);
  return eps;
}

export interface TestInputOptions {
  readonly nodeName?: string;
  readonly nodeIP?: string;
  readonly clusterCIDR?: string;
  readonly serviceCIDRs?: string[];
  readonly labels?: Record<string, string>;
  readonly masqueradeAll?: boolean;
}

export function makeProxyInput(
  services: Service[],
  slices: EndpointSlice[],
  opts: TestInputOptions = {},
): ProxyInput {
  const nodeName = opts.nodeName ?? 'test-node';
  return {
    node: { name: nodeName, ip: opts.nodeIP ?? '192.168.0.2', labels: opts.labels ?? {} },
    servicePorts: buildServicePortMap(services),
    endpoints: buildEndpointsMap(slices, nodeName),
    ...(opts.clusterCIDR === undefined
      ? { clusterCIDR: '10.0.0.0/8' }
      : opts.clusterCIDR
        ? { clusterCIDR: opts.clusterCIDR }
        : {}),
    serviceCIDRs: opts.serviceCIDRs ?? ['172.30.0.0/16'],
    ...(opts.masqueradeAll ? { masqueradeAll: true } : {}),
  };
}

/** The brief's `default/myapp`: unnamed port 80 → 8080, ClusterIP 10.96.45.12, two endpoints. */
export function myappFixture(
  type: 'ClusterIP' | 'NodePort' = 'ClusterIP',
  endpoints = ['10.244.1.5', '10.244.2.7'],
) {
  const svc = makeService('default', 'myapp', (s) => {
    s.spec = {
      type,
      clusterIP: '10.96.45.12',
      ports: [
        { port: 80, targetPort: 8080, protocol: 'TCP', ...(type === 'NodePort' ? { nodePort: 30080 } : {}) },
      ],
      selector: { app: 'myapp' },
    };
  });
  const slice = makeEndpointSlice('default', 'myapp', 1, (e) => {
    e.endpoints = endpoints.map((ip, i) => ({
      addresses: [ip],
      conditions: { ready: true },
      nodeName: `kind-worker${i === 0 ? '' : i + 1}`,
    }));
    e.ports = [{ name: '', port: 8080, protocol: 'TCP' }];
  });
  return makeProxyInput([svc], [slice], {
    nodeName: 'kind-worker',
    nodeIP: '172.18.0.3',
    clusterCIDR: '10.244.0.0/16',
    serviceCIDRs: ['10.96.0.0/12'],
  });
}
