/**
 * A network tool as a pod's main process (`kubectl run t --image=busybox --restart=Never -- wget -qO-
 * http://web`), not attached: the tool runs once as the container starts, against the dataplane of
 * that moment; what it prints is the container's log and its exit status ends the container
 * (Completed / Error; CrashLoopBackOff under restartPolicy Always, the same log each run). Expected
 * texts are the real programs' own: BusyBox wget's `wget: bad address 'web'` (libbb xfunc
 * `bb_error_msg_and_die("bad address '%s'")`), nginx's default index.html title, BIND nslookup's
 * `Server:\t\t<ns>` / `Address:\t<ns>#53` header, `dig +short`'s bare address.
 */
import { describe, expect, it } from 'vitest';
import { createCluster, restoreCluster, type Cluster } from '../cluster/cluster.ts';
import type { Pod } from '../api/objects.ts';
import { runProgram } from './container-runtime.ts';
import type { Program } from './process-model.ts';

function sh(c: Cluster, line: string): string {
  const r = c.execSync(line);
  return r.stdout + r.stderr;
}

function withWeb(seed = 3): Cluster {
  const c = createCluster(undefined, { seed });
  for (const line of [
    'kubectl create deployment web --image=nginx:1.27',
    'kubectl expose deployment web --port=80',
    'kubectl wait --for=condition=Available deployment/web --timeout=120s',
  ])
    expect(c.execSync(line).exitCode).toBe(0);
  return c;
}

const podOf = (c: Cluster, name: string) => c.store.get('pods', 'default', name) as Pod;

describe('a network tool as the main process, not attached', () => {
  it('wget to a Service that does not exist: bad address in the log, exit 1, pod Error', () => {
    const c = createCluster(undefined, { seed: 3 });
    sh(c, 'kubectl run t --image=busybox:1.36 --restart=Never -- wget -qO- http://web');
    sh(c, 'sleep 20');
    expect(sh(c, 'kubectl logs t')).toBe("wget: bad address 'web'\n");
    expect(sh(c, 'kubectl get pod t --no-headers')).toMatch(/^t\s+0\/1\s+Error\s+0\s+\d+s\n$/);
    const term = podOf(c, 't').status?.containerStatuses?.[0]?.state?.terminated;
    expect(term?.exitCode).toBe(1);
    expect(term?.reason).toBe('Error');
  });

  it('wget to an existing Service: the page is the log, exit 0, pod Completed', () => {
    const c = withWeb();
    sh(c, 'kubectl run t --image=busybox:1.36 --restart=Never -- wget -qO- http://web');
    sh(c, 'sleep 20');
    const log = sh(c, 'kubectl logs t');
    expect(log).toContain('<title>Welcome to nginx!</title>');
    expect(log.endsWith('</html>\n')).toBe(true);
    expect(sh(c, 'kubectl get pod t --no-headers')).toMatch(/^t\s+0\/1\s+Completed\s+0\s/);
  });

  it('the log is what the tool printed when the container ran, not what it would print now', () => {
    const c = createCluster(undefined, { seed: 3 });
    sh(c, 'kubectl run t --image=busybox:1.36 --restart=Never -- wget -qO- http://web');
    sh(c, 'sleep 20');
    sh(c, 'kubectl create deployment web --image=nginx:1.27');
    sh(c, 'kubectl expose deployment web --port=80');
    sh(c, 'sleep 30');
    expect(sh(c, 'kubectl logs t')).toBe("wget: bad address 'web'\n");
  });

  it('curl under restartPolicy Always completes, restarts and backs off, the same log each run', () => {
    const c = withWeb();
    sh(c, 'kubectl run c --image=curlimages/curl -- curl -s http://web');
    sh(c, 'sleep 60');
    expect(sh(c, 'kubectl get pod c --no-headers')).toMatch(
      /^c\s+0\/1\s+(CrashLoopBackOff|Completed)\s+[1-9]\d* \(\d+s ago\)\s/,
    );
    const status = podOf(c, 'c').status?.containerStatuses?.[0];
    expect(status?.lastState?.terminated?.exitCode).toBe(0);
    expect(status?.lastState?.terminated?.reason).toBe('Completed');
    expect(sh(c, 'kubectl logs c')).toContain('<title>Welcome to nginx!</title>');
    expect(sh(c, 'kubectl logs c --previous')).toContain('<title>Welcome to nginx!</title>');
  });

  it('netshoot nslookup and dig print their answers and complete', () => {
    const c = withWeb();
    const ip = (c.store.get('services', 'default', 'web')?.spec as { clusterIP: string }).clusterIP;
    sh(c, 'kubectl run d --image=nicolaka/netshoot --restart=Never -- nslookup web');
    sh(
      c,
      'kubectl run e --image=nicolaka/netshoot --restart=Never -- dig +short web.default.svc.cluster.local',
    );
    sh(c, 'kubectl wait --for=jsonpath={.status.phase}=Succeeded pod/d pod/e --timeout=300s');
    expect(sh(c, 'kubectl logs d')).toContain(
      `Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\nName:\tweb.default.svc.cluster.local\nAddress: ${ip}\n`,
    );
    expect(sh(c, 'kubectl logs e')).toBe(`${ip}\n`);
  });

  it('a snapshot keeps what the tool printed (the node holds the container log)', () => {
    const c = createCluster(undefined, { seed: 3 });
    sh(c, 'kubectl run t --image=busybox:1.36 --restart=Never -- wget -qO- http://web');
    sh(c, 'sleep 20');
    const restored = restoreCluster(JSON.stringify(c.snapshot()));
    sh(restored, 'kubectl create deployment web --image=nginx:1.27');
    sh(restored, 'kubectl expose deployment web --port=80');
    expect(sh(restored, 'kubectl logs t')).toBe("wget: bad address 'web'\n");
  });
});

describe('an init container running a network tool', () => {
  it('succeeds when the Service answers, fails and retries while the name does not resolve', () => {
    const c = withWeb();
    const pod = (name: string, url: string) =>
      `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n  initContainers:\n  - name: check\n    image: busybox:1.36\n    command: ['sh', '-c', 'wget -qO- ${url}']\n  containers:\n  - name: app\n    image: busybox:1.36\n    command: ['sleep', '3600']\n`;
    c.files.write('ok.yaml', pod('ok', 'http://web'));
    c.files.write('bad.yaml', pod('bad', 'http://db'));
    sh(c, 'kubectl apply -f ok.yaml -f bad.yaml');
    sh(c, 'sleep 30');
    expect(sh(c, 'kubectl get pod ok --no-headers')).toMatch(/^ok\s+1\/1\s+Running\s+0\s/);
    expect(sh(c, 'kubectl logs ok -c check')).toContain('<title>Welcome to nginx!</title>');
    expect(sh(c, 'kubectl get pod bad --no-headers')).toMatch(
      /^bad\s+0\/1\s+Init:(CrashLoopBackOff|Error)\s+[1-9]/,
    );
    expect(sh(c, 'kubectl logs bad -c check')).toBe("wget: bad address 'db'\n");
  });
});

describe('a script looping over a network tool', () => {
  it('adds a page per round on the simulated clock, following the Service as it changes', () => {
    const c = withWeb();
    sh(c, `kubectl run l --image=busybox:1.36 -- sh -c 'while true; do wget -qO- http://web; sleep 1; done'`);
    const pages = () => sh(c, 'kubectl logs l').split('<title>Welcome to nginx!</title>').length - 1;
    sh(c, 'sleep 10');
    const first = pages();
    expect(first).toBeGreaterThanOrEqual(5);
    sh(c, 'sleep 5');
    expect(pages()).toBeGreaterThan(first);
    expect(sh(c, 'kubectl logs l --tail=1')).toBe('</html>\n');
    sh(c, 'kubectl delete service web');
    sh(c, 'sleep 5');
    expect(sh(c, 'kubectl logs l --tail=1')).toBe("wget: bad address 'web'\n");
  });
});

describe('kubectl run attached to a tool shows the container log', () => {
  it('a bad address: the log on stdout, terminated (Error), exit 1', () => {
    const c = createCluster(undefined, { seed: 3 });
    const r = c.execSync(
      'kubectl run x --rm -i --restart=Never --image=busybox:1.36 -- wget -qO- http://nope',
      {
        interactive: true,
      },
    );
    expect(r.stdout).toBe('wget: bad address \'nope\'\npod "x" deleted from default namespace\n');
    expect(r.stderr).toBe('pod default/x terminated (Error)\n');
    expect(r.exitCode).toBe(1);
  });
});

describe('runProgram with tool outcomes', () => {
  const program = (stdout: string): Program => ({
    process: 'sh',
    steps: [
      { op: 'tool', argv: ['wget', '-qO-', 'http://web'] },
      { op: 'log', text: '' },
      { op: 'status', code: 0 },
    ],
    handlesStopSignal: false,
    stopLogs: [],
    tools: () => ({ stdout, stderr: '', exitCode: 0, elapsedMs: 40 }),
  });

  it('output without a final newline continues on the next line written (wget -qO- x; echo)', () => {
    const run = runProgram(program('web-7d9c'), 1000, 5000);
    expect(run.logs).toEqual([{ time: 1040, text: 'web-7d9c' }]);
    expect(run.exit).toEqual({ at: 1040, code: 0 });
  });

  it('a tool still running at the cut-off has printed nothing yet', () => {
    expect(runProgram(program('x\n'), 1000, 1020).logs).toEqual([]);
  });
});
