/**
 * `kubectl attach` (kubectl v1.35 pkg/cmd/attach/attach.go): argument checks (Validate), the completed
 * pod error, the container's TTY deciding the client's, the recording banner on stderr unless -q, a
 * shell session for -it on a shell container with the reattach line after it, and otherwise the
 * container's output.
 */
import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../cluster/cluster.ts';
import { ATTACH_BANNER } from './run.ts';

function run(c: Cluster, line: string, interactive = false) {
  return c.execSync(line, { interactive });
}

describe('kubectl attach', () => {
  it('argument errors, NotFound and a completed pod', () => {
    const c = createCluster(undefined, { seed: 1 });
    expect(run(c, 'kubectl attach')).toMatchObject({
      stderr: 'error: at least 1 argument is required for attach\n',
      exitCode: 1,
    });
    expect(run(c, 'kubectl attach a b c')).toMatchObject({
      stderr: 'error: expected POD, TYPE/NAME, or TYPE NAME, (at most 2 arguments) saw 3: [a b c]\n',
      exitCode: 1,
    });
    expect(run(c, 'kubectl attach nope')).toMatchObject({
      stderr: 'Error from server (NotFound): pods "nope" not found\n',
      exitCode: 1,
    });
    run(c, 'kubectl run done --image=busybox --restart=Never -- true');
    expect(run(c, 'kubectl attach done')).toMatchObject({
      stdout: '',
      stderr: 'error: cannot attach a container in a completed pod; current phase is Succeeded\n',
      exitCode: 1,
    });
  });

  it('without -i: the banner, then what the container wrote; -q drops the banner', () => {
    const c = createCluster(undefined, { seed: 1 });
    run(c, 'kubectl run web --image=nginx');
    run(c, 'kubectl wait --for=condition=Ready pod/web');
    const logs = run(c, 'kubectl logs web').stdout;
    expect(logs).toContain('Configuration complete; ready for start up');
    expect(run(c, 'kubectl attach web')).toMatchObject({ stdout: logs, stderr: ATTACH_BANNER, exitCode: 0 });
    expect(run(c, 'kubectl attach pod web -q')).toMatchObject({ stdout: logs, stderr: '', exitCode: 0 });
    expect(run(c, 'kubectl attach web -c nope')).toMatchObject({
      stderr: 'error: cannot attach to the container: container nope not found in pod web\n',
      exitCode: 1,
    });
  });

  it('-t on a container without a TTY: the warning, then attach goes on without one', () => {
    const c = createCluster(undefined, { seed: 1 });
    run(c, 'kubectl run web --image=nginx');
    run(c, 'kubectl wait --for=condition=Ready pod/web');
    expect(run(c, 'kubectl attach web -it', true).stderr).toBe(
      `error: Unable to use a TTY - container web did not allocate one\n${ATTACH_BANNER}`,
    );
  });

  it('-it on a shell container opens its session; leaving prints how to resume', () => {
    const c = createCluster(undefined, { seed: 1 });
    run(c, 'kubectl run bb --image=busybox --stdin --tty --attach=false');
    run(c, 'kubectl wait --for=condition=Ready pod/bb');
    expect(run(c, 'kubectl attach bb -it', true)).toMatchObject({ stderr: ATTACH_BANNER, exitCode: 0 });
    expect(run(c, 'hostname', true).stdout).toBe('bb\n');
    expect(run(c, 'exit', true).stdout).toBe(
      "Session ended, resume using 'kubectl attach bb -c bb -i -t' command when the pod is running\n",
    );
  });
});
