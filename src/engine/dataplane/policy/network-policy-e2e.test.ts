/**
 * Truth tables ported from Kubernetes' NetworkPolicy e2e suite (test/e2e/network/netpol/network_policy.go
 * @008b3652). Each case keeps the test's name, topology (`initializeResources(…, "x/a", …)`), policies, probed
 * port/protocol and expected matrix, built with the same Reachability calls as the Go test.
 */
import { describe, expect, it } from 'vitest';
import type { NetworkPolicy } from '../../api/objects.ts';
import type { PodEndpoint, Protocol } from './evaluate.ts';
import { netpol, ns, nsNotIn, pod } from './test-helpers.ts';
import { probeTopology, reachability, Reachability, summarize } from './truth-table.ts';

interface Probe {
  port: number;
  protocol?: Protocol;
  expect: (r: Reachability) => void;
}

interface E2ECase {
  name: string;
  pods: string[];
  policies: (ips: Record<string, string>) => NetworkPolicy[];
  probes: Probe[];
  relabel?: { pod: string; labels: Record<string, string> };
}

const allow = (_r: Reachability) => {};

const cases: E2ECase[] = [
  {
    name: "should support a 'default-deny-ingress' policy",
    pods: ['x/a', 'x/b', 'y/a', 'y/b'],
    policies: () => [netpol('x', 'deny-ingress', {}, { ingress: [] })],
    probes: [{ port: 80, expect: (r) => r.expectPeer({}, { namespace: 'x' }, false) }],
  },
  {
    name: "should support a 'default-deny-all' policy",
    pods: ['x/a', 'x/b', 'y/a'],
    policies: () => [netpol('x', 'deny-all', {}, { ingress: [], egress: [] })],
    probes: [
      {
        port: 80,
        expect: (r) => {
          r.expectPeer({}, { namespace: 'x' }, false);
          r.expectPeer({ namespace: 'x' }, {}, false);
        },
      },
    ],
  },
  {
    name: 'should enforce policy to allow traffic from pods within server namespace based on PodSelector',
    pods: ['x/a', 'x/b', 'x/c', 'y/a'],
    policies: () => [
      netpol('x', 'x-a-allows-x-b', pod('a'), { ingress: [{ from: [{ podSelector: pod('b') }] }] }),
    ],
    probes: [
      {
        port: 80,
        expect: (r) => {
          r.expectAllIngress('x/a', false);
          r.expect('x/b', 'x/a', true);
        },
      },
    ],
  },
  {
    name: 'should enforce policy to allow ingress traffic for a target',
    pods: ['x/a', 'x/b', 'y/a'],
    policies: () => [
      netpol('x', 'deny-all', {}, { ingress: [] }),
      netpol('x', 'allow-all-to-a', pod('a'), {
        ingress: [{ from: [{ podSelector: {}, namespaceSelector: {} }] }],
      }),
    ],
    probes: [
      {
        port: 80,
        expect: (r) => {
          r.expectAllIngress('x/a', true);
          r.expectAllIngress('x/b', false);
        },
      },
    ],
  },
  {
    name: 'should enforce policy to allow ingress traffic from pods in all namespaces',
    pods: ['x/a', 'x/b', 'y/a', 'z/a'],
    policies: () => [
      netpol('x', 'allow-from-another-ns', pod('a'), {
        ingress: [{ from: [{ namespaceSelector: { matchLabels: {} } }] }],
      }),
    ],
    probes: [{ port: 80, expect: allow }],
  },
  {
    name: 'should enforce policy to allow traffic only from a different namespace, based on NamespaceSelector',
    pods: ['x/a', 'x/b', 'y/a', 'z/a'],
    policies: () => [
      netpol('x', 'allow-client-a-via-ns-selector', pod('a'), {
        ingress: [{ from: [{ namespaceSelector: ns('y') }] }],
      }),
    ],
    probes: [
      {
        port: 80,
        expect: (r) => {
          r.expectPeer({ namespace: 'x' }, { namespace: 'x', pod: 'a' }, false);
          r.expectPeer({ namespace: 'z' }, { namespace: 'x', pod: 'a' }, false);
        },
      },
    ],
  },
  {
    name: 'should enforce policy based on PodSelector with MatchExpressions',
    pods: ['x/a', 'x/b', 'y/a'],
    policies: () => [
      netpol('x', 'x-a-allows-x-b', pod('a'), {
        ingress: [
          { from: [{ podSelector: { matchExpressions: [{ key: 'pod', operator: 'In', values: ['b'] }] } }] },
        ],
      }),
    ],
    probes: [
      {
        port: 80,
        expect: (r) => {
          r.expectAllIngress('x/a', false);
          r.expect('x/b', 'x/a', true);
        },
      },
    ],
  },
  {
    name: 'should enforce policy based on PodSelector or NamespaceSelector',
    pods: ['x/a', 'x/b', 'x/c', 'y/a'],
    policies: () => [
      netpol('x', 'allow-ns-y-match-selector', pod('a'), {
        ingress: [{ from: [{ namespaceSelector: nsNotIn('x') }, { podSelector: pod('b') }] }],
      }),
    ],
    probes: [
      {
        port: 80,
        expect: (r) => {
          r.expect('x/a', 'x/a', false);
          r.expect('x/c', 'x/a', false);
        },
      },
    ],
  },
  {
    name: 'should enforce policy based on PodSelector and NamespaceSelector',
    pods: ['x/a', 'x/b', 'y/a', 'y/b', 'z/b'],
    policies: () => [
      netpol('x', 'allow-ns-y-podselector-and-nsselector', pod('a'), {
        ingress: [{ from: [{ namespaceSelector: nsNotIn('x'), podSelector: pod('b') }] }],
      }),
    ],
    probes: [
      {
        port: 80,
        expect: (r) => {
          r.expectAllIngress('x/a', false);
          r.expect('y/b', 'x/a', true);
          r.expect('z/b', 'x/a', true);
        },
      },
    ],
  },
  {
    name: 'should enforce policy based on any PodSelectors',
    pods: ['x/a', 'x/b', 'x/c'],
    policies: () => [
      netpol('x', 'allow-ns-x-pod-b-c', pod('a'), {
        ingress: [{ from: [{ podSelector: pod('b') }, { podSelector: pod('c') }] }],
      }),
    ],
    probes: [
      {
        port: 80,
        expect: (r) => {
          r.expectAllIngress('x/a', false);
          r.expect('x/b', 'x/a', true);
          r.expect('x/c', 'x/a', true);
        },
      },
    ],
  },
  {
    name: 'should enforce multiple, stacked policies with overlapping podSelectors',
    pods: ['x/a', 'x/b', 'y/a', 'y/b', 'z/a'],
    policies: () => [
      netpol('x', 'allow-client-a-via-ns-selector', pod('a'), {
        ingress: [{ from: [{ namespaceSelector: ns('y') }], ports: [{ port: 81, protocol: 'TCP' }] }],
      }),
    ],
    probes: [
      {
        port: 81,
        expect: (r) => {
          r.expectPeer({ namespace: 'x' }, { namespace: 'x', pod: 'a' }, false);
          r.expectPeer({ namespace: 'y' }, { namespace: 'x', pod: 'a' }, true);
          r.expectPeer({ namespace: 'z' }, { namespace: 'x', pod: 'a' }, false);
        },
      },
      { port: 80, expect: (r) => r.expectAllIngress('x/a', false) },
    ],
  },
  {
    name: 'should enforce multiple, stacked policies with overlapping podSelectors (after adding the port 80 policy)',
    pods: ['x/a', 'x/b', 'y/a', 'y/b', 'z/a'],
    policies: () => [
      netpol('x', 'allow-client-a-via-ns-selector', pod('a'), {
        ingress: [{ from: [{ namespaceSelector: ns('y') }], ports: [{ port: 81, protocol: 'TCP' }] }],
      }),
      netpol('x', 'allow-client-a-via-ns-selector-80', pod('a'), {
        ingress: [{ from: [{ namespaceSelector: ns('y') }], ports: [{ port: 80, protocol: 'TCP' }] }],
      }),
    ],
    probes: [
      {
        port: 80,
        expect: (r) => {
          r.expectPeer({ namespace: 'x' }, { namespace: 'x', pod: 'a' }, false);
          r.expectPeer({ namespace: 'y' }, { namespace: 'x', pod: 'a' }, true);
          r.expectPeer({ namespace: 'z' }, { namespace: 'x', pod: 'a' }, false);
        },
      },
    ],
  },
  {
    name: 'should allow ingress access on one named port',
    pods: ['x/a', 'x/b', 'y/a'],
    policies: () => [
      netpol('x', 'allow-all', { matchLabels: {} }, { ingress: [{ ports: [{ port: 'serve-81-tcp' }] }] }),
    ],
    probes: [
      { port: 81, expect: allow },
      { port: 80, expect: (r) => r.expectPeer({}, { namespace: 'x' }, false) },
    ],
  },
  {
    name: 'should allow ingress access from namespace on one named port',
    pods: ['x/a', 'x/b', 'y/a', 'z/a'],
    policies: () => [
      netpol('x', 'allow-client-a-via-ns-selector-80', pod('a'), {
        ingress: [
          { from: [{ namespaceSelector: ns('y') }], ports: [{ port: 'serve-80-tcp', protocol: 'TCP' }] },
        ],
      }),
    ],
    probes: [
      {
        port: 80,
        expect: (r) => {
          r.expectPeer({ namespace: 'x' }, { namespace: 'x', pod: 'a' }, false);
          r.expectPeer({ namespace: 'z' }, { namespace: 'x', pod: 'a' }, false);
        },
      },
      { port: 81, expect: (r) => r.expectAllIngress('x/a', false) },
    ],
  },
  {
    name: 'should allow egress access on one named port',
    pods: ['x/a', 'y/a'],
    policies: () => [
      netpol('x', 'allow-egress', { matchLabels: {} }, { egress: [{ ports: [{ port: 'serve-80-tcp' }] }] }),
    ],
    probes: [
      { port: 80, expect: allow },
      { port: 81, expect: (r) => r.expectPeer({ namespace: 'x' }, {}, false) },
    ],
  },
  {
    name: 'should allow ingress access from updated pod',
    pods: ['x/a', 'x/b'],
    policies: () => [
      netpol('x', 'allow-client-a-via-pod-selector', pod('a'), {
        ingress: [{ from: [{ podSelector: { matchLabels: { pod: 'b', pod2: 'updated' } } }] }],
      }),
    ],
    relabel: { pod: 'x/b', labels: { pod: 'b', pod2: 'updated' } },
    probes: [
      {
        port: 80,
        expect: (r) => {
          r.expectAllIngress('x/a', false);
          r.expect('x/b', 'x/a', true);
        },
      },
    ],
  },
  {
    name: 'should deny ingress from pods on other namespaces',
    pods: ['x/a', 'x/b', 'y/a', 'z/a'],
    policies: () => [
      netpol('x', 'deny-empty-policy', {}, { ingress: [{ from: [{ podSelector: { matchLabels: {} } }] }] }),
    ],
    probes: [
      {
        port: 80,
        expect: (r) => {
          r.expectPeer({ namespace: 'y' }, { namespace: 'x' }, false);
          r.expectPeer({ namespace: 'z' }, { namespace: 'x' }, false);
        },
      },
    ],
  },
  {
    name: 'should deny egress from pods based on PodSelector',
    pods: ['x/a', 'x/b', 'y/a'],
    policies: () => [netpol('x', 'deny-egress-pod-a', pod('a'), { egress: [] })],
    probes: [{ port: 80, expect: (r) => r.expectAllEgress('x/a', false) }],
  },
  {
    name: 'should deny egress from all pods in a namespace',
    pods: ['x/a', 'x/b', 'y/a'],
    policies: () => [netpol('x', 'deny-egress-ns-x', {}, { egress: [] })],
    probes: [{ port: 80, expect: (r) => r.expectPeer({ namespace: 'x' }, {}, false) }],
  },
  {
    name: 'should work with Ingress, Egress specified together',
    pods: ['x/a', 'x/b', 'x/c', 'y/a'],
    policies: () => [
      netpol('x', 'allow-client-a-via-pod-selector', pod('a'), {
        ingress: [{ from: [{ podSelector: pod('b') }] }],
        egress: [{ ports: [{ port: 80 }] }],
      }),
    ],
    probes: [
      {
        port: 80,
        expect: (r) => {
          r.expectAllIngress('x/a', false);
          r.expect('x/b', 'x/a', true);
        },
      },
      {
        port: 81,
        expect: (r) => {
          r.expectAllIngress('x/a', false);
          r.expectAllEgress('x/a', false);
          r.expect('x/b', 'x/a', true);
        },
      },
    ],
  },
  {
    name: 'should support denying of egress traffic on the client side (even if the server explicitly allows this traffic)',
    pods: ['x/a', 'y/a', 'y/b'],
    policies: () => [
      netpol('x', 'allow-to-ns-y-pod-a', pod('a'), {
        egress: [{ to: [{ namespaceSelector: ns('y'), podSelector: pod('a') }] }],
      }),
      netpol('y', 'allow-from-xa-on-ya-match-selector', pod('a'), {
        ingress: [{ from: [{ namespaceSelector: ns('x'), podSelector: pod('a') }] }],
      }),
      netpol('y', 'allow-from-xa-on-yb-match-selector', pod('b'), {
        ingress: [{ from: [{ namespaceSelector: ns('x'), podSelector: pod('a') }] }],
      }),
    ],
    probes: [
      {
        port: 80,
        expect: (r) => {
          r.expectPeer({ namespace: 'x', pod: 'a' }, {}, false);
          r.expectPeer({}, { namespace: 'y', pod: 'a' }, false);
          r.expectPeer({ namespace: 'x', pod: 'a' }, { namespace: 'y', pod: 'a' }, true);
          r.expectPeer({}, { namespace: 'y', pod: 'b' }, false);
        },
      },
    ],
  },
  {
    name: 'should enforce ingress policy allowing any port traffic to a server on a specific protocol',
    pods: ['x/a', 'y/a'],
    policies: () => [
      netpol('x', 'allow-ingress-by-proto', pod('a'), { ingress: [{ ports: [{ protocol: 'TCP' }] }] }),
    ],
    probes: [
      { port: 80, protocol: 'TCP', expect: allow },
      { port: 80, protocol: 'UDP', expect: (r) => r.expectPeer({}, { namespace: 'x', pod: 'a' }, false) },
    ],
  },
  {
    name: 'should enforce multiple ingress policies with ingress allow-all policy taking precedence',
    pods: ['x/a', 'y/a'],
    policies: () => [
      netpol('x', 'allow-ingress-port-80', { matchLabels: {} }, { ingress: [{ ports: [{ port: 80 }] }] }),
      netpol('x', 'allow-ingress', { matchLabels: {} }, { ingress: [{}] }),
    ],
    probes: [{ port: 81, expect: allow }],
  },
  {
    name: 'should allow egress access to server in CIDR block',
    pods: ['x/a', 'y/a', 'y/b'],
    policies: (ip) => [
      netpol('x', 'allow-client-a-via-cidr-egress-rule', pod('a'), {
        egress: [{ to: [{ ipBlock: { cidr: `${ip['y/b']}/32` } }] }],
      }),
    ],
    probes: [
      {
        port: 80,
        expect: (r) => {
          r.expectAllEgress('x/a', false);
          r.expect('x/a', 'y/b', true);
        },
      },
    ],
  },
  {
    name: 'should enforce except clause while egress access to server in CIDR block',
    pods: ['x/a', 'x/b', 'x/c'],
    // makeLargeCIDRForIP: the /4 containing the pod IP (10.x ⇒ 0.0.0.0/4).
    policies: (ip) => [
      netpol('x', 'allow-client-a-via-cidr-egress-rule', pod('a'), {
        egress: [{ to: [{ ipBlock: { cidr: '0.0.0.0/4', except: [`${ip['x/b']}/32`] } }] }],
      }),
    ],
    probes: [{ port: 80, expect: (r) => r.expect('x/a', 'x/b', false) }],
  },
  {
    name: 'should ensure an IP overlapping both IPBlock.CIDR and IPBlock.Except is allowed (after the update)',
    pods: ['x/a', 'x/b', 'x/c'],
    policies: (ip) => [
      netpol('x', 'allow-client-a-via-cidr-egress-rule', pod('a'), {
        egress: [{ to: [{ ipBlock: { cidr: `${ip['x/b']}/32` } }] }],
      }),
    ],
    probes: [
      {
        port: 80,
        expect: (r) => {
          r.expectAllEgress('x/a', false);
          r.expect('x/a', 'x/b', true);
        },
      },
    ],
  },
  {
    name: 'should enforce policies to check ingress and egress policies can be controlled independently based on PodSelector',
    pods: ['x/a', 'x/b', 'y/a'],
    policies: () => [
      netpol('x', 'allow-egress-for-target', pod('a'), { egress: [{}] }),
      netpol('x', 'deny-ingress-via-label-selector', pod('a'), { ingress: [] }),
    ],
    probes: [{ port: 80, expect: (r) => r.expectAllIngress('x/a', false) }],
  },
  {
    name: "should not mistakenly treat 'protocol: SCTP' as 'protocol: TCP', even if the plugin doesn't support SCTP",
    pods: ['x/a', 'y/a'],
    policies: () => [
      netpol('x', 'deny-ingress', {}, { ingress: [] }),
      netpol('x', 'allow-only-sctp-ingress-on-port-81', pod('a'), {
        ingress: [{ ports: [{ port: 81, protocol: 'SCTP' }] }],
      }),
    ],
    probes: [{ port: 81, expect: (r) => r.expectPeer({}, { namespace: 'x' }, false) }],
  },
  {
    name: 'should not allow access by TCP when a policy specifies only UDP',
    pods: ['x/a', 'y/a'],
    policies: () => [
      netpol('x', 'allow-only-udp-ingress-on-port-81', pod('a'), {
        ingress: [{ ports: [{ port: 81, protocol: 'UDP' }] }],
      }),
    ],
    probes: [{ port: 81, expect: (r) => r.expectAllIngress('x/a', false) }],
  },
  {
    name: 'should enforce policy based on NamespaceSelector with MatchExpressions using default ns label',
    pods: ['x/a', 'x/b', 'y/a', 'z/a'],
    policies: () => [
      netpol('x', 'allow-ns-y-match-selector-for-immutable-ns-label', pod('a'), {
        egress: [{ to: [{ namespaceSelector: nsNotIn('y') }] }],
      }),
    ],
    probes: [
      { port: 80, expect: (r) => r.expectPeer({ namespace: 'x', pod: 'a' }, { namespace: 'y' }, false) },
    ],
  },
  {
    name: 'UDP: should enforce policy based on Ports',
    pods: ['x/a', 'x/b', 'y/a', 'z/a'],
    policies: () => [
      netpol('x', 'allow-ingress-on-port-81-ns-x', pod('a'), {
        ingress: [{ from: [{ namespaceSelector: ns('y') }], ports: [{ port: 81, protocol: 'UDP' }] }],
      }),
    ],
    probes: [
      {
        port: 81,
        protocol: 'UDP',
        expect: (r) => {
          r.expectPeer({ namespace: 'x' }, { namespace: 'x', pod: 'a' }, false);
          r.expectPeer({ namespace: 'z' }, { namespace: 'x', pod: 'a' }, false);
        },
      },
    ],
  },
  {
    // Not in the current suite; from the API doc of endPort ("the range of ports from port to endPort, inclusive").
    name: 'endPort: a port range allows every port from port to endPort',
    pods: ['x/a', 'y/a'],
    policies: () => [
      netpol('x', 'allow-80-81', pod('a'), {
        ingress: [{ ports: [{ port: 80, endPort: 81, protocol: 'TCP' }] }],
      }),
    ],
    probes: [
      { port: 80, expect: allow },
      { port: 81, expect: allow },
      { port: 82, expect: (r) => r.expectAllIngress('x/a', false) },
    ],
  },
];

describe('NetworkPolicy e2e truth tables (network_policy.go)', () => {
  for (const c of cases) {
    describe(c.name, () => {
      let { pods } = probeTopology(c.pods, [80, 81, 82]);
      const { namespaces } = probeTopology(c.pods);
      if (c.relabel) {
        pods = pods.map(
          (p): PodEndpoint =>
            `${p.namespace}/${p.name}` === c.relabel!.pod ? { ...p, labels: c.relabel!.labels } : p,
        );
      }
      const ips = Object.fromEntries(pods.map((p) => [`${p.namespace}/${p.name}`, p.ip]));
      const policies = c.policies(ips);
      it.each(c.probes.map((p) => ({ ...p, label: `${p.protocol ?? 'TCP'} ${p.port}` })))(
        '$label',
        (probe) => {
          const expected = new Reachability(c.pods, true);
          probe.expect(expected);
          const observed = reachability(pods, probe.port, probe.protocol ?? 'TCP', { policies, namespaces });
          const s = summarize(expected.expected, observed);
          expect(
            s.incorrect,
            `expected:\n${expected.expected.prettyPrint()}\nobserved:\n${observed.prettyPrint()}`,
          ).toBe(0);
        },
      );
    });
  }
});

describe('TruthTable.prettyPrint', () => {
  it("prints the e2e table: '-' corner, tab separated, '.' allowed and 'X' blocked", () => {
    const { pods, namespaces } = probeTopology(['x/a', 'x/b', 'y/a']);
    const t = reachability(pods, 80, 'TCP', {
      policies: [netpol('x', 'deny-ingress', {}, { ingress: [] })],
      namespaces,
    });
    expect(t.prettyPrint()).toBe(
      ['-\tx/a\tx/b\ty/a', 'x/a\tX\tX\t.', 'x/b\tX\tX\t.', 'y/a\tX\tX\t.'].join('\n'),
    );
  });
});
