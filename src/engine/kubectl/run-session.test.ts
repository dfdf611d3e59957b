/**
 * `kubectl run --rm -it … -- sh` opens a session in the new pod; when the session ends, run.go's
 * removeCreatedObjects deletes the pod and prints the deletion on stdout as `kubectl delete` does
 * (`pod "t" deleted from default namespace`, the v1.33+ wording), unless `-q/--quiet`. Before it,
 * attach.go's reattachMessage (kubectl v1.35) for a pod with restartPolicy Always:
 * `Session ended, resume using 'kubectl attach t -c t -i -t' command when the pod is running`.
 * Other sessions (`kubectl exec -it`) print nothing when they end.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../cluster/cluster.ts';

const resume = (pod: string) =>
  `Session ended, resume using 'kubectl attach ${pod} -c ${pod} -i -t' command when the pod is running\n`;

const it_ = { interactive: true };

describe('kubectl run --rm -it: the session ends, the pod is deleted', () => {
  it('prints the deletion after exit and the pod is gone', () => {
    const c = createCluster(undefined, { seed: 5 });
    const open = c.execSync('kubectl run t --rm -it --image=nicolaka/netshoot -- sh', it_);
    expect(open).toEqual({
      stdout: '',
      stderr:
        'All commands and output from this session will be recorded in container logs, including credentials and sensitive information passed through the command prompt.\n' +
        "If you don't see a command prompt, try pressing enter.\n",
      exitCode: 0,
    });
    expect(c.execSync('hostname', it_).stdout).toBe('t\n');
    const exit = c.execSync('exit', it_);
    expect(exit.stdout).toBe(`${resume('t')}pod "t" deleted from default namespace\n`);
    expect(exit.exitCode).toBe(0);
    // removeCreatedObjects deletes with the pod's own grace period and does not wait (run.go Complete
    // sets GracePeriod -1, WaitForDeletion false): the restarted shell ignores SIGTERM for 30 s.
    expect(c.execSync('kubectl get pod t', it_).stdout).toContain('Terminating');
    c.tick(30_000);
    expect(c.execSync('kubectl get pod t', it_).stderr).toBe(
      'Error from server (NotFound): pods "t" not found\n',
    );
  });

  it('in another namespace the line names it; -q prints neither the prompt hint nor the deletion', () => {
    const c = createCluster(undefined, { seed: 5 });
    expect(c.execSync('kubectl create namespace lab', it_).exitCode).toBe(0);
    c.execSync('kubectl run t -n lab --rm -it --image=busybox:1.36 -- sh', it_);
    expect(c.execSync('exit', it_).stdout).toBe(`${resume('t')}pod "t" deleted from lab namespace\n`);
    expect(c.execSync('kubectl run q --rm -it -q --image=busybox:1.36 -- sh', it_).stderr).toBe('');
    expect(c.execSync('exit', it_).stdout).toBe('');
    c.tick(30_000);
    expect(c.execSync('kubectl get pod q', it_).exitCode).toBe(1);
  });

  it('without --rm the pod stays and can be attached again; kubectl exec -it prints nothing', () => {
    const c = createCluster(undefined, { seed: 5 });
    c.execSync('kubectl run k -it --image=busybox:1.36 -- sh', it_);
    expect(c.execSync('exit', it_).stdout).toBe(resume('k'));
    expect(c.execSync('kubectl exec -it k -- sh', it_).exitCode).toBe(0);
    expect(c.execSync('exit', it_)).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(c.execSync('kubectl get pod k -o name', it_).stdout).toBe('pod/k\n');
  });

  it('restartPolicy Never or OnFailure: nothing to resume', () => {
    const c = createCluster(undefined, { seed: 5 });
    c.execSync('kubectl run n -it --restart=Never --image=busybox:1.36 -- sh', it_);
    expect(c.execSync('exit', it_).stdout).toBe('');
    c.execSync('kubectl run o --rm -it --restart=OnFailure --image=busybox:1.36 -- sh', it_);
    expect(c.execSync('exit', it_).stdout).toBe('pod "o" deleted from default namespace\n');
  });
});

/**
 * The attached shell is the container's PID 1 (audit #3, #16): leaving it ends the container. run.go
 * then waits for a Never/OnFailure pod to complete and returns its exit code as a CodeExitError worded
 * `pod NS/NAME terminated (REASON)`, after the deferred --rm deletion; an Always pod restarts.
 */
describe('kubectl run -it … -- sh: exit ends the container', () => {
  const status = (c: ReturnType<typeof createCluster>, pod: string) =>
    c.execSync(`kubectl get pod ${pod} --no-headers`, it_).stdout.split(/\s+/).slice(1, 4).join(' ');

  it('--restart=Never: exit 0 completes the pod, exit N fails it with run.go’s message and code N', () => {
    const c = createCluster(undefined, { seed: 5 });
    c.execSync('kubectl run n -it --restart=Never --image=busybox:1.36 -- sh', it_);
    expect(c.execSync('exit', it_)).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(status(c, 'n')).toBe('0/1 Completed 0');
    c.execSync('kubectl run e -it --restart=Never --image=busybox:1.36 -- sh', it_);
    expect(c.execSync('exit 2', it_)).toEqual({
      stdout: '',
      stderr: 'pod default/e terminated (Error)\n',
      exitCode: 2,
    });
    expect(status(c, 'e')).toBe('0/1 Error 0');
  });

  it('--rm --restart=Never then exit 3: the deletion, then the terminated error, status 3', () => {
    const c = createCluster(undefined, { seed: 5 });
    c.execSync('kubectl run -it --rm t2 --image=busybox --restart=Never -- sh', it_);
    expect(c.execSync('exit 3', it_)).toEqual({
      stdout: 'pod "t2" deleted from default namespace\n',
      stderr: 'pod default/t2 terminated (Error)\n',
      exitCode: 3,
    });
  });

  it('restartPolicy Always: the container restarts and runs again', () => {
    const c = createCluster(undefined, { seed: 5 });
    c.execSync('kubectl run k -it --image=busybox:1.36 -- sh', it_);
    c.execSync('exit', it_);
    c.tick(3000);
    expect(status(c, 'k')).toBe('1/1 Running 1');
  });
});
