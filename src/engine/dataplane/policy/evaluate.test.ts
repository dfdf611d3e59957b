import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { NetworkPolicy } from '../../api/objects.ts';
import { defaultClusterConfig, parseClusterConfig } from '../../api/cluster-config.ts';
import { policyEnforced, policyEnforcement } from './enforcement.ts';
import { evaluate, type Endpoint, type PodEndpoint } from './evaluate.ts';
import { netpol, ns, pod } from './test-helpers.ts';
import { probeTopology, reachability } from './truth-table.ts';

const { pods, namespaces } = probeTopology(['x/a', 'x/b', 'y/a', 'kube-system/dns']);
const [xa, xb, ya, dns] = pods as [PodEndpoint, PodEndpoint, PodEndpoint, PodEndpoint];
const coredns: PodEndpoint = {
  ...dns,
  labels: { 'k8s-app': 'kube-dns' },
  ports: [
    { name: 'dns', containerPort: 53, protocol: 'UDP' },
    { name: 'dns-tcp', containerPort: 53, protocol: 'TCP' },
  ],
};
const internet: Endpoint = { kind: 'external', ip: '203.0.113.30' };

describe('evaluate: verdicts name the policy and rule', () => {
  it('reports a pod no policy selects as not isolated', () => {
    const r = evaluate({ src: xa, dst: ya, port: 80, protocol: 'TCP' }, { policies: [], namespaces });
    expect(r).toEqual({
      allowed: true,
      egress: { allowed: true, isolated: false, policies: [], reason: 'not-isolated' },
      ingress: { allowed: true, isolated: false, policies: [], reason: 'not-isolated' },
    });
  });

  it('names the first policy (by name) and rule index that allowed the connection', () => {
    const policies = [
      netpol('x', 'zz-allow-b', pod('a'), {
        ingress: [{ from: [{ podSelector: pod('c') }] }, { from: [{ podSelector: pod('b') }] }],
      }),
      netpol('x', 'deny-all', {}, { ingress: [] }),
    ];
    const r = evaluate({ src: xb, dst: xa, port: 80, protocol: 'TCP' }, { policies, namespaces });
    expect(r.ingress).toEqual({
      allowed: true,
      isolated: true,
      policies: [
        { namespace: 'x', name: 'deny-all' },
        { namespace: 'x', name: 'zz-allow-b' },
      ],
      allowedBy: { namespace: 'x', name: 'zz-allow-b', rule: 1 },
      reason: 'allowed-by-rule',
    });
  });

  it('says no rule allowed when the pod is isolated and nothing matches', () => {
    const r = evaluate(
      { src: ya, dst: xa, port: 80, protocol: 'TCP' },
      { policies: [netpol('x', 'deny-all', {}, { ingress: [] })], namespaces },
    );
    expect(r.allowed).toBe(false);
    expect(r.ingress.reason).toBe('no-rule-allowed');
    expect(r.egress.reason).toBe('not-isolated');
  });
});

describe('evaluate: the API doc rules', () => {
  const denyIngress = [netpol('x', 'deny-all', {}, { ingress: [] })];

  it("always allows traffic from the pod's own node (kubelet probes)", () => {
    const node: Endpoint = { kind: 'node', node: xa.node!, ip: '172.18.0.3' };
    expect(
      evaluate({ src: node, dst: xa, port: 80, protocol: 'TCP' }, { policies: denyIngress, namespaces })
        .ingress.reason,
    ).toBe('from-local-node');
    const other: Endpoint = { kind: 'node', node: 'elsewhere', ip: '172.18.0.9' };
    expect(
      evaluate({ src: other, dst: xa, port: 80, protocol: 'TCP' }, { policies: denyIngress, namespaces })
        .allowed,
    ).toBe(false);
  });

  it('treats a hostNetwork pod as its node: not selectable, matched only by ipBlock', () => {
    const host: PodEndpoint = { ...ya, hostNetwork: true, node: 'kind-worker9', nodeIP: '172.18.0.9' };
    const byPod = [
      netpol('x', 'from-y', pod('a'), { ingress: [{ from: [{ namespaceSelector: ns('y') }] }] }),
    ];
    expect(
      evaluate({ src: host, dst: xa, port: 80, protocol: 'TCP' }, { policies: byPod, namespaces }).allowed,
    ).toBe(false);
    const byIp = [
      netpol('x', 'from-nodes', pod('a'), { ingress: [{ from: [{ ipBlock: { cidr: '172.18.0.0/16' } }] }] }),
    ];
    expect(
      evaluate({ src: host, dst: xa, port: 80, protocol: 'TCP' }, { policies: byIp, namespaces }).allowed,
    ).toBe(true);
  });

  it('defaults policyTypes like the API server when the field is absent', () => {
    const raw = (spec: NetworkPolicy['spec']): NetworkPolicy => ({ ...netpol('x', 'p', {}, {}), spec });
    const egressOnlyRules = raw({ podSelector: {}, egress: [{ to: [{ podSelector: pod('b') }] }] });
    const r = evaluate(
      { src: xa, dst: ya, port: 80, protocol: 'TCP' },
      { policies: [egressOnlyRules], namespaces },
    );
    // Egress rules present ⇒ Egress and Ingress both apply.
    expect([r.egress.isolated, r.egress.allowed]).toEqual([true, false]);
    const r2 = evaluate(
      { src: ya, dst: xa, port: 80, protocol: 'TCP' },
      { policies: [egressOnlyRules], namespaces },
    );
    expect([r2.ingress.isolated, r2.ingress.allowed]).toEqual([true, false]);
    const explicit = raw({ podSelector: {}, policyTypes: ['Egress'], egress: [] });
    const r3 = evaluate(
      { src: ya, dst: xa, port: 80, protocol: 'TCP' },
      { policies: [explicit], namespaces },
    );
    expect(r3.ingress.isolated).toBe(false);
  });

  it('an egress default-deny breaks DNS unless UDP and TCP 53 to CoreDNS are allowed (fact-check #65)', () => {
    const deny = netpol('x', 'default-deny-egress', {}, { egress: [] });
    const dnsAllowed = netpol(
      'x',
      'allow-dns',
      {},
      {
        egress: [
          {
            to: [
              {
                namespaceSelector: ns('kube-system'),
                podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
              },
            ],
            ports: [
              { port: 53, protocol: 'UDP' },
              { port: 53, protocol: 'TCP' },
            ],
          },
        ],
      },
    );
    const ask = (policies: NetworkPolicy[], dst: Endpoint, port: number, protocol: 'TCP' | 'UDP') =>
      evaluate({ src: xa, dst, port, protocol }, { policies, namespaces }).allowed;
    expect(ask([deny], coredns, 53, 'UDP')).toBe(false);
    expect(ask([deny, dnsAllowed], coredns, 53, 'UDP')).toBe(true);
    expect(ask([deny, dnsAllowed], coredns, 53, 'TCP')).toBe(true);
    expect(ask([deny, dnsAllowed], ya, 80, 'TCP')).toBe(false);
    expect(ask([deny, dnsAllowed], internet, 443, 'TCP')).toBe(false);
  });

  it('matches external addresses with ipBlock and except', () => {
    const p = netpol('x', 'to-internet', pod('a'), {
      egress: [{ to: [{ ipBlock: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8', '203.0.113.0/24'] } }] }],
    });
    expect(
      evaluate(
        { src: xa, dst: { kind: 'external', ip: '192.0.2.10' }, port: 443, protocol: 'TCP' },
        { policies: [p], namespaces },
      ).allowed,
    ).toBe(true);
    expect(
      evaluate({ src: xa, dst: internet, port: 443, protocol: 'TCP' }, { policies: [p], namespaces }).allowed,
    ).toBe(false);
    expect(
      evaluate({ src: xa, dst: ya, port: 80, protocol: 'TCP' }, { policies: [p], namespaces }).allowed,
    ).toBe(false);
  });

  it('resolves a named port in an egress rule against the destination pod', () => {
    const p = netpol('x', 'to-dns-by-name', pod('a'), {
      egress: [{ ports: [{ port: 'dns', protocol: 'UDP' }] }],
    });
    expect(
      evaluate({ src: xa, dst: coredns, port: 53, protocol: 'UDP' }, { policies: [p], namespaces }).allowed,
    ).toBe(true);
    // ya serves no port called "dns": the rule cannot match it, nor an address outside the cluster.
    expect(
      evaluate({ src: xa, dst: ya, port: 53, protocol: 'UDP' }, { policies: [p], namespaces }).allowed,
    ).toBe(false);
    expect(
      evaluate(
        { src: xa, dst: { kind: 'external', ip: '8.8.8.8' }, port: 53, protocol: 'UDP' },
        { policies: [p], namespaces },
      ).allowed,
    ).toBe(false);
  });

  it('selectors of an invalid operator match nothing instead of throwing', () => {
    const bad = netpol(
      'x',
      'bad',
      { matchExpressions: [{ key: 'pod', operator: 'Sometimes' }] },
      { ingress: [] },
    );
    expect(() =>
      evaluate({ src: ya, dst: xa, port: 80, protocol: 'TCP' }, { policies: [bad], namespaces }),
    ).not.toThrow();
  });
});

describe('evaluate: properties', () => {
  it('allows are additive: adding a policy never turns an allowed pair into a blocked one once the pod is isolated', () => {
    const { pods: ps, namespaces: nss } = probeTopology(['x/a', 'x/b', 'x/c', 'y/a', 'y/b', 'z/a']);
    const base = [netpol('x', 'deny', {}, { ingress: [], egress: [] })];
    const peerArb = fc.constantFrom(pod('a'), pod('b'), pod('c'), {});
    const nsArb = fc.constantFrom(ns('x'), ns('y'), ns('z'), undefined);
    fc.assert(
      fc.property(peerArb, nsArb, fc.constantFrom(80, 81), (ps2, ns2, port) => {
        const extra = netpol(
          'x',
          'extra',
          {},
          { ingress: [{ from: [{ podSelector: ps2, namespaceSelector: ns2 }], ports: [{ port }] }] },
        );
        const before = reachability(ps, 80, 'TCP', { policies: base, namespaces: nss });
        const after = reachability(ps, 80, 'TCP', { policies: [...base, extra], namespaces: nss });
        return before.froms.every((f) => before.tos.every((t) => !before.get(f, t) || after.get(f, t)));
      }),
    );
  });
});

describe('policyEnforced', () => {
  const k3s = (extra = '') =>
    parseClusterConfig(
      `kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\npacketpath:\n  distribution: k3s\n${extra}`,
    );
  it.each([
    {
      name: 'kubeadm + calico enforces',
      config: defaultClusterConfig(),
      want: { enforced: true, reason: 'enforced-by-cni', enforcer: 'calico' },
    },
    {
      name: 'kubeadm + flannel ignores policies silently',
      config: parseClusterConfig(
        'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\npacketpath:\n  cni: flannel\n',
      ),
      want: { enforced: false, reason: 'not-enforced-by-flannel' },
    },
    {
      name: "k3s's embedded kube-router enforces beside flannel",
      config: k3s(),
      want: { enforced: true, reason: 'enforced-by-k3s-kube-router', enforcer: 'kube-router' },
    },
    {
      name: 'k3s --disable-network-policy does not',
      config: k3s('  k3s:\n    disableNetworkPolicy: true\n'),
      want: { enforced: false, reason: 'not-enforced-k3s-disabled' },
    },
  ])('$name', ({ config, want }) => {
    expect(policyEnforcement(config)).toEqual(want);
    expect(policyEnforced(config)).toBe(want.enforced);
  });
});
