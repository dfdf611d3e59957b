/**
 * DaemonSet RollingUpdate (issue #4's finding: `rollout restart ds/X` restarted every pod at once).
 * Spec: pkg/controller/daemon/update.go `rollingUpdate` (maxUnavailable default 1, maxSurge default 0;
 * a node's replacement is created only once its old pod is gone) and kubectl's DaemonSetStatusViewer
 * texts for `rollout status`.
 */
import { describe, expect, it } from 'vitest';
import { advance, makeCluster } from './test-helpers.ts';
import type { Cluster } from '../cluster/cluster.ts';
import type { Pod } from '../api/objects.ts';
import { isPodAvailable } from '../api/pod-status.ts';

function agent(rollingUpdate?: Record<string, unknown>, type = 'RollingUpdate'): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      updateStrategy: { type, ...(rollingUpdate ? { rollingUpdate } : {}) },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: {
          tolerations: [{ operator: 'Exists' }],
          containers: [
            {
              name: 'web',
              image: 'nginx',
              // Each new pod takes ~5 s to turn Ready, so a rollout visibly spans several steps.
              readinessProbe: { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 5, periodSeconds: 1 },
            },
          ],
        },
      },
    },
  };
}

const NODES = ['kind-control-plane', 'kind-worker', 'kind-worker2'];

interface Step {
  readonly available: number;
  readonly updated: number;
  readonly pods: number;
}

/** Steps the cluster in 500 ms increments until the rollout is done, recording each node's state. */
function rollOut(c: Cluster, startHash: string): Step[] {
  const steps: Step[] = [];
  for (let i = 0; i < 200; i++) {
    advance(c, 500);
    const pods = c.api.list('pods', 'default').filter((p) => p.metadata.name.startsWith('agent-'));
    const now = c.clock.now();
    const live = pods.filter((p) => !p.metadata.deletionTimestamp);
    const updated = live.filter((p) => p.metadata.labels?.['controller-revision-hash'] !== startHash);
    const availableNodes = new Set(
      live.filter((p: Pod) => isPodAvailable(p, 0, now)).map((p) => p.spec?.nodeName),
    );
    steps.push({ available: availableNodes.size, updated: updated.length, pods: pods.length });
    if (updated.length === NODES.length && updated.every((p) => isPodAvailable(p, 0, now))) break;
  }
  return steps;
}

function started(c: Cluster, ds: Record<string, unknown>): string {
  c.api.create(ds);
  advance(c, 20_000);
  const pods = c.api.list('pods', 'default').filter((p) => p.metadata.name.startsWith('agent-'));
  expect(pods.map((p) => p.spec?.nodeName).sort()).toEqual(NODES);
  return pods[0]!.metadata.labels!['controller-revision-hash']!;
}

describe('DaemonSet RollingUpdate', () => {
  it('replaces one node at a time by default (maxUnavailable 1, maxSurge 0)', () => {
    const c = makeCluster();
    const hash = started(c, agent());
    expect(c.execSync('kubectl rollout restart ds/agent').exitCode).toBe(0);
    const steps = rollOut(c, hash);
    expect(steps.at(-1)).toEqual({ available: 3, updated: 3, pods: 3 });
    // Never more than one node without an available pod, never more than one pod per node.
    expect(Math.min(...steps.map((s) => s.available))).toBe(2);
    expect(Math.max(...steps.map((s) => s.pods))).toBe(3);
    // The replacements come one after another: the count of updated pods climbs by at most one.
    const counts = [...new Set(steps.map((s) => s.updated))];
    expect(counts).toEqual([0, 1, 2, 3].filter((n) => counts.includes(n)));
    expect(steps.length).toBeGreaterThan(10);
  });

  it('prints the progress lines of `kubectl rollout status` while it rolls', () => {
    const c = makeCluster();
    started(c, agent());
    const out = c.execSync('kubectl rollout restart ds/agent && kubectl rollout status ds/agent').stdout;
    const lines = out.split('\n').filter(Boolean);
    expect(lines).toContain(
      'Waiting for daemon set "agent" rollout to finish: 1 out of 3 new pods have been updated...',
    );
    expect(lines).toContain(
      'Waiting for daemon set "agent" rollout to finish: 2 out of 3 new pods have been updated...',
    );
    expect(lines).toContain(
      'Waiting for daemon set "agent" rollout to finish: 2 of 3 updated pods are available...',
    );
    expect(lines.at(-1)).toBe('daemon set "agent" successfully rolled out');
  });

  it('takes two nodes at a time with maxUnavailable 2', () => {
    const c = makeCluster();
    const hash = started(c, agent({ maxUnavailable: 2, maxSurge: 0 }));
    c.execSync('kubectl rollout restart ds/agent');
    const steps = rollOut(c, hash);
    expect(Math.min(...steps.map((s) => s.available))).toBe(1);
    expect(steps.at(-1)).toEqual({ available: 3, updated: 3, pods: 3 });
  });

  it('starts the new pod beside the old one with maxSurge 1, maxUnavailable 0', () => {
    const c = makeCluster();
    const hash = started(c, agent({ maxUnavailable: 0, maxSurge: 1 }));
    c.execSync('kubectl rollout restart ds/agent');
    const steps = rollOut(c, hash);
    // Every node keeps an available pod throughout; one extra pod at a time.
    expect(Math.min(...steps.map((s) => s.available))).toBe(3);
    expect(Math.max(...steps.map((s) => s.pods))).toBe(4);
    expect(steps.at(-1)).toEqual({ available: 3, updated: 3, pods: 3 });
  });

  it('leaves the pods alone under OnDelete until they are deleted', () => {
    const c = makeCluster();
    const hash = started(c, agent(undefined, 'OnDelete'));
    c.execSync('kubectl rollout restart ds/agent');
    advance(c, 30_000);
    const pods = c.api.list('pods', 'default').filter((p) => p.metadata.name.startsWith('agent-'));
    expect(pods.map((p) => p.metadata.labels?.['controller-revision-hash'])).toEqual([hash, hash, hash]);
  });
});
