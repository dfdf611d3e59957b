/**
 * The topology layout at any lab size, 1 to 12 nodes: measured geometry, not pictures. For synthetic
 * models (fast-check: nodes, pods per node including collapsed groups, Services and policies reaching
 * any pods) and for real clusters: node frames never overlap, every pod box lies inside its node's
 * frame, Services sit above every frame and policies below, routes are orthogonal, and no edge crosses a
 * node frame it does not connect (zero needless crossings, whatever the count of nodes).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { networkState } from '../../src/visual/host.ts';
import { elementId } from '../../src/visual/escape.ts';
import { framesPerRow, layoutTopology, type Box, type Layout } from '../../src/visual/topology/layout.ts';
import { renderTopologySvg } from '../../src/visual/topology/index.ts';
import type {
  TopologyModel,
  TopoNode,
  TopoPod,
  TopoPodGroup,
  TopoPolicy,
  TopoService,
} from '../../src/visual/topology/types.ts';
import { manyNodes } from './visual-fixtures.ts';

type Segment = readonly [readonly [number, number], readonly [number, number]];

/** Whether an axis-parallel segment passes through the inside of a box (touching its edge does not count). */
function crossesInside(s: Segment, b: Box): boolean {
  const [[x1, y1], [x2, y2]] = s;
  const lo = (a: number, c: number) => Math.min(a, c);
  const hi = (a: number, c: number) => Math.max(a, c);
  const inX = (x: number) => x > b.x && x < b.x + b.w;
  const inY = (y: number) => y > b.y && y < b.y + b.h;
  if (x1 === x2) return inX(x1) && hi(y1, y2) > b.y && lo(y1, y2) < b.y + b.h;
  if (y1 === y2) return inY(y1) && hi(x1, x2) > b.x && lo(x1, x2) < b.x + b.w;
  throw new Error(`not axis-parallel: ${JSON.stringify(s)}`);
}

const overlap = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const inside = (a: Box, b: Box) =>
  a.x >= b.x && a.y >= b.y && a.x + a.w <= b.x + b.w && a.y + a.h <= b.y + b.h;

/** Every geometric promise of the layout, as a list of broken ones (empty when all hold). */
function layoutProblems(model: TopologyModel, L: Layout): string[] {
  const problems: string[] = [];
  const frames = new Map(L.nodes.map((n) => [n.node.name, n.box]));
  const names = [...frames.keys()];
  names.forEach((a, i) =>
    names.slice(i + 1).forEach((b) => {
      if (overlap(frames.get(a)!, frames.get(b)!)) problems.push(`frames ${a} and ${b} overlap`);
    }),
  );
  for (const n of model.nodes)
    for (const p of n.pods) {
      const box = L.podBox.get(p.key);
      if (!box) problems.push(`pod ${p.key} not placed`);
      else if (!inside(box, frames.get(n.name)!)) problems.push(`pod ${p.key} outside ${n.name}`);
    }
  const top = Math.min(...L.nodes.map((n) => n.box.y));
  const bottom = Math.max(...L.nodes.map((n) => n.box.y + n.box.h));
  for (const [id, b] of L.services) if (b.y + b.h >= top) problems.push(`service ${id} not above the frames`);
  for (const [id, b] of L.policies) if (b.y <= bottom) problems.push(`policy ${id} not below the frames`);
  let crossings = 0;
  for (const r of L.routes) {
    const segments: Segment[] = r.points.slice(1).map((p, i) => [r.points[i]!, p]);
    segments.forEach((s, i) => {
      for (const [name, frame] of frames) {
        if (!crossesInside(s, frame)) continue;
        // Only the last leg may enter a frame, and only the frame of the pod it ends at.
        if (name !== r.node || i !== segments.length - 1) {
          crossings++;
          problems.push(`${r.from} → ${r.node}: leg ${i} crosses ${name}`);
        }
      }
    });
    const end = r.points.at(-1)!;
    const target = [...L.podBox.values()].find(
      (b) => end[0] > b.x && end[0] < b.x + b.w && (end[1] === b.y || end[1] === b.y + b.h),
    );
    if (!target || !inside(target, frames.get(r.node)!))
      problems.push(`${r.from} → ${r.node} ends off its pod`);
  }
  if (L.overlay)
    for (const [x1, y1, x2, y2] of L.overlay.lines)
      for (const [name, frame] of frames)
        if (
          crossesInside(
            [
              [x1, y1],
              [x2, y2],
            ],
            frame,
          )
        )
          problems.push(`overlay crosses ${name}`);
  expect(crossings).toBe(problems.filter((p) => p.includes(' crosses ') && !p.startsWith('overlay')).length);
  return problems;
}

// ---- synthetic models -------------------------------------------------------------------------

const pod = (node: number, i: number, workload: string): TopoPod => {
  const key = `default/${workload}-${node}-${i}`;
  return {
    id: elementId('pod', key),
    key,
    namespace: 'default',
    name: `${workload}-${node}-${i}`,
    ip: `10.244.${node}.${i + 2}`,
    node: `node-${node}`,
    phase: 'Running',
    labels: { app: workload },
    workload,
    role: 'app',
  };
};

/** A node with `count` pods of `workloads` workloads, collapsed into groups past 8 pods as the model does. */
function node(index: number, count: number, workloads: number): TopoNode {
  const pods = Array.from({ length: count }, (_, i) => pod(index, i, `app${i % workloads}`));
  const groups: TopoPodGroup[] | undefined =
    count > 8
      ? [...new Set(pods.map((p) => p.workload))].map((w) => ({
          id: elementId('group', `node-${index}:${w}`),
          namespace: 'default',
          workload: w,
          role: 'app',
          podKeys: pods.filter((p) => p.workload === w).map((p) => p.key),
          ips: pods.filter((p) => p.workload === w).map((p) => p.ip!),
        }))
      : undefined;
  return {
    id: elementId('node', `node-${index}`),
    name: `node-${index}`,
    ip: `172.18.0.${index + 2}`,
    podCIDR: `10.244.${index}.0/24`,
    controlPlane: index === 0,
    ready: true,
    pods,
    hostPods: [],
    ...(groups ? { groups } : {}),
  };
}

const arbModel = fc
  .record({
    nodes: fc.array(fc.record({ pods: fc.nat(16), workloads: fc.integer({ min: 1, max: 16 }) }), {
      minLength: 1,
      maxLength: 12,
    }),
    services: fc.array(fc.array(fc.nat(), { maxLength: 8 }), { maxLength: 10 }),
    policies: fc.array(fc.array(fc.nat(), { maxLength: 8 }), { maxLength: 4 }),
  })
  .map(({ nodes, services, policies }): TopologyModel => {
    const ns = nodes.map((n, i) => node(i, n.pods, n.workloads));
    const keys = ns.flatMap((n) => n.pods.map((p) => p.key));
    const pick = (picks: number[]) =>
      keys.length === 0 ? [] : [...new Set(picks.map((p) => keys[p % keys.length]!))].sort();
    return {
      version: 1,
      cni: 'calico',
      distribution: 'kubeadm',
      kubeProxyMode: 'iptables',
      rewrite: 'iptables',
      overlay: { id: 'overlay', encapsulation: 'ipip', routing: 'bgp', device: 'tunl0' },
      policyEnforced: true,
      nodes: ns,
      unscheduled: [],
      services: services.map(
        (picks, i): TopoService => ({
          id: elementId('svc', `default/s${i}`),
          key: `default/s${i}`,
          namespace: 'default',
          name: `s${i}`,
          type: 'ClusterIP',
          clusterIP: `10.96.0.${i + 20}`,
          ports: [{ port: 80, targetPort: '8080', protocol: 'TCP' }],
          backends: pick(picks),
          notReady: 0,
          externalIPs: [],
          dns: false,
        }),
      ),
      policies: policies.map(
        (picks, i): TopoPolicy => ({
          id: elementId('pol', `default/p${i}`),
          key: `default/p${i}`,
          namespace: 'default',
          name: `p${i}`,
          selector: `app=x${i}`,
          types: ['Ingress'],
          selects: pick(picks),
          ingress: [],
          egress: [],
        }),
      ),
      entries: [],
      dnsIP: '10.96.0.10',
      podSubnet: '10.244.0.0/16',
      serviceSubnet: '10.96.0.0/12',
    };
  });

describe('topology layout from 1 to 12 nodes', () => {
  it('frames per row: one row up to 4 nodes, then balanced rows of at most 4', () => {
    expect(Array.from({ length: 12 }, (_, i) => framesPerRow(i + 1))).toEqual([
      1, 2, 3, 4, 3, 3, 4, 4, 3, 4, 4, 4,
    ]);
  });

  it('property: no overlapping frames, every pod inside its frame, no edge across a frame it does not connect', () => {
    fc.assert(
      fc.property(arbModel, (model) => {
        const L = layoutTopology(model);
        expect(layoutProblems(model, L)).toEqual([]);
        // Every Service → pod and policy → pod pair is drawn: a route ends at each reached box.
        for (const s of model.services)
          for (const k of s.backends)
            expect(L.routes.some((r) => r.from === s.id && r.to.includes(elementId('pod', k)))).toBe(true);
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it('the check itself finds a needless crossing: a straight line from a Service to a pod two rows down', () => {
    const m = fc.sample(arbModel, { seed: 42, numRuns: 1 })[0]!;
    const nodes = Array.from({ length: 9 }, (_, i) => node(i, 2, 1));
    const withNine: TopologyModel = { ...m, nodes, services: [], policies: [] };
    const L = layoutTopology(withNine);
    const far = L.nodes.at(-1)!.items[0]!.box;
    const straight: Layout = {
      ...L,
      routes: [
        {
          kind: 'ew',
          from: 'svc-x',
          to: [],
          node: L.nodes.at(-1)!.node.name,
          points: [
            [far.x + far.w / 2, 0],
            [far.x + far.w / 2, far.y],
          ],
        },
      ],
    };
    expect(layoutProblems(withNine, straight)).toEqual([
      `svc-x → ${L.nodes.at(-1)!.node.name}: leg 0 crosses ${L.nodes[2]!.node.name}`,
      `svc-x → ${L.nodes.at(-1)!.node.name}: leg 0 crosses ${L.nodes[5]!.node.name}`,
    ]);
  });

  it.each([
    [6, 10],
    [12, 3],
  ])(
    'real cluster of %i nodes with %i pods per worker: the same promises, one overlay',
    (nodes, perNode) => {
      const cluster = manyNodes(nodes, perNode);
      const model = networkState(cluster).topology;
      expect(model.nodes).toHaveLength(nodes);
      // Frames in numeric order: kind-worker2 comes before kind-worker10.
      expect(model.nodes.map((n) => n.name)).toEqual([
        'kind-control-plane',
        'kind-worker',
        ...Array.from({ length: nodes - 2 }, (_, i) => `kind-worker${i + 2}`),
      ]);
      const L = layoutTopology(model);
      expect(layoutProblems(model, L)).toEqual([]);
      expect(new Set(L.nodes.map((n) => n.box.y)).size).toBe(Math.ceil(nodes / framesPerRow(nodes)));
      const svg = renderTopologySvg(model, { locale: 'en' });
      expect(svg.match(/class="ppt-overlay"\/>/g)).toHaveLength(1);
      expect(svg.split('BGP routes (BIRD, TCP 179) + IP-in-IP').length - 1).toBe(1);
      // Each worker's set is reached by its Service and by the policy; the spread Service reaches every worker.
      const spread = model.services.find((s) => s.key === 'default/spread')!;
      expect(new Set(L.routes.filter((r) => r.from === spread.id).map((r) => r.node)).size).toBe(nodes - 1);
      for (const n of L.nodes) expect(svg).toContain(`pods ${n.node.podCIDR}`);
    },
    60_000,
  );
});
