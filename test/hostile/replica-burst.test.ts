/**
 * Hostile input: a Deployment asking for 100,000 replicas. A real cluster bounds this itself: the
 * ReplicaSet controller creates at most BurstReplicas (500) pods per sync, in slow-start batches,
 * and keeps going sync after sync while kubectl has long returned; nodes hold maxPods (110) and the
 * rest stays Pending. One command line must cost bounded work, measured here as objects written —
 * never wall time — and the cluster must stay usable while the pods keep coming.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../src/engine/index.ts';
import { SETTLE_WRITE_BUDGET } from '../../src/engine/cluster/cluster.ts';
import {
  BURST_REPLICAS,
  planReplicas,
  slowStartBatch,
} from '../../src/engine/controllers/replicaset-controller.ts';

describe('replica burst', () => {
  it('slowStartBatch runs batches of 1, 2, 4, … and skips the rest after a failing batch', () => {
    // Cases of upstream's TestSlowStartBatch (replica_set_test.go, kept in its ports): every call
    // failing stops after the first batch of one; a failure at call index 5 of 10 ends the 1+2+4 batch.
    let calls = 0;
    expect(slowStartBatch(10, 1, () => (++calls, false))).toBe(0);
    expect(calls).toBe(1);
    calls = 0;
    expect(slowStartBatch(10, 1, () => calls++ !== 5)).toBe(6);
    expect(calls).toBe(7);
    calls = 0;
    expect(slowStartBatch(10, 1, () => (++calls, true))).toBe(10);
    expect(calls).toBe(10);
    expect(slowStartBatch(0, 1, () => true)).toBe(0);
  });

  it('one sync creates or deletes at most BurstReplicas (500) pods', () => {
    expect(BURST_REPLICAS).toBe(500);
    expect(planReplicas(100_000, []).create).toBe(500);
    expect(planReplicas(3, []).create).toBe(3);
  });

  it('a burst cut short is deterministic: same seed, same lines, same state', () => {
    const run = () => {
      const c = createCluster(undefined, { seed: 4 });
      c.execSync('kubectl create deployment big --image=nginx --replicas=20000');
      c.execSync('kubectl get deploy big');
      return c.snapshot();
    };
    const a = run();
    // Cut short: some bursts made, most of the 20,000 still to come.
    const made = a.store.objects.filter(
      (o) => o.resource === 'pods' && o.object.metadata.name.startsWith('big-'),
    );
    expect(made.length).toBeGreaterThanOrEqual(BURST_REPLICAS);
    expect(made.length).toBeLessThan(20_000);
    expect(JSON.stringify(run())).toBe(JSON.stringify(a));
  }, 120_000);

  it('kubectl create deployment --replicas=100000 returns after bounded work; the cluster stays usable', () => {
    const c = createCluster(undefined, { seed: 9 });
    const pods = () => c.store.list('pods', 'default').length;
    const rv0 = c.store.resourceVersion;

    const created = c.execSync('kubectl create deployment big --image=nginx --replicas=100000');
    expect(created).toMatchObject({ exitCode: 0, stdout: 'deployment.apps/big created\n', stderr: '' });
    // Every pod costs at least two writes (the pod and its `SuccessfulCreate` event). A line runs one
    // settle and one tick of COMMAND_STEP_MS, each stopping once SETTLE_WRITE_BUDGET writes are spent;
    // the last ReplicaSet sync started within a budget adds at most BURST_REPLICAS more. So at most
    // 2 × (budget / 2 + burst) pods — and at least one burst, since the first sync is in budget.
    const first = pods();
    expect(first).toBeGreaterThanOrEqual(BURST_REPLICAS);
    expect(first).toBeLessThanOrEqual(SETTLE_WRITE_BUDGET + 2 * BURST_REPLICAS);
    expect(c.store.resourceVersion - rv0).toBeLessThan(100_000);

    const deploy = c.execSync('kubectl get deploy big');
    expect(deploy.exitCode).toBe(0);
    expect(deploy.stdout).toMatch(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\nbig\s+\d+\/100000\s/);

    // `kubectl get pods | wc -l` grows from one command to the next, as the controller keeps syncing.
    const counts = [0, 1].map(() => Number(c.execSync('kubectl get pods | wc -l').stdout.trim()));
    expect(counts[0]).toBeGreaterThan(first);
    expect(counts[1]).toBeGreaterThan(counts[0]!);
    expect(counts[1]).toBeLessThan(100_000);

    // Nodes fill up to maxPods; the rest stays Pending with the scheduler's FitError.
    const pending = c.store.list('pods', 'default').find((p) => !p.spec?.nodeName);
    expect(pending?.status?.conditions?.find((x) => x.type === 'PodScheduled')?.message).toMatch(
      /Too many pods/,
    );

    // Scaling down converges over later commands (deletions, too, are BurstReplicas per sync).
    expect(c.execSync('kubectl scale deploy big --replicas=1').stdout).toBe('deployment.apps/big scaled\n');
    let left = pods();
    for (let i = 0; i < 40 && left > 1; i++) {
      c.execSync('sleep 10');
      left = c.store
        .list('pods', 'default')
        .filter((p) => !p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded').length;
    }
    expect(left).toBe(1);
    const wait = c.execSync('kubectl rollout status deploy/big --timeout=120s');
    expect(wait.stdout).toContain('deployment "big" successfully rolled out');
  }, 300_000);
});
