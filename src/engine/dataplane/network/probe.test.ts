import { describe, expect, it } from 'vitest';
import { graderHop, probe, reachabilityMatrix } from './probe.ts';
import { apply, podIP, scenario } from './test-helpers.ts';

const policy = {
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name: 'echo-from-client', namespace: 'default' },
  spec: {
    podSelector: { matchLabels: { app: 'echo' } },
    ingress: [{ from: [{ podSelector: { matchLabels: { run: 'client' } } }] }],
  },
};

describe.each(['calico', 'flannel'] as const)('probe under %s', (cni) => {
  const cluster = scenario(cni, 'iptables', 71);
  apply(cluster, [policy]);
  const enforced = cni === 'calico';

  it.each([
    { from: 'client', to: 'echo', port: 80, verdict: 'allowed' },
    { from: 'alpine', to: 'echo', port: 80, verdict: enforced ? 'blocked' : 'allowed' },
    { from: 'client', to: 'server', port: 80, verdict: 'allowed' },
    { from: 'client', to: '<server-b>', port: 81, verdict: 'refused' },
  ])('$from → $to:$port is $verdict', ({ from, to, port, verdict }) => {
    const r = probe(cluster, {
      fromPod: { namespace: 'default', name: from },
      to: to.replace('<server-b>', podIP(cluster, 'server-b')),
      port,
    });
    expect(r.verdict).toBe(verdict);
  });

  it('names the deciding hop in the grader vocabulary', () => {
    const blocked = probe(cluster, {
      fromPod: { namespace: 'default', name: 'alpine' },
      to: 'echo',
      port: 80,
    });
    if (enforced)
      expect(graderHop(blocked.decidingHop, blocked.connection.hops)).toMatchObject({
        kind: 'policy-isolation',
        direction: 'Ingress',
      });
    const refused = probe(cluster, {
      fromPod: { namespace: 'default', name: 'client' },
      to: podIP(cluster, 'server-b'),
      port: 81,
    });
    expect(graderHop(refused.decidingHop)).toMatchObject({ kind: 'no-listener', pod: 'server-b', port: 81 });
  });

  it("leaves the learner's random stream alone", () => {
    const before = cluster.rng.state();
    probe(cluster, { fromPod: { namespace: 'default', name: 'client' }, to: 'echo', port: 80 });
    expect(cluster.rng.state()).toEqual(before);
  });

  it('the matrix agrees with probes to pod IPs', () => {
    const cells = reachabilityMatrix(cluster);
    for (const c of cells.filter(
      (x) => x.to.name.startsWith('echo') && ['client', 'alpine'].includes(x.from.name),
    )) {
      const r = probe(cluster, {
        fromPod: c.from,
        to: podIP(cluster, c.to.name),
        port: c.port,
        protocol: c.protocol,
      });
      expect(`${c.from.name}→${c.to.name}:${c.port}/${c.protocol} ${r.verdict}`).toBe(
        `${c.from.name}→${c.to.name}:${c.port}/${c.protocol} ${c.verdict}`,
      );
    }
    expect(cells.some((c) => c.verdict === 'blocked')).toBe(enforced);
  });
});
