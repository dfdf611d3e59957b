/** endpointsMapsByNode (one pass for every node) must give each node exactly buildEndpointsMap's map. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { EndpointSlice } from '../../api/objects.ts';
import { buildEndpointsMap, endpointsMapsByNode } from './endpoints-map.ts';
import { buildServicePortMap } from './service-port-map.ts';
import { ServiceRulesMemo, syncIptablesRules } from './iptables/sync-proxy-rules.ts';
import { makeEndpointSlice, makeService } from './test-helpers.ts';
import type { ProxyInput } from './proxy-input.ts';

const NODES = ['n1', 'n2', 'n3'];

const endpointArb = fc.record(
  {
    addresses: fc.constantFrom(['10.0.0.1'], ['10.0.0.2'], ['10.0.1.3'], ['bad'], []),
    nodeName: fc.constantFrom(...NODES, ''),
    conditions: fc.record({ ready: fc.boolean(), terminating: fc.boolean() }, { requiredKeys: [] }),
    zone: fc.constantFrom('a', 'b'),
  },
  { requiredKeys: ['addresses'] },
);

const sliceArb: fc.Arbitrary<EndpointSlice> = fc
  .record({
    service: fc.constantFrom('web', 'api'),
    port: fc.constantFrom(80, 8080),
    name: fc.constantFrom('', 'http'),
    endpoints: fc.array(endpointArb, { maxLength: 4 }),
    i: fc.nat({ max: 9999 }),
  })
  .map(
    ({ service, port, name, endpoints, i }) =>
      ({
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: {
          name: `${service}-${String(i)}`,
          namespace: 'default',
          uid: '',
          resourceVersion: '1',
          creationTimestamp: '',
          labels: { 'kubernetes.io/service-name': service },
        },
        addressType: 'IPv4',
        endpoints,
        ports: [{ name, port, protocol: 'TCP' }],
      }) as unknown as EndpointSlice,
  );

describe('endpointsMapsByNode', () => {
  it('equals buildEndpointsMap for every node, duplicates across slices included', () => {
    fc.assert(
      fc.property(fc.array(sliceArb, { maxLength: 5 }), (slices) => {
        const byNode = endpointsMapsByNode(slices);
        for (const node of NODES) {
          const want = buildEndpointsMap(slices, node);
          const got = byNode(node);
          expect(JSON.stringify([...got])).toBe(JSON.stringify([...want]));
        }
      }),
      { numRuns: 500 },
    );
  });
});

// kube-proxy renders every node in one pass with one ServiceRulesMemo; endpoints local to a node are
// copies, which the memo may share across nodes only where the rules never read locality. Each node's
// restore must be byte for byte what rendering that node alone gives.
describe('ServiceRulesMemo across nodes', () => {
  it('gives every node the rules it would get alone, Local policies included', () => {
    const services = ['Cluster', 'Local'].map((policy, i) =>
      makeService('default', `svc-${policy.toLowerCase()}`, (s) => {
        s.spec = {
          type: 'NodePort',
          clusterIP: `10.96.0.${i + 10}`,
          externalTrafficPolicy: policy as 'Cluster' | 'Local',
          ports: [{ port: 80, targetPort: 8080, protocol: 'TCP', nodePort: 30080 + i }],
        };
      }),
    );
    const slices = services.map((svc, i) =>
      makeEndpointSlice('default', svc.metadata.name, i, (e) => {
        e.endpoints = NODES.map((node, j) => ({
          addresses: [`10.244.${j}.${i + 5}`],
          conditions: { ready: true },
          nodeName: node,
        }));
        e.ports = [{ name: '', port: 8080, protocol: 'TCP' }];
      }),
    );
    const servicePorts = buildServicePortMap(services);
    const byNode = endpointsMapsByNode(slices);
    const memo = new ServiceRulesMemo();
    for (const node of [...NODES, 'elsewhere']) {
      const input = (endpoints: ProxyInput['endpoints']): ProxyInput => ({
        node: { name: node, ip: '172.18.0.9', labels: {} },
        servicePorts,
        endpoints,
        clusterCIDR: '10.244.0.0/16',
        serviceCIDRs: ['10.96.0.0/12'],
      });
      const shared = syncIptablesRules(input(byNode(node)), memo);
      const alone = syncIptablesRules(input(buildEndpointsMap(slices, node)));
      expect(JSON.stringify(shared)).toBe(JSON.stringify(alone));
    }
  });
});
