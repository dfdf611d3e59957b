/**
 * `kubectl scale --timeout` (pkg/scale WaitForScaleHasDesiredReplicas: poll until status.replicas is
 * the new count, `timed out waiting for "web" to be synced`), the `--current-replicas` precondition
 * (PreconditionError) and Validate's checks, `-o`. Texts from kubectl v1.33 (the `--current-replicas`
 * range error checked against the binary).
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../cluster/cluster.ts';
import { makeKubectl } from '../test-helpers.ts';

function withDeployment() {
  const k = makeKubectl();
  k.run('create deployment web --image=nginx --replicas=2');
  return k;
}

describe('kubectl scale', () => {
  it('--timeout waits until the controllers report the new count', () => {
    const c = createCluster(undefined, { seed: 1 });
    c.execSync('kubectl create deployment web --image=nginx --replicas=2');
    for (let i = 0; i < 30; i++) c.tick(1000);
    expect(c.execSync('kubectl scale deploy web --replicas=4 --timeout=2m')).toMatchObject({
      stdout: 'deployment.apps/web scaled\n',
      exitCode: 0,
    });
    // Returned only once the ReplicaSet had made the pods: status.replicas is already 4.
    expect(c.execSync('kubectl get deploy web -o jsonpath={.status.replicas}').stdout).toBe('4');
  });

  it('--timeout without anyone to sync the status times out', () => {
    const k = withDeployment();
    const before = k.host.clock.now();
    expect(k.run('scale deploy web --replicas=3 --timeout=5s')).toMatchObject({
      stdout: '',
      stderr: 'error: timed out waiting for "web" to be synced\n',
      exitCode: 1,
    });
    expect(k.host.clock.now() - before).toBe(5000);
    // The scale itself was made.
    expect(k.host.api.get('deployments.apps', 'default', 'web')?.spec?.replicas).toBe(3);
  });

  it('--current-replicas is a precondition on the current count', () => {
    const k = withDeployment();
    expect(k.run('scale deploy web --replicas=5 --current-replicas=3')).toMatchObject({
      stderr: 'error: Expected replicas to be 3, was 2\n',
      exitCode: 1,
    });
    expect(k.run('scale deploy web --replicas=5 --current-replicas=2').stdout).toBe(
      'deployment.apps/web scaled\n',
    );
    expect(k.run('scale deploy web --replicas=5 --current-replicas=-2').stderr).toBe(
      'error: The --current-replicas must specify an integer of -1 or greater\n',
    );
  });

  it('--resource-version needs a single object; -o prints the scaled object', () => {
    const k = withDeployment();
    k.run('create deployment api --image=nginx');
    expect(k.run('scale deploy web api --replicas=1 --resource-version=1').stderr).toBe(
      'error: cannot use --resource-version with multiple resources\n',
    );
    expect(k.run('scale deploy web --replicas=7 -o jsonpath={.spec.replicas}').stdout).toBe('7');
    expect(k.run('scale deploy web --replicas=8 -o name').stdout).toBe('deployment.apps/web\n');
    expect(k.run('scale deploy web --replicas=9 --dry-run=client -o jsonpath={.spec.replicas}').stdout).toBe(
      '9',
    );
  });
});
