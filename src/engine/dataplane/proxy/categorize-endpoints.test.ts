import { describe, expect, it } from 'vitest';
import { categorizeEndpoints } from './categorize-endpoints.ts';
import type { EndpointInfo } from './endpoints-map.ts';
import { ServiceChangeTracker, servicePortsFromService, type ServicePortInfo } from './service-port-map.ts';
import { parseKubeProxyConfiguration } from './kube-proxy-config.ts';
import { buildEndpointsMap } from './endpoints-map.ts';
import { makeEndpointSlice, makeService } from './test-helpers.ts';

function ep(ip: string, o: Partial<EndpointInfo> = {}): EndpointInfo {
  return {
    ip,
    port: 80,
    endpoint: `${ip}:80`,
    ready: true,
    serving: true,
    terminating: false,
    isLocal: false,
    zoneHints: [],
    nodeHints: [],
    ...o,
  };
}

const base: ServicePortInfo = servicePortsFromService(
  makeService('ns', 'svc', (s) => {
    s.spec = { clusterIP: '172.30.0.1', ports: [{ port: 80, protocol: 'TCP' }] };
  }),
)[0]!;

const names = (eps: readonly EndpointInfo[]) => eps.map((e) => e.ip);

// Cases after upstream pkg/proxy/topology_test.go (TestCategorizeEndpoints).
describe('CategorizeEndpoints', () => {
  it.each([
    {
      name: 'ready endpoints only',
      svc: base,
      eps: [ep('10.0.0.1'), ep('10.0.0.2', { ready: false, serving: true, terminating: true })],
      cluster: ['10.0.0.1'],
      local: [],
      all: ['10.0.0.1'],
      any: true,
    },
    {
      name: 'serving+terminating fallback when nothing is ready',
      svc: base,
      eps: [
        ep('10.0.0.1', { ready: false, serving: true, terminating: true }),
        ep('10.0.0.2', { ready: false, serving: false, terminating: true }),
      ],
      cluster: ['10.0.0.1'],
      local: [],
      all: ['10.0.0.1'],
      any: true,
    },
    {
      name: 'no usable endpoints',
      svc: base,
      eps: [ep('10.0.0.1', { ready: false, serving: false })],
      cluster: [],
      local: [],
      all: [],
      any: false,
    },
    {
      name: 'internalTrafficPolicy Local: only local endpoints, but the Service has endpoints',
      svc: { ...base, internalPolicyLocal: true },
      eps: [ep('10.0.0.1'), ep('10.0.0.2', { isLocal: true })],
      cluster: [],
      local: ['10.0.0.2'],
      all: ['10.0.0.2'],
      any: true,
    },
    {
      name: 'externalTrafficPolicy Local: both sets, reachable is the union',
      svc: { ...base, nodePort: 30080, externalPolicyLocal: true },
      eps: [
        ep('10.0.0.1'),
        ep('10.0.0.2', { isLocal: true }),
        ep('10.0.0.3', { isLocal: true, ready: false, serving: true, terminating: true }),
      ],
      cluster: ['10.0.0.1', '10.0.0.2'],
      local: ['10.0.0.2'],
      all: ['10.0.0.1', '10.0.0.2'],
      any: true,
    },
    {
      name: 'externalTrafficPolicy Local with only a terminating local endpoint',
      svc: { ...base, nodePort: 30080, externalPolicyLocal: true },
      eps: [
        ep('10.0.0.1'),
        ep('10.0.0.3', { isLocal: true, ready: false, serving: true, terminating: true }),
      ],
      cluster: ['10.0.0.1'],
      local: ['10.0.0.3'],
      all: ['10.0.0.1', '10.0.0.3'],
      any: true,
    },
    {
      name: 'zone hints narrow the cluster endpoints to the node zone',
      svc: base,
      labels: { 'topology.kubernetes.io/zone': 'zone-a' },
      eps: [ep('10.0.0.1', { zoneHints: ['zone-a'] }), ep('10.0.0.2', { zoneHints: ['zone-b'] })],
      cluster: ['10.0.0.1'],
      local: [],
      all: ['10.0.0.1'],
      any: true,
    },
    {
      name: 'hints are ignored unless every ready endpoint has them',
      svc: base,
      labels: { 'topology.kubernetes.io/zone': 'zone-a' },
      eps: [ep('10.0.0.1', { zoneHints: ['zone-a'] }), ep('10.0.0.2')],
      cluster: ['10.0.0.1', '10.0.0.2'],
      local: [],
      all: ['10.0.0.1', '10.0.0.2'],
      any: true,
    },
  ])('$name', ({ svc, eps, cluster, local, all, any, labels }) => {
    const c = categorizeEndpoints(eps, svc, 'test-node', labels ?? {});
    expect(names(c.clusterEndpoints)).toEqual(cluster);
    expect(names(c.localEndpoints)).toEqual(local);
    expect(names(c.allReachableEndpoints)).toEqual(all);
    expect(c.hasAnyEndpoints).toBe(any);
  });
});

describe('service ports and endpoints as kube-proxy reads them', () => {
  it('skips headless and ExternalName Services', () => {
    expect(
      servicePortsFromService(
        makeService('ns', 'h', (s) => void (s.spec = { clusterIP: 'None', ports: [{ port: 80 }] })),
      ),
    ).toEqual([]);
    expect(
      servicePortsFromService(
        makeService('ns', 'x', (s) => void (s.spec = { type: 'ExternalName', externalName: 'example.com' })),
      ),
    ).toEqual([]);
  });

  it('ignores LoadBalancer ingress with ipMode Proxy and trims source ranges', () => {
    const [sp] = servicePortsFromService(
      makeService('ns', 'lb', (s) => {
        s.spec = {
          type: 'LoadBalancer',
          clusterIP: '172.30.0.9',
          loadBalancerSourceRanges: [' 203.0.113.0/25', 'bogus'],
          ports: [{ port: 80, nodePort: 30001 }],
        };
        s.status = { loadBalancer: { ingress: [{ ip: '1.2.3.4' }, { ip: '5.6.7.8', ipMode: 'Proxy' }] } };
      }),
    );
    expect(sp?.loadBalancerVIPs).toEqual(['1.2.3.4']);
    expect(sp?.loadBalancerSourceRanges).toEqual(['203.0.113.0/25']);
  });

  it('sorts endpoints by IP:port as strings (10.244.10.5 before 10.244.2.7)', () => {
    const m = buildEndpointsMap(
      [
        makeEndpointSlice('ns', 'svc', 1, (e) => {
          e.endpoints = [{ addresses: ['10.244.2.7'] }, { addresses: ['10.244.10.5'] }];
          e.ports = [{ name: '', port: 80, protocol: 'TCP' }];
        }),
      ],
      'n',
    );
    expect(m.get('ns/svc/TCP')?.map((e) => e.endpoint)).toEqual(['10.244.10.5:80', '10.244.2.7:80']);
  });

  it('drops Service changes that do not matter to kube-proxy (ServiceChangeTracker)', () => {
    const tracker = new ServiceChangeTracker();
    const a = makeService(
      'ns',
      'svc',
      (s) => void (s.spec = { clusterIP: '172.30.0.1', ports: [{ port: 80 }] }),
    );
    const b = { ...a, metadata: { ...a.metadata, labels: { x: 'y' } } };
    expect(tracker.update(a, b)).toBe(false);
    const c = { ...a, spec: { ...a.spec, ports: [{ port: 81 }] } };
    expect(tracker.update(a, c)).toBe(true);
    expect([...tracker.checkout()]).toEqual(['ns/svc']);
  });
});

describe('KubeProxyConfiguration', () => {
  it.each([
    ['mode: ""', 'iptables'],
    ['mode: iptables', 'iptables'],
    ['mode: "nftables"', 'nftables'],
    ['mode: ipvs\nipvs:\n  scheduler: sh', 'ipvs'],
  ])('%j → %s', (text, mode) => {
    const r = parseKubeProxyConfiguration(text);
    expect(r.ok && r.settings.mode).toBe(mode);
  });

  it('rejects an unknown mode with kube-proxy validation wording', () => {
    const r = parseKubeProxyConfiguration('mode: userspace');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toBe(
      'KubeProxyConfiguration.ProxyMode: Invalid value: "userspace": must be iptables,ipvs,nftables or blank (blank means the best-available proxy [currently iptables])',
    );
  });

  it('reports YAML errors instead of throwing', () => {
    expect(parseKubeProxyConfiguration('mode: [').ok).toBe(false);
  });
});
