import { describe, expect, it } from 'vitest';
import { traceConnection, type TraceResult } from '../../src/engine/dataplane/trace/index.ts';
import { elementId } from '../../src/visual/escape.ts';
import { networkState, networkTrace } from '../../src/visual/host.ts';
import { renderTopologySvg } from '../../src/visual/topology/index.ts';
import { walkView } from '../../src/visual/walk/index.ts';
import { apply, crossNode, CROSS_NODE_HOPS, echoAllowClient } from './visual-fixtures.ts';

function trace(
  cni: 'flannel' | 'calico' | 'cilium',
  mode: 'iptables' | 'ipvs' | 'nftables' | 'none' = 'iptables',
) {
  const cluster = crossNode(cni, mode);
  const t = traceConnection(cluster, {
    from: { kind: 'pod', namespace: 'default', name: 'client' },
    argv: ['wget', '-qO-', 'http://only-b'],
  });
  if ('error' in t) throw new Error(t.error);
  return { cluster, t };
}

/** The kinds of `hops`, keeping only the first of each run (A and AAAA queries are one DNS step here). */
const kinds = (t: TraceResult) => t.hops.map((h) => h.kind).filter((k, i, all) => k !== all[i - 1]);

describe.each([
  {
    cni: 'flannel',
    mode: 'iptables',
    via: 'vxlan',
    outer: 'UDP 8472',
    words: ['VXLAN', 'flannel.1', 'UDP 8472'],
    service: "kube-proxy's iptables rules",
    policy: 'not enforced',
  },
  {
    cni: 'calico',
    mode: 'iptables',
    via: 'ipip',
    outer: 'IPIP',
    words: ['IP-in-IP', 'tunl0', 'IP protocol 4'],
    service: "kube-proxy's iptables rules",
    policy: 'not isolated',
  },
  {
    cni: 'cilium',
    mode: 'iptables',
    via: 'vxlan',
    outer: 'UDP 8472',
    words: ['VXLAN', 'cilium_vxlan', 'UDP 8472'],
    service: "kube-proxy's iptables rules",
    policy: 'not isolated',
  },
  {
    cni: 'calico',
    mode: 'ipvs',
    via: 'ipip',
    outer: 'IPIP',
    words: ['IP-in-IP'],
    service: 'IPVS virtual server',
    policy: 'not isolated',
  },
  {
    cni: 'cilium',
    mode: 'none',
    via: 'vxlan',
    outer: 'UDP 8472',
    words: ['VXLAN', 'cilium_vxlan'],
    service: "Cilium's eBPF service map",
    policy: 'not isolated',
  },
  {
    cni: 'flannel',
    mode: 'nftables',
    via: 'vxlan',
    outer: 'UDP 8472',
    words: ['VXLAN'],
    service: "kube-proxy's nftables map element",
    policy: 'not enforced',
  },
] as const)(
  'walk of a cross-node call through a Service under $cni ($mode)',
  ({ cni, mode, via, outer, words, service, policy }) => {
    const { cluster, t } = trace(cni, mode);
    const model = networkState(cluster).topology;
    const view = walkView(t, 'en', model);

    it('has the right hops in order', () => {
      expect(t.outcome).toBe('connected');
      expect(kinds(t)).toEqual(CROSS_NODE_HOPS);
      const route = t.hops.find((h) => h.kind === 'route');
      expect(route).toMatchObject({ via, node: 'kind-worker', toNode: 'kind-worker2' });
    });

    it('explains each hop: DNS answer, the Service rule, DNAT addresses, the outer header, the policy verdict', () => {
      const byKind = (k: string) => view.steps.find((s) => s.kind === k)!;
      const svc = cluster.store.get('services', 'default', 'only-b')!;
      const echoB = cluster.store.get('pods', 'default', 'echo-b')!;
      expect(byKind('dns-query').text).toContain(
        `only-b.default.svc.cluster.local. to ${cluster.config.dnsIP}`,
      );
      expect(byKind('dns-query').text).toContain(svc.spec!.clusterIP!);
      expect(byKind('service').text).toContain(service);
      expect(byKind('service').text).toContain(` ${echoB.status!.podIP}:8080 (pod default/echo-b)`);
      expect(byKind('dnat').text).toBe(
        `DNAT on node kind-worker: destination ${svc.spec!.clusterIP}:80 → ${echoB.status!.podIP}:8080.`,
      );
      const routeStep = byKind('route');
      for (const w of words) expect(routeStep.text).toContain(w);
      const w1 = model.nodes.find((n) => n.name === 'kind-worker')!.ip;
      const w2 = model.nodes.find((n) => n.name === 'kind-worker2')!.ip;
      expect(routeStep.text).toContain(`${w1} → ${w2}`);
      expect(routeStep.detail).toBe(`outer ${w1} → ${w2} ${outer}`);
      expect(byKind('network-policy').text).toContain(policy);
      expect(view.steps.at(-1)!.text).toContain('Delivered to pod default/echo-b');
    });

    it('targets elements the diagram has', () => {
      const svg = renderTopologySvg(model, { locale: 'en' });
      const svcStep = view.steps.find((s) => s.kind === 'service')!;
      expect(svcStep.targets).toEqual([
        elementId('svc', 'default/only-b'),
        elementId('node', 'kind-worker'),
        elementId('pod', 'default/echo-b'),
      ]);
      expect(view.steps.find((s) => s.kind === 'route')!.targets).toContain(model.overlay.id);
      for (const id of view.steps.flatMap((s) => s.targets)) expect(svg).toContain(`data-el="${id}"`);
    });

    it('speaks Portuguese on pt-BR pages', () => {
      const pt = walkView(t, 'pt-BR', model);
      expect(pt.steps.find((s) => s.kind === 'dnat')!.text).toMatch(/^DNAT no nó kind-worker: destino /);
      expect(pt.steps.find((s) => s.kind === 'route')!.text).toContain('Cabeçalho externo');
      expect(pt.title).toContain('a partir de pod default/client');
    });
  },
);

describe('walk of a blocked call', () => {
  const cluster = crossNode('calico');
  apply(cluster, [echoAllowClient]);
  const model = networkState(cluster).topology;

  it('names the policy that allows, and marks the deciding hop when blocked', () => {
    const ok = networkTrace(cluster, {
      from: { kind: 'pod', namespace: 'default', name: 'client' },
      to: 'only-b',
      port: 80,
    });
    if ('error' in ok) throw new Error(ok.error);
    const allowed = walkView(ok, 'en', model).steps.find(
      (s) => s.kind === 'network-policy' && s.text.startsWith('Ingress'),
    )!;
    expect(allowed.text).toContain('allowed by NetworkPolicy default/echo-allow-client, ingress rule');
    expect(allowed.targets).toContain(elementId('pol', 'default/echo-allow-client'));

    const bad = networkTrace(cluster, {
      from: { kind: 'pod', namespace: 'default', name: 'alpine' },
      to: 'only-b',
      port: 80,
    });
    if ('error' in bad) throw new Error(bad.error);
    expect(bad.outcome).toBe('timeout');
    // A copy, as after postMessage: the deciding hop is found by value.
    const view = walkView(structuredClone(bad), 'en', model);
    const deciding = view.steps.filter((s) => s.deciding);
    expect(deciding).toHaveLength(1);
    expect(deciding[0]).toMatchObject({ kind: 'network-policy', tone: 'stop' });
    expect(deciding[0]!.text).toContain('BLOCKED. Selected by default/echo-allow-client');
    expect(view.outcomeText).toBe('Timed out: the packet is dropped and nothing comes back.');
  });
});

describe('walk of a terminal trace line', () => {
  const cluster = crossNode('flannel');

  it('draws `trace SOURCE -- COMMAND` from its JSON output', () => {
    const r = networkTrace(cluster, { command: 'trace client -- wget -qO- http://only-b' });
    if ('error' in r) throw new Error(r.error);
    expect(kinds(r)).toEqual(CROSS_NODE_HOPS);
    expect(walkView(r, 'en').title).toBe('wget -qO- http://only-b from pod default/client: 12 hops');
  });

  it.each([
    { name: 'a pipeline', line: 'trace client -- wget http://only-b | cat' },
    { name: 'not a trace', line: 'kubectl get pods' },
    { name: 'a usage error', line: 'trace client' },
  ])('answers $name with an error, not an exception', ({ line }) => {
    expect(networkTrace(cluster, { command: line })).toHaveProperty('error');
  });
});
