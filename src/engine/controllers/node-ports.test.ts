/**
 * Host ports on one node (issue #4's finding: two pods wanting the same host port both started).
 * Goldens from upstream text: the NodePorts filter's `nodeports.ErrReason`, NodeAffinity's PreFilter
 * result for DaemonSet pods (`node(s) didn't satisfy plugin(s) [NodeAffinity]` for the nodes left out,
 * UnschedulableAndUnresolvable), FitError.Error's sorted histogram and DefaultPreemption's suffix; and
 * the kubelet's admission (`predicateAdmitHandler.Admit`, `rejectPod`) for pods bound by hand.
 */
import { describe, expect, it } from 'vitest';
import { advance, eventsFor, getPod, makeCluster, pod } from './test-helpers.ts';
import type { Cluster } from '../cluster/cluster.ts';

const web = (ports: Record<string, unknown>[]) => [{ name: 'web', image: 'nginx', ports }];

function daemonSet(name: string): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { hostNetwork: true, containers: web([{ containerPort: 80 }]) },
      },
    },
  };
}

function podsOf(c: Cluster, prefix: string) {
  return c.api.list('pods', 'default').filter((p) => p.metadata.name.startsWith(prefix));
}

describe('NodePorts: one host port per node', () => {
  it('keeps the second hostNetwork DaemonSet Pending with the scheduler FitError', () => {
    const c = makeCluster();
    c.api.create(daemonSet('one'));
    advance(c, 10_000);
    c.api.create(daemonSet('two'));
    advance(c, 10_000);
    expect(podsOf(c, 'one-').map((p) => p.status?.phase)).toEqual(['Running', 'Running']);
    const pending = podsOf(c, 'two-');
    expect(pending).toHaveLength(2);
    for (const p of pending) {
      expect(p.status?.phase).toBe('Pending');
      expect(p.spec?.nodeName).toBeUndefined();
      const failed = eventsFor(c, p).filter((e) => e.reason === 'FailedScheduling');
      expect(failed.map((e) => e.message)).toEqual([
        "0/3 nodes are available: 1 node(s) didn't have free ports for the requested pod ports, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.",
      ]);
      const cond = p.status?.conditions?.find((x) => x.type === 'PodScheduled');
      expect(cond).toMatchObject({ status: 'False', reason: 'Unschedulable' });
    }
  });

  it('keeps a second pod with the same hostPort Pending when no other node fits', () => {
    const c = makeCluster();
    const pinned = (name: string) =>
      pod(name, web([{ containerPort: 80, hostPort: 8080 }]), (p) => {
        p.spec.nodeSelector = { 'kubernetes.io/hostname': 'kind-worker' };
      });
    c.api.create(pinned('first'));
    advance(c, 10_000);
    c.api.create(pinned('second'));
    advance(c, 10_000);
    expect(getPod(c, 'first').status?.phase).toBe('Running');
    const second = getPod(c, 'second');
    expect(second.status?.phase).toBe('Pending');
    expect(eventsFor(c, second).find((e) => e.reason === 'FailedScheduling')?.message).toBe(
      "0/3 nodes are available: 1 node(s) didn't have free ports for the requested pod ports, 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint(s). preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.",
    );
    // Another host IP or protocol is another port.
    c.api.create(
      pod('udp', web([{ containerPort: 80, hostPort: 8080, protocol: 'UDP' }]), (p) => {
        p.spec.nodeSelector = { 'kubernetes.io/hostname': 'kind-worker' };
      }),
    );
    advance(c, 10_000);
    expect(getPod(c, 'udp').status?.phase).toBe('Running');
  });

  it('has the kubelet reject a pod bound by hand whose host port is taken', () => {
    const c = makeCluster();
    const bound = (name: string) =>
      pod(name, web([{ containerPort: 80 }]), (p) => {
        p.spec.nodeName = 'kind-worker2';
        p.spec.hostNetwork = true;
      });
    c.api.create(bound('older'));
    advance(c, 1000);
    c.api.create(bound('newer'));
    advance(c, 10_000);
    expect(getPod(c, 'older').status?.phase).toBe('Running');
    const rejected = getPod(c, 'newer');
    expect(rejected.status).toMatchObject({
      phase: 'Failed',
      reason: 'NodePorts',
      message:
        "Pod was rejected: Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports",
    });
    expect(rejected.status?.containerStatuses).toBeUndefined();
    expect(eventsFor(c, rejected)).toEqual([
      {
        reason: 'NodePorts',
        type: 'Warning',
        count: 1,
        message: "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports",
      },
    ]);
    const out = c.execSync('kubectl get pod newer').stdout;
    expect(out).toMatch(/^newer\s+0\/1\s+NodePorts\s+0\s+/m);
  });
});
