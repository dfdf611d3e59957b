/**
 * Properties of the whole control plane over random operation sequences (create / scale / delete
 * Deployments, Services, delete pods, let time pass): pod IPs stay unique and inside their node's
 * podCIDR, EndpointSlices list exactly the ready selected pods, a settled cluster stays settled, and
 * a snapshot restored mid-way continues exactly like the original.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { restoreCluster, type Cluster } from '../cluster/cluster.ts';
import { cidrContainsText } from '../util/ip.ts';
import { deployment, makeCluster, service } from './test-helpers.ts';
import { isPodReady, isPodTerminal } from '../api/pod-status.ts';
import type { Controller } from './runtime.ts';
import { POD_NODE_INDEX } from '../api/store.ts';
import { Scheduler } from './scheduler.ts';
import { nodeUsage } from './scheduler-plugins.ts';

type Op =
  | { kind: 'deploy'; name: number; replicas: number; image: number }
  | { kind: 'scale'; name: number; replicas: number }
  | { kind: 'undeploy'; name: number }
  | { kind: 'service'; name: number }
  | { kind: 'killPod'; index: number }
  | { kind: 'wait'; ms: number };

const NAMES = ['web', 'api', 'db'];
const IMAGES: Record<string, unknown>[] = [
  { name: 'c', image: 'nginx' },
  { name: 'c', image: 'busybox', command: ['sleep', '3600'] },
  { name: 'c', image: 'hashicorp/http-echo', args: ['-text=hi'] },
  { name: 'c', image: 'busybox' },
  { name: 'c', image: 'nginx', resources: { requests: { cpu: '0.3', memory: '64Mi' } } },
];

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('deploy' as const), name: fc.nat(2), replicas: fc.nat(4), image: fc.nat(4) }),
  fc.record({ kind: fc.constant('scale' as const), name: fc.nat(2), replicas: fc.nat(5) }),
  fc.record({ kind: fc.constant('undeploy' as const), name: fc.nat(2) }),
  fc.record({ kind: fc.constant('service' as const), name: fc.nat(2) }),
  fc.record({ kind: fc.constant('killPod' as const), index: fc.nat(20) }),
  fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 500, max: 45_000 }) }),
);

function apply(c: Cluster, op: Op): void {
  const name = 'name' in op ? NAMES[op.name]! : '';
  try {
    switch (op.kind) {
      case 'deploy':
        c.api.create(
          deployment(name, op.replicas, (d) => (d.spec.template.spec.containers = [IMAGES[op.image]])),
        );
        break;
      case 'scale': {
        const d = c.api.get('deployments.apps', 'default', name);
        if (d) c.api.update({ ...d, spec: { ...d.spec!, replicas: op.replicas } } as never);
        break;
      }
      case 'undeploy':
        c.api.delete('deployments.apps', 'default', name);
        break;
      case 'service':
        c.api.create(service(name, { app: name }, [{ port: 80, targetPort: 80 }]));
        break;
      case 'killPod': {
        const pods = c.api.list('pods', 'default');
        const p = pods[op.index % Math.max(1, pods.length)];
        if (p) c.api.delete('pods', 'default', p.metadata.name);
        break;
      }
      case 'wait':
        break;
    }
  } catch {
    // AlreadyExists / NotFound: the learner's command fails, the cluster goes on.
  }
  c.settle();
  c.tick(op.kind === 'wait' ? op.ms : 2000);
}

function checkInvariants(c: Cluster): void {
  const nodes = new Map(c.api.list('nodes').map((n) => [n.metadata.name, n]));
  const live = c.api
    .list('pods')
    .filter(
      (p) =>
        p.status?.podIP &&
        !p.spec?.hostNetwork &&
        p.status.phase !== 'Succeeded' &&
        p.status.phase !== 'Failed',
    );
  const ips = live.map((p) => p.status!.podIP!);
  expect(new Set(ips).size).toBe(ips.length);
  for (const p of live)
    expect(cidrContainsText(nodes.get(p.spec!.nodeName!)!.spec!.podCIDR!, p.status!.podIP!)).toBe(true);
  for (const svc of c.api.list('services', 'default').filter((s) => s.spec?.selector)) {
    const ready = c.api
      .list('pods', 'default')
      .filter(
        (p) =>
          p.metadata.labels?.app === svc.spec!.selector!.app &&
          p.status?.podIP &&
          isPodReady(p) &&
          !p.metadata.deletionTimestamp,
      )
      .map((p) => p.status!.podIP!)
      .sort();
    const published = c.api
      .list('endpointslices.discovery.k8s.io', 'default')
      .filter((s) => s.metadata.labels?.['kubernetes.io/service-name'] === svc.metadata.name)
      .flatMap((s) => s.endpoints ?? [])
      .filter((e) => e.conditions?.ready)
      .map((e) => e.addresses[0]!)
      .sort();
    expect(published).toEqual(ready);
  }
  // The scheduler's per-node usage cache equals a recomputation from the pods bound to the node.
  const scheduler = (c as unknown as { controllers: Controller[] }).controllers.find(
    (x): x is Scheduler => x instanceof Scheduler,
  )!;
  for (const name of nodes.keys()) {
    const cached = scheduler.cachedUsage(name);
    const bound = c.api.byIndex('pods', POD_NODE_INDEX, name).filter((p) => !isPodTerminal(p));
    if (cached) expect(cached).toEqual(nodeUsage(bound));
  }
  const rv = c.store.resourceVersion;
  c.settle();
  expect(c.store.resourceVersion).toBe(rv);
}

describe('control plane properties', () => {
  it('pod IPs unique and in their podCIDR, slices = ready selected pods, settle is idempotent', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 12 }), fc.nat(1000), (ops, seed) => {
        const c = makeCluster(undefined, seed);
        for (const op of ops) {
          apply(c, op);
          checkInvariants(c);
        }
      }),
      { numRuns: 12 },
    );
  }, 60_000);

  it('snapshot → restore → continue equals continuing without a restore', () => {
    fc.assert(
      fc.property(
        fc.array(opArb, { minLength: 1, maxLength: 8 }),
        fc.array(opArb, { minLength: 1, maxLength: 8 }),
        fc.nat(1000),
        (before, after, seed) => {
          const a = makeCluster(undefined, seed);
          for (const op of before) apply(a, op);
          const b = restoreCluster(JSON.stringify(a.snapshot()));
          for (const op of after) {
            apply(a, op);
            apply(b, op);
          }
          expect(JSON.stringify(b.snapshot().store)).toBe(JSON.stringify(a.snapshot().store));
          expect(b.clock.now()).toBe(a.clock.now());
        },
      ),
      { numRuns: 12 },
    );
  }, 60_000);
});
