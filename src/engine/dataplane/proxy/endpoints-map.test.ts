/** endpointsMapsByNode (one pass for every node) must give each node exactly buildEndpointsMap's map. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { EndpointSlice } from '../../api/objects.ts';
import { buildEndpointsMap, endpointsMapsByNode } from './endpoints-map.ts';

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
