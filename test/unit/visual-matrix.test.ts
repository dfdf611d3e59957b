import { describe, expect, it } from 'vitest';
import { probe } from '../../src/engine/dataplane/network/index.ts';
import { networkState } from '../../src/visual/host.ts';
import { matrixView } from '../../src/visual/matrix/index.ts';
import { allowBToXA, apply, crossNode, defaultDenyX, denyAllDefault, xyz } from './visual-fixtures.ts';

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
        if (from === col.pod) {
          expect(cell).toBeUndefined();
          continue;
        }
        const [ns, name] = col.pod.split('/') as [string, string];
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
    const into = (pod: string) => view.columns.findIndex((c) => c.pod === pod && c.port === 80);
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
