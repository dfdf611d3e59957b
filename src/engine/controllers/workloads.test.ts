import { describe, expect, it } from 'vitest';
import { advance, deployment, eventsFor, makeCluster, podsOf } from './test-helpers.ts';
import type { AnyObject } from '../api/objects.ts';
import { NAME_ALPHABET } from '../util/rng.ts';

const suffix = `[${NAME_ALPHABET}]{5}`;

describe('Deployment → ReplicaSet → Pod', () => {
  it('creates <deploy>-<hash> and <rs>-<5 chars> pods owned by their controllers, and reports status', () => {
    const c = makeCluster();
    c.api.create(deployment('web', 3));
    advance(c, 15_000);
    const [rs, ...more] = c.api.list('replicasets.apps', 'default');
    expect(more).toHaveLength(0);
    expect(rs!.metadata.name).toMatch(new RegExp(`^web-[${NAME_ALPHABET}]{1,10}$`));
    const hash = rs!.metadata.labels!['pod-template-hash'];
    expect(rs!.metadata.name).toBe(`web-${hash}`);
    expect(rs!.metadata.ownerReferences).toEqual([
      expect.objectContaining({
        kind: 'Deployment',
        name: 'web',
        controller: true,
        blockOwnerDeletion: true,
      }),
    ]);
    const pods = podsOf(c, 'web-');
    expect(pods).toHaveLength(3);
    for (const p of pods) {
      expect(p.metadata.name).toMatch(new RegExp(`^${rs!.metadata.name}-${suffix}$`));
      expect(p.metadata.ownerReferences?.[0]).toMatchObject({
        kind: 'ReplicaSet',
        name: rs!.metadata.name,
        controller: true,
      });
      expect(p.status?.phase).toBe('Running');
    }
    const d = c.api.get('deployments.apps', 'default', 'web')!;
    expect(d.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
    expect(d.status).toMatchObject({
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      observedGeneration: 1,
    });
    expect(d.status?.conditions?.map((x) => [x.type, x.status, x.reason, x.message])).toEqual([
      ['Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.'],
      [
        'Progressing',
        'True',
        'NewReplicaSetAvailable',
        `ReplicaSet "${rs!.metadata.name}" has successfully progressed.`,
      ],
    ]);
    expect(eventsFor(c, d as unknown as AnyObject).map((e) => e.message)).toEqual([
      `Scaled up replica set ${rs!.metadata.name} from 0 to 3`,
    ]);
    expect(
      eventsFor(c, rs as unknown as AnyObject)
        .map((e) => e.message)
        .sort(),
    ).toEqual(pods.map((p) => `Created pod: ${p.metadata.name}`).sort());
  });

  it('spreads replicas over the workers, never on the tainted control plane', () => {
    const c = makeCluster();
    c.api.create(deployment('web', 4));
    advance(c, 2000);
    const nodes = podsOf(c, 'web-')
      .map((p) => p.spec?.nodeName)
      .sort();
    expect(nodes).toEqual(['kind-worker', 'kind-worker', 'kind-worker2', 'kind-worker2']);
  });

  it('rolls out a template change (rollout restart) within maxSurge/maxUnavailable and bumps the revision', () => {
    const c = makeCluster();
    c.api.create(deployment('web', 4));
    advance(c, 15_000);
    const d = c.api.get('deployments.apps', 'default', 'web')!;
    const next = JSON.parse(JSON.stringify(d));
    next.spec.template.metadata.annotations = { 'kubectl.kubernetes.io/restartedAt': '2026-01-01T00:06:00Z' };
    c.api.update(next);
    let maxTotal = 0;
    let minAvailable = Infinity;
    for (let i = 0; i < 30; i++) {
      c.tick(1000);
      const sets = c.api.list('replicasets.apps', 'default');
      maxTotal = Math.max(
        maxTotal,
        sets.reduce((s, r) => s + (r.spec?.replicas ?? 0), 0),
      );
      minAvailable = Math.min(
        minAvailable,
        sets.reduce((s, r) => s + (r.status?.availableReplicas ?? 0), 0),
      );
    }
    // 25% of 4: maxSurge 1, maxUnavailable 1.
    expect(maxTotal).toBe(5);
    expect(minAvailable).toBeGreaterThanOrEqual(3);
    const sets = c.api.list('replicasets.apps', 'default');
    expect(sets).toHaveLength(2);
    const fresh = sets.find((r) => r.spec?.replicas === 4)!;
    expect(fresh.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    expect(
      c.api.get('deployments.apps', 'default', 'web')!.metadata.annotations?.[
        'deployment.kubernetes.io/revision'
      ],
    ).toBe('2');
    expect(
      podsOf(c, 'web-').every(
        (p) => p.metadata.labels?.['pod-template-hash'] === fresh.metadata.labels?.['pod-template-hash'],
      ),
    ).toBe(true);
  });

  it('replaces a deleted pod and scales down the least valuable pods first', () => {
    const c = makeCluster();
    c.api.create(deployment('web', 2));
    advance(c, 15_000);
    const [first] = podsOf(c, 'web-');
    c.api.delete('pods', 'default', first!.metadata.name);
    advance(c, 15_000);
    const names = podsOf(c, 'web-').map((p) => p.metadata.name);
    expect(names).toHaveLength(2);
    expect(names).not.toContain(first!.metadata.name);
  });

  it('deleting a Deployment cascades to its ReplicaSets and pods (garbage collector)', () => {
    const c = makeCluster();
    c.api.create(deployment('web', 2));
    advance(c, 15_000);
    c.api.delete('deployments.apps', 'default', 'web');
    advance(c, 5000);
    expect(c.api.list('replicasets.apps', 'default')).toHaveLength(0);
    expect(podsOf(c, 'web-')).toHaveLength(0);
  });
});

describe('DaemonSet', () => {
  it('runs one pod per node that tolerates the taints, named <ds>-<5 chars>', () => {
    const c = makeCluster();
    c.api.create({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: { containers: [{ name: 'a', image: 'busybox', command: ['sleep', 'infinity'] }] },
        },
      },
    });
    advance(c, 10_000);
    const pods = podsOf(c, 'agent-');
    expect(pods.map((p) => p.spec?.nodeName).sort()).toEqual(['kind-worker', 'kind-worker2']);
    for (const p of pods) expect(p.metadata.name).toMatch(new RegExp(`^agent-${suffix}$`));
    expect(c.api.get('daemonsets.apps', 'default', 'agent')!.status).toMatchObject({
      desiredNumberScheduled: 2,
      currentNumberScheduled: 2,
      numberReady: 2,
      numberAvailable: 2,
      numberMisscheduled: 0,
    });
    // The system DaemonSets tolerate everything: one pod per node, control plane included.
    expect(c.api.get('daemonsets.apps', 'kube-system', 'kube-proxy')!.status?.desiredNumberScheduled).toBe(3);
  });
});
