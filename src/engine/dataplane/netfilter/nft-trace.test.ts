import { describe, expect, it } from 'vitest';
import type { EndpointSlice, Service } from '../../api/objects.ts';
import { Rng } from '../../util/rng.ts';
import { renderNftables } from '../proxy/nftables/sync-proxy-rules.ts';
import { servicePortChainNameBase } from '../proxy/nftables/chain-names.ts';
import { makeEndpointSlice, makeProxyInput, makeService } from '../proxy/test-helpers.ts';
import { traceNftables, type NftSetState } from './nft-trace.ts';
import type { Packet } from './packet.ts';

const NODE_IP = '192.168.0.2';

function svc(ns: string, name: string, spec: Service['spec'], lb?: string[]): Service {
  return makeService(ns, name, (s) => {
    s.spec = spec;
    if (lb) s.status = { loadBalancer: { ingress: lb.map((ip) => ({ ip })) } };
  });
}
function slice(
  ns: string,
  name: string,
  eps: { ip: string; node?: string }[],
  ports: [string, number, 'TCP' | 'UDP' | 'SCTP'][] = [['p80', 80, 'TCP']],
) {
  return makeEndpointSlice(ns, name, 1, (e) => {
    e.endpoints = eps.map((x) => ({ addresses: [x.ip], ...(x.node ? { nodeName: x.node } : {}) }));
    e.ports = ports.map(([n, p, proto]) => ({ name: n, port: p, protocol: proto }));
  });
}

// Services of upstream's TestClusterIPGeneral, TestLoadBalancer and TestNoEndpointsReject
// (pkg/proxy/nftables/proxier_test.go @ 81810de6), with their packet-flow expectations.
const services = [
  svc('ns1', 'svc1', { clusterIP: '172.30.0.41', ports: [{ name: 'http', port: 80, protocol: 'TCP' }] }),
  svc('ns2', 'svc2', {
    clusterIP: '172.30.0.42',
    ports: [
      { name: 'http', port: 80, protocol: 'TCP' },
      { name: 'https', port: 443, protocol: 'TCP', targetPort: 8443 },
      { name: 'dns-udp', port: 53, protocol: 'UDP' },
      { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 5353 },
    ],
  }),
  svc(
    'ns3',
    'lb',
    {
      type: 'LoadBalancer',
      clusterIP: '172.30.0.43',
      loadBalancerSourceRanges: ['192.168.0.0/24', ' 203.0.113.0/25'],
      ports: [{ name: 'p80', port: 80, protocol: 'TCP', nodePort: 3001 }],
    },
    ['1.2.3.4', '5.6.7.8'],
  ),
  svc(
    'ns4',
    'empty',
    {
      type: 'LoadBalancer',
      clusterIP: '172.30.0.44',
      externalIPs: ['192.168.99.11'],
      ports: [{ name: 'p80', port: 80, protocol: 'TCP', nodePort: 3004 }],
    },
    ['9.10.11.12'],
  ),
  svc('ns5', 'local', {
    type: 'NodePort',
    externalTrafficPolicy: 'Local',
    clusterIP: '172.30.0.45',
    ports: [{ name: 'p80', port: 80, protocol: 'TCP', nodePort: 3005 }],
  }),
];
const slices: EndpointSlice[] = [
  slice('ns1', 'svc1', [{ ip: '10.180.0.1', node: 'test-node' }], [['http', 80, 'TCP']]),
  slice(
    'ns2',
    'svc2',
    [
      { ip: '10.180.0.1', node: 'test-node' },
      { ip: '10.180.2.1', node: 'node2' },
    ],
    [
      ['http', 80, 'TCP'],
      ['https', 8443, 'TCP'],
      ['dns-udp', 53, 'UDP'],
      ['dns-tcp', 5353, 'TCP'],
    ],
  ),
  slice('ns3', 'lb', [{ ip: '10.180.0.3' }]),
  slice('ns5', 'local', [{ ip: '10.180.2.5', node: 'node2' }]),
];
const table = renderNftables(makeProxyInput(services, slices));

function walk(p: Packet, seed = 1, sets: NftSetState = new Map(), nowMs = 0) {
  return traceNftables(table, p, { localAddresses: [NODE_IP], rng: new Rng(seed), nowMs, sets });
}

describe('nftables packet flows (after upstream runPacketFlowTests)', () => {
  it.each([
    {
      name: 'simple clusterIP',
      src: '10.180.0.2',
      dst: '172.30.0.41',
      port: 80,
      out: ['10.180.0.1:80'],
      masq: false,
    },
    {
      name: 'hairpin to cluster IP',
      src: '10.180.0.1',
      dst: '172.30.0.41',
      port: 80,
      out: ['10.180.0.1:80'],
      masq: true,
    },
    {
      name: 'clusterIP with multiple endpoints',
      src: '10.180.0.2',
      dst: '172.30.0.42',
      port: 80,
      out: ['10.180.0.1:80', '10.180.2.1:80'],
      masq: false,
    },
    {
      name: 'clusterIP with TargetPort',
      src: '10.180.0.2',
      dst: '172.30.0.42',
      port: 443,
      out: ['10.180.0.1:8443', '10.180.2.1:8443'],
      masq: false,
    },
    {
      name: 'same port, TCP',
      src: '10.180.0.2',
      dst: '172.30.0.42',
      port: 53,
      out: ['10.180.0.1:5353', '10.180.2.1:5353'],
      masq: false,
    },
    {
      name: 'same port, UDP',
      src: '10.180.0.2',
      dst: '172.30.0.42',
      port: 53,
      proto: 'UDP',
      out: ['10.180.0.1:53', '10.180.2.1:53'],
      masq: false,
    },
    {
      name: 'TCP-only port does not match UDP traffic',
      src: '10.180.0.2',
      dst: '172.30.0.42',
      port: 80,
      proto: 'UDP',
      out: ['REJECT'],
    },
    {
      name: "svc1 does not accept svc2's ports",
      src: '10.180.0.2',
      dst: '172.30.0.41',
      port: 443,
      out: ['REJECT'],
    },
    {
      name: 'packet to unallocated cluster ip',
      src: '10.180.0.2',
      dst: '172.30.0.50',
      port: 80,
      out: ['DROP'],
    },
    {
      name: 'external to nodePort',
      src: '203.0.113.2',
      dst: NODE_IP,
      port: 3001,
      out: ['10.180.0.3:80'],
      masq: true,
    },
    {
      name: 'nodePort bypasses LoadBalancerSourceRanges',
      src: '203.0.113.130',
      dst: NODE_IP,
      port: 3001,
      out: ['10.180.0.3:80'],
      masq: true,
    },
    {
      name: 'accepted external to LB1',
      src: '203.0.113.2',
      dst: '1.2.3.4',
      port: 80,
      out: ['10.180.0.3:80'],
      masq: true,
    },
    {
      name: 'accepted external to LB2',
      src: '203.0.113.2',
      dst: '5.6.7.8',
      port: 80,
      out: ['10.180.0.3:80'],
      masq: true,
    },
    { name: 'blocked external to LB1', src: '203.0.113.130', dst: '1.2.3.4', port: 80, out: ['DROP'] },
    {
      name: 'pod to cluster IP with no endpoints',
      src: '10.0.0.2',
      dst: '172.30.0.44',
      port: 80,
      out: ['REJECT'],
    },
    {
      name: 'external to external IP with no endpoints',
      src: '203.0.113.2',
      dst: '192.168.99.11',
      port: 80,
      out: ['REJECT'],
    },
    { name: 'pod to NodePort with no endpoints', src: '10.0.0.2', dst: NODE_IP, port: 3004, out: ['REJECT'] },
    {
      name: 'external to NodePort with no endpoints',
      src: '203.0.113.2',
      dst: NODE_IP,
      port: 3004,
      out: ['REJECT'],
    },
    {
      name: 'pod to LoadBalancer IP with no endpoints',
      src: '10.0.0.2',
      dst: '9.10.11.12',
      port: 80,
      out: ['REJECT'],
    },
    {
      name: 'external to ETP-Local NodePort without local endpoint',
      src: '203.0.113.2',
      dst: NODE_IP,
      port: 3005,
      out: ['DROP'],
    },
    {
      name: 'pod to ETP-Local NodePort is short-circuited',
      src: '10.0.0.2',
      dst: NODE_IP,
      port: 3005,
      out: ['10.180.2.5:80'],
      masq: false,
    },
    {
      name: 'NodePort on a non-primary node address is not accepted',
      src: '203.0.113.2',
      dst: '192.168.1.2',
      port: 3001,
      out: ['ACCEPT'],
    },
  ])('$name', ({ src, dst, port, proto, out, masq }) => {
    const fromPod = src.startsWith('10.');
    const r = walk({
      srcIP: src,
      destIP: dst,
      destPort: port,
      protocol: (proto ?? 'TCP') as Packet['protocol'],
      ...(fromPod ? { fromLocalPod: true } : { inboundInterface: 'eth0' }),
    });
    if (['REJECT', 'DROP', 'ACCEPT'].includes(out[0] ?? '')) expect(r.verdict).toBe(out[0]);
    else {
      expect(r.verdict).toBe('DNAT');
      expect(out).toContain(r.dnatTo);
      expect(r.masquerade).toBe(masq);
    }
  });

  it('rejects ping to a ClusterIP (cluster-ips-check), unlike iptables mode', () => {
    expect(
      walk({ srcIP: '10.0.0.2', destIP: '172.30.0.41', protocol: 'ICMP', fromLocalPod: true }).verdict,
    ).toBe('REJECT');
  });

  it('reports the map element and the numgen choice it used', () => {
    const r = walk({
      srcIP: '10.180.0.2',
      destIP: '172.30.0.41',
      destPort: 80,
      protocol: 'TCP',
      fromLocalPod: true,
    });
    expect(r.matched).toContainEqual({
      table: 'kube-proxy',
      chain: 'service-ips',
      rule: `172.30.0.41 . tcp . 80 : goto service-${servicePortChainNameBase('ns1', 'svc1', 'tcp', 'http')}`,
    });
    expect(r.matched.some((h) => h.chain === 'numgen' && h.rule.startsWith('0 : goto endpoint-'))).toBe(true);
  });
});

describe('nftables scale', () => {
  it('evaluates the same number of rules whatever the number of Services', () => {
    const build = (n: number) => {
      const svcs: Service[] = [];
      const sl: EndpointSlice[] = [];
      for (let i = 0; i < n; i++) {
        svcs.push(
          svc('default', `s${i}`, {
            clusterIP: `172.30.${Math.floor(i / 250)}.${(i % 250) + 1}`,
            ports: [{ port: 80, protocol: 'TCP' }],
          }),
        );
        sl.push(
          slice(
            'default',
            `s${i}`,
            [{ ip: `10.181.${Math.floor(i / 250)}.${(i % 250) + 1}` }],
            [['', 80, 'TCP']],
          ),
        );
      }
      return renderNftables(makeProxyInput(svcs, sl));
    };
    const count = (n: number) =>
      traceNftables(
        build(n),
        { srcIP: '10.180.0.9', destIP: `172.30.0.${n}`, destPort: 80, protocol: 'TCP', fromLocalPod: true },
        {
          localAddresses: [NODE_IP],
          rng: new Rng(1),
          nowMs: 0,
          sets: new Map(),
        },
      ).evaluatedRules;
    expect(count(10)).toBe(count(200));
  });
});

describe('nftables session affinity', () => {
  const t = renderNftables(
    makeProxyInput(
      [
        svc('default', 'sticky', {
          clusterIP: '172.30.0.60',
          sessionAffinity: 'ClientIP',
          sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } },
          ports: [{ port: 80, protocol: 'TCP' }],
        }),
      ],
      [
        slice(
          'default',
          'sticky',
          [{ ip: '10.180.0.1' }, { ip: '10.180.0.2' }, { ip: '10.180.0.3' }],
          [['', 80, 'TCP']],
        ),
      ],
    ),
  );
  it('keeps a client on its endpoint while the affinity entry lives, then may move it', () => {
    const sets: NftSetState = new Map();
    const rng = new Rng(11);
    const go = (nowMs: number) =>
      traceNftables(
        t,
        { srcIP: '10.180.9.9', destIP: '172.30.0.60', destPort: 80, protocol: 'TCP', fromLocalPod: true },
        { localAddresses: [NODE_IP], rng, nowMs, sets },
      ).dnatTo;
    const first = go(0);
    for (let s = 1; s < 50; s++) expect(go(s * 1000)).toBe(first);
    const [set] = [...sets.values()];
    expect([...(set?.values() ?? [])]).toEqual([49_000 + 60_000]);
  });
});
