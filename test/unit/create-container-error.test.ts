/**
 * A container whose pod gives no `command` and whose image has no ENTRYPOINT or CMD (distroless):
 * containerd cannot build the OCI spec, the container is never created, and the pod shows
 * CreateContainerError. The wording is containerd's as users report it from the kubelet's events
 * (falcosecurity/falcosidekick#486 on rke2: `Error: failed to generate container "***" spec: failed
 * to generate spec: no command specified`).
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../src/engine/cluster/cluster.ts';

describe('no command specified', () => {
  it('a distroless pod without command is CreateContainerError, never created nor restarted', () => {
    const c = createCluster(undefined, { seed: 4 });
    const run = (line: string) => c.execSync(line);
    run('kubectl run d --image=gcr.io/distroless/static');
    run('sleep 40');
    expect(run('kubectl get pod d').stdout).toMatch(/^d +0\/1 +CreateContainerError +0 +\d+s\n$/m);
    const describe = run('kubectl describe pod d').stdout;
    expect(describe).toMatch(
      /Warning +Failed .*Error: failed to generate container "[0-9a-f]{64}" spec: failed to generate spec: no command specified\n/,
    );
    expect(describe).not.toMatch(/Container created|BackOff/);
  });

  it('the same image with a command starts', () => {
    const c = createCluster(undefined, { seed: 4 });
    c.execSync('kubectl run d --image=gcr.io/distroless/static --command -- /nosuch');
    c.execSync('sleep 20');
    expect(c.execSync('kubectl get pod d').stdout).not.toContain('CreateContainerError');
  });
});
