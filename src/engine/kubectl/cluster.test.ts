/**
 * kubectl inside a whole simulated cluster (controllers, kubelet, shell): the flows a lab walks
 * through. Expected lines are kubectl's fixed texts (status viewer, delete and run messages, table
 * headers), not captures of this engine.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../cluster/cluster.ts';

describe('kubectl in a simulated kind cluster', () => {
  it('lists the three kind nodes, Ready, with the control-plane role', async () => {
    const c = createCluster(undefined, { seed: 1 });
    const r = await c.exec('kubectl get nodes');
    expect(r.stderr).toBe('');
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 3).join(' '))).toEqual([
      'kind-control-plane Ready control-plane',
      'kind-worker Ready <none>',
      'kind-worker2 Ready <none>',
    ]);
    expect(lines.every((l, i) => i === 0 || l.endsWith('v1.35.0'))).toBe(true);
  });

  it('creates a deployment, follows its rollout, exposes it, and the Service gets its endpoints', async () => {
    const c = createCluster(undefined, { seed: 2 });
    expect((await c.exec('kubectl create deployment web --image=nginx --replicas=3 --port=80')).stdout).toBe(
      'deployment.apps/web created\n',
    );
    const status = await c.exec('kubectl rollout status deployment/web');
    expect(status.exitCode).toBe(0);
    expect(status.stdout.endsWith('deployment "web" successfully rolled out\n')).toBe(true);
    expect((await c.exec('kubectl expose deployment web --port=80')).stdout).toBe('service/web exposed\n');
    const describe = await c.exec('kubectl describe svc web');
    const endpoints = /^Endpoints:\s+(.*)$/m.exec(describe.stdout)?.[1] ?? '';
    expect(endpoints.split(',')).toHaveLength(3);
    const pods = (await c.exec('kubectl get pods -l app=web -o name')).stdout.trim().split('\n');
    expect(pods).toHaveLength(3);
    expect(pods.every((p) => /^pod\/web-[a-z0-9]+-[b-z2-9]{5}$/.test(p))).toBe(true);
  });

  it('run -i --rm prints the container output and the deletion', async () => {
    const c = createCluster(undefined, { seed: 3 });
    const r = await c.exec('kubectl run t --image=busybox -i --rm --restart=Never -- echo hi');
    expect(r).toMatchObject({ stdout: 'hi\npod "t" deleted from default namespace\n', exitCode: 0 });
  });

  it('deleting a pod waits for the kubelet to finish it', async () => {
    const c = createCluster(undefined, { seed: 4 });
    await c.exec('kubectl run web --image=nginx');
    await c.exec('kubectl wait --for=condition=Ready pod/web --timeout=60s');
    expect((await c.exec('kubectl delete pod web')).stdout).toBe(
      'pod "web" deleted from default namespace\n',
    );
    expect((await c.exec('kubectl get pod web')).stderr).toBe(
      'Error from server (NotFound): pods "web" not found\n',
    );
  });
});
