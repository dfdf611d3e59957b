/**
 * Finalizers on ordinary objects, as the generic registry Store handles them (apiserver
 * pkg/registry/generic/registry/store.go: Delete → updateForGracefulDeletionAndFinalizers,
 * Update → ShouldDeleteDuringUpdate; rest.BeforeUpdate keeps the deletionTimestamp). A pod keeps its
 * graceful deletion: the kubelet stops the containers, reports them terminated with a terminal phase
 * (status manager), then asks for the deletion with grace 0 (canBeDeleted); the object stays until the
 * last finalizer is removed. kubectl get shows the terminal phase's reason, not Terminating, once the
 * phase is terminal (printers.go printPod: `!podutil.IsPodPhaseTerminal`).
 */
import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../cluster/cluster.ts';

function run(c: Cluster, line: string) {
  const r = c.execSync(line, { interactive: false });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
}

const ok = (stdout: string) => ({ stdout, stderr: '', exitCode: 0 });
const HOLD = `-p '{"metadata":{"finalizers":["example.com/hold"]}}'`;
const RELEASE = `--type=json -p '[{"op":"remove","path":"/metadata/finalizers"}]'`;
const notFound = (what: string) => ({
  stdout: '',
  stderr: `Error from server (NotFound): ${what} not found\n`,
  exitCode: 1,
});

describe('a pod with a finalizer', () => {
  function heldPod(image: string, command = ''): Cluster {
    const c = createCluster(undefined, { seed: 1 });
    run(c, `kubectl run p --image=${image}${command}`);
    run(c, `kubectl patch pod p ${HOLD}`);
    run(c, 'sleep 20');
    return c;
  }
  const jp = (c: Cluster, path: string) => run(c, `kubectl get pod p -o jsonpath='${path}'`).stdout;

  it('is Terminating while its containers stop, then stays terminal until the finalizer goes', () => {
    const c = heldPod('busybox', ' -- sleep 3600');
    expect(run(c, 'kubectl delete pod p --wait=false')).toEqual(
      ok('pod "p" deleted from default namespace\n'),
    );
    // sleep ignores SIGTERM: the kubelet waits out the 30 s grace period, then SIGKILL.
    run(c, 'sleep 10');
    expect(run(c, 'kubectl get pod p --no-headers').stdout).toMatch(/^p\s+1\/1\s+Terminating\s+0\s/);
    run(c, 'sleep 25');
    expect(
      jp(
        c,
        '{.status.phase} {.metadata.deletionGracePeriodSeconds} {.status.containerStatuses[0].state.terminated.exitCode}',
      ),
    ).toBe('Failed 0 137');
    expect(run(c, 'kubectl get pod p --no-headers').stdout).toMatch(/^p\s+0\/1\s+Error\s+0\s/);
    run(c, 'sleep 60');
    expect(jp(c, '{.metadata.finalizers}')).toBe('["example.com/hold"]');
    expect(run(c, `kubectl patch pod p ${RELEASE}`)).toEqual(ok('pod/p patched\n'));
    expect(run(c, 'kubectl get pod p')).toEqual(notFound('pods "p"'));
  });

  it('nginx quits cleanly on its stop signal: Succeeded, Completed, Ready false', () => {
    const c = heldPod('nginx');
    run(c, 'kubectl delete pod p --wait=false');
    run(c, 'sleep 5');
    expect(jp(c, '{.status.phase} {.status.containerStatuses[0].state.terminated.reason}')).toBe(
      'Succeeded Completed',
    );
    expect(jp(c, '{.status.conditions[?(@.type=="Ready")].status}')).toBe('False');
    // Only one Killing event: the kubelet does not stop the containers again.
    run(c, 'sleep 30');
    expect(
      run(c, 'kubectl get events --field-selector reason=Killing -o name').stdout.trim().split('\n'),
    ).toHaveLength(1);
  });

  it('kubectl delete waits for it and times out, as the object is still there', () => {
    const c = heldPod('nginx');
    expect(run(c, 'kubectl delete pod p --timeout=20s')).toEqual({
      stdout: 'pod "p" deleted from default namespace\n',
      stderr: 'error: timed out waiting for the condition on pods/p\n',
      exitCode: 1,
    });
  });

  it('a finalizer removed before the kubelet is done: the pod goes when it is', () => {
    const c = heldPod('busybox', ' -- sleep 3600');
    run(c, 'kubectl delete pod p --wait=false');
    run(c, `kubectl patch pod p ${RELEASE}`);
    expect(run(c, 'kubectl get pod p --no-headers').stdout).toMatch(/Terminating/);
    run(c, 'sleep 35');
    expect(run(c, 'kubectl get pod p')).toEqual(notFound('pods "p"'));
  });
});

describe('other kinds with a finalizer', () => {
  it('a ConfigMap gets its deletionTimestamp and goes with the last finalizer', () => {
    const c = createCluster(undefined, { seed: 1 });
    run(c, 'kubectl create configmap x --from-literal=a=b');
    run(c, `kubectl patch configmap x ${HOLD}`);
    expect(run(c, 'kubectl delete configmap x --wait=false')).toEqual(
      ok('configmap "x" deleted from default namespace\n'),
    );
    expect(run(c, `kubectl get configmap x -o jsonpath='{.metadata.deletionGracePeriodSeconds}'`)).toEqual(
      ok('0'),
    );
    // An update cannot take the deletionTimestamp away.
    run(c, `kubectl label configmap x a=b`);
    expect(run(c, `kubectl get configmap x -o jsonpath='{.metadata.deletionTimestamp}'`).stdout).not.toBe('');
    expect(run(c, `kubectl patch configmap x ${RELEASE}`)).toEqual(ok('configmap/x patched\n'));
    expect(run(c, 'kubectl get configmap x')).toEqual(notFound('configmaps "x"'));
  });
});
