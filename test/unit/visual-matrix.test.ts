import { describe, expect, it } from 'vitest';
import { probe } from '../../src/engine/dataplane/network/index.ts';
import { service } from '../../src/engine/dataplane/network/test-helpers.ts';
import { elementId } from '../../src/visual/escape.ts';
import { networkState, networkTrace } from '../../src/visual/host.ts';
import { MAX_MATRIX_PODS, matrixView, serviceMatrixView } from '../../src/visual/matrix/index.ts';
import { walkView } from '../../src/visual/walk/index.ts';
import {
  allowBToXA,
  apply,
  crossNode,
  defaultDenyX,
  denyAllDefault,
  echoAllowClient,
  manyNodes,
  xyz,
} from './visual-fixtures.ts';

const PODS = ['x/a', 'x/b', 'x/c', 'y/a', 'y/b', 'y/c', 'z/a', 'z/b', 'z/c'];

describe('reachability matrix on the x/y/z × a/b/c topology', () => {
  const cluster = xyz();

  it('starts all allowed, and says no policy isolates the pods', () => {
    const view = matrixView(networkState(cluster).matrix, 'en', { cni: 'calico' });
    expect(view.rows).toEqual(PODS);
    // agnhost netexec serves HTTP on 80 and UDP on 8081: both are columns.
    expect(view.columns.map((c) => c.label)).toEqual(PODS.flatMap((p) => [`${p}:80`, `${p}:8081/UDP`]));
    expect(view.counts).toEqual({ allowed: 144, blocked: 0, refused: 0, total: 144 });
    expect(view.summary).toBe('All 144 pairs allowed: no NetworkPolicy isolates these pods.');
    expect(view.grid[0]![0]).toBeUndefined();
  });

  it('after default-deny + allow, matches the dataplane cell by cell (probes to pod IPs)', () => {
    apply(cluster, [defaultDenyX, allowBToXA]);
    const cells = networkState(cluster).matrix;
    const view = matrixView(cells, 'en', { cni: 'calico' });
    for (const [r, from] of view.rows.entries())
      for (const [c, col] of view.columns.entries()) {
        const cell = view.grid[r]![c];
        if (from === col.target) {
          expect(cell).toBeUndefined();
          continue;
        }
        const [ns, name] = col.target.split('/') as [string, string];
        const [fns, fname] = from.split('/') as [string, string];
        const ip = cluster.store.get('pods', ns, name)!.status!.podIP!;
        const real = probe(cluster, {
          fromPod: { namespace: fns, name: fname },
          to: ip,
          port: col.port,
          protocol: col.protocol === 'UDP' ? 'UDP' : 'TCP',
        });
        expect(`${from}→${col.label} ${cell?.verdict}`).toBe(`${from}→${col.label} ${real.verdict}`);
      }
    // Into x only the b pods reach x/a; everything else into x is blocked; y and z stay open.
    const into = (pod: string) => view.columns.findIndex((c) => c.target === pod && c.port === 80);
    const verdict = (from: string, to: string) => view.grid[view.rows.indexOf(from)]![into(to)]?.verdict;
    expect(verdict('y/b', 'x/a')).toBe('allowed');
    expect(verdict('x/b', 'x/a')).toBe('allowed');
    expect(verdict('y/c', 'x/a')).toBe('blocked');
    expect(verdict('z/a', 'x/b')).toBe('blocked');
    expect(verdict('x/a', 'y/c')).toBe('allowed');
    // Into x: 3 pods × 8 sources × 2 ports = 48 cells, of which the three b pods → x/a:80 pass.
    expect(view.counts).toEqual({ allowed: 144 - 48 + 3, blocked: 45, refused: 0, total: 144 });
    expect(view.summary).toBe('99 of 144 pairs allowed, 45 blocked, 0 refused.');
    const blocked = view.grid[view.rows.indexOf('y/c')]![into('x/a')]!;
    expect(blocked).toMatchObject({ symbol: '✕', label: 'y/c → x/a port 80: blocked' });
    expect(blocked.reason).toBe('ingress: a policy selects the pod and no rule allows this peer');
    expect(view.grid[view.rows.indexOf('y/b')]![into('x/a')]!.reason).toBe('a NetworkPolicy rule allows it');
  });

  it('shows over-strict policies: every pair blocked', () => {
    const c = xyz();
    apply(
      c,
      ['x', 'y', 'z'].map((ns) => ({ ...defaultDenyX, metadata: { name: 'deny', namespace: ns } })),
    );
    const view = matrixView(networkState(c).matrix, 'pt-BR');
    expect(view.counts.blocked).toBe(144);
    expect(view.summaryKind).toBe('allBlocked');
    expect(view.summary).toBe(
      'Todos os 144 pares bloqueados: as políticas isolam estes pods e não permitem nada entre eles (restritivas demais?).',
    );
  });
});

describe('matrix when the CNI ignores policies', () => {
  it('says flannel does not enforce them, even with a default-deny applied', () => {
    const c = crossNode('flannel');
    apply(c, [denyAllDefault]);
    const view = matrixView(networkState(c).matrix, 'en', { cni: 'flannel' });
    expect(view.summaryKind).toBe('allAllowedNotEnforced');
    expect(view.summary).toMatch(/^All \d+ pairs allowed: flannel does not enforce NetworkPolicy/);
  });
});

describe('matrix, Services mode: pod × Service port through ClusterIP:port', () => {
  const cluster = crossNode('calico');
  apply(cluster, [
    echoAllowClient,
    service('nobody', { app: 'nobody' }, 80, 80),
    service('echo-named', { app: 'echo' }, 8080, 8080, {
      ports: [{ name: 'http', port: 8080, targetPort: 8080, protocol: 'TCP' }],
    }),
  ]);
  const state = networkState(cluster);
  const view = serviceMatrixView(state.services, 'en', { cni: 'calico' });
  const svc = (name: string, ns = 'default') => cluster.store.get('services', ns, name)!;
  const cell = (from: string, service: string, port: number, protocol = 'TCP') =>
    view.grid[view.rows.indexOf(from)]![
      view.columns.findIndex((c) => c.target === service && c.port === port && c.protocol === protocol)
    ];

  it('has a column per Service port (name, ClusterIP:port), DNS included, default/kubernetes out', () => {
    const dns = svc('kube-dns', 'kube-system').spec!.clusterIP!;
    expect(view.columns.map((c) => c.label)).toEqual([
      `default/echo ${svc('echo').spec!.clusterIP}:80`,
      `default/echo-named:http ${svc('echo-named').spec!.clusterIP}:8080`,
      `default/echo-np ${svc('echo-np').spec!.clusterIP}:80`,
      `default/nobody ${svc('nobody').spec!.clusterIP}:80`,
      `default/only-b ${svc('only-b').spec!.clusterIP}:80`,
      `default/server ${svc('server').spec!.clusterIP}:80`,
      `kube-system/kube-dns:dns-tcp ${dns}:53`,
      `kube-system/kube-dns:dns ${dns}:53/UDP`,
      `kube-system/kube-dns:metrics ${dns}:9153`,
    ]);
    const running = cluster.store.list('pods', 'default').filter((p) => p.status?.phase === 'Running');
    expect(view.rows).toEqual(running.map((p) => `default/${p.metadata.name}`).sort());
    expect(view.counts.total).toBe(view.rows.length * view.columns.length);
  });

  it('every cell is the verdict of the dataplane probe to ClusterIP:port from that pod', () => {
    for (const [r, from] of view.rows.entries())
      for (const [c, col] of view.columns.entries()) {
        const [ns, name] = from.split('/') as [string, string];
        const real = probe(cluster, {
          fromPod: { namespace: ns, name },
          to: col.address!,
          port: col.port,
          protocol: col.protocol === 'UDP' ? 'UDP' : 'TCP',
        });
        expect(`${from}→${col.label} ${view.grid[r]![c]?.verdict}`).toBe(
          `${from}→${col.label} ${real.verdict}`,
        );
      }
  });

  it('names why: the policy, the missing endpoints, the endpoint kube-proxy picked', () => {
    const ok = cell('default/client', 'default/only-b', 80)!;
    expect(ok).toMatchObject({ verdict: 'allowed', symbol: '✓', address: svc('only-b').spec!.clusterIP });
    const echoB = cluster.store.get('pods', 'default', 'echo-b')!.status!.podIP!;
    expect(ok.reason).toBe(`a NetworkPolicy rule allows it; endpoint default/echo-b ${echoB}:8080`);
    expect(ok.targets).toEqual([
      elementId('pod', 'default/client'),
      elementId('svc', 'default/only-b'),
      elementId('pod', 'default/echo-b'),
    ]);
    const bad = cell('default/alpine', 'default/only-b', 80)!;
    expect(bad.verdict).toBe('blocked');
    expect(bad.label).toBe(
      `default/alpine → Service default/only-b ${svc('only-b').spec!.clusterIP}:80: blocked`,
    );
    expect(bad.reason).toMatch(
      /^ingress: a policy selects the pod and no rule allows this peer; endpoint default\/echo-b/,
    );
    const none = cell('default/client', 'default/nobody', 80)!;
    expect(none).toMatchObject({ verdict: 'refused', symbol: '⊘' });
    expect(none.reason).toBe('the Service has no ready endpoint: kube-proxy rejects the connection');
    expect(cell('default/alpine', 'kube-system/kube-dns', 53, 'UDP')!.verdict).toBe('allowed');
    expect(view.summaryKind).toBe('mixed');
  });

  it('a cell click replays its own probe: the walk ends where the cell says', () => {
    const c = cell('default/alpine', 'default/echo', 80)!;
    const trace = networkTrace(cluster, {
      from: { kind: 'pod', namespace: 'default', name: 'alpine' },
      to: c.address!,
      port: 80,
      protocol: 'TCP',
      probe: true,
    });
    if ('error' in trace) throw new Error(trace.error);
    expect(trace.hops.map((h) => h.kind)).toContain('service');
    expect(trace.outcome).toBe('timeout');
    const walk = walkView(trace, 'en', state.topology);
    const deciding = walk.steps.find((s) => s.deciding)!;
    expect(deciding.kind).toBe('network-policy');
    // The pod the walk says blocked it is the endpoint the cell names.
    const blockedPod = trace.decidingHop?.kind === 'network-policy' ? trace.decidingHop.pod.name : '';
    expect(c.reason).toContain(`endpoint default/${blockedPod} `);
  });

  it('leaves no trace in the cluster: the probes ran on a copy (no conntrack entry on the node)', () => {
    const c = crossNode('calico');
    const conntrack = () => {
      c.execSync('kubectl debug node/kind-worker -it --image=nicolaka/netshoot', { interactive: true });
      const r = c.execSync('conntrack -L', { interactive: true });
      c.execSync('exit', { interactive: true });
      return r.stdout;
    };
    const before = conntrack();
    const s = networkState(c);
    expect(s.services.length).toBeGreaterThan(0);
    expect(conntrack()).toBe(before);
  });

  it('recomputes after an apply: a namespace egress deny blocks DNS too (the over-strict classic)', () => {
    const c = crossNode('calico');
    apply(c, [
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: { name: 'deny-egress', namespace: 'default' },
        spec: { podSelector: {}, policyTypes: ['Egress'] },
      },
    ]);
    const v = serviceMatrixView(networkState(c).services, 'pt-BR', { cni: 'calico' });
    expect(v.counts.blocked).toBe(v.counts.total);
    expect(v.summaryKind).toBe('allBlocked');
    const dns =
      v.grid[0]![v.columns.findIndex((x) => x.target === 'kube-system/kube-dns' && x.protocol === 'UDP')]!;
    expect(dns.reason).toMatch(/^saída: uma política seleciona o pod e nenhuma regra permite este par/);
  });

  it(`does not probe more than ${MAX_MATRIX_PODS} source pods: it says how many instead`, () => {
    const big = networkState(manyNodes(6, 10));
    expect(big.services).toEqual([]);
    // 50 pods; Services web-0…web-4 and spread, and kube-dns's three ports.
    expect(big.servicesTooLarge).toEqual({ pods: 50, ports: 9 });
  });

  it('says so when there is nothing to probe', () => {
    const v = serviceMatrixView([], 'en');
    expect(v.summaryKind).toBe('empty');
    expect(v.summary).toBe(
      'No Service with a ClusterIP yet, or no running pod to call from: nothing to probe.',
    );
  });
});
