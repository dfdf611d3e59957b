/**
 * Workflows a learner later repeats on kind or k3s, run on a whole simulated cluster. Expected texts:
 * runc's LookPath errors (Go os/exec: a name with a slash is stat'ed, a bare name searched in $PATH,
 * quoted in the distroless issue tracker: `exec: "/bin/sh": stat /bin/sh: no such file or directory:
 * unknown`), kubectl's exec wrapper (pkg/cmd/exec via the CRI's Internal error), and the kubelet's
 * crash-loop back-off (10 s doubling, kuberuntime_manager doBackOff).
 */
import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../src/engine/index.ts';

const run = (c: Cluster, line: string, interactive = false) => c.execSync(line, { interactive });
const execError = (cmd: string, why: string) =>
  new RegExp(
    `^error: Internal error occurred: error executing command in container: failed to exec in container: failed to start exec "[0-9a-f]{64}": OCI runtime exec failed: exec failed: unable to start container process: exec: "${cmd.replace(/[/$]/g, '\\$&')}": ${why}: unknown\n$`,
  );

describe('a pod created and waited for in one line', () => {
  it('is scheduled, pulled and started during the sleep, not after it', () => {
    const c = createCluster(undefined, { seed: 3 });
    const out = run(c, 'kubectl run x --image=busybox -- sleep 3600; sleep 30; kubectl get po x').stdout;
    expect(out).toMatch(/^x\s+1\/1\s+Running\s+0\s+30s$/m);
  });
});

describe('images without a shell (distroless)', () => {
  const c = createCluster(undefined, { seed: 5 });
  run(c, 'kubectl run d --image=gcr.io/distroless/static-debian12 --command -- /pause');
  run(c, 'kubectl run b --image=busybox -- sleep 3600; sleep 20');

  it('refuses an interactive /bin/sh with the stat error runc gives a path', () => {
    // The container exits at once (no /pause in distroless), so ask a running busybox for bash.
    const r = run(c, 'kubectl exec -it b -- /bin/bash', true);
    expect(r.stderr).toMatch(execError('/bin/bash', 'stat /bin/bash: no such file or directory'));
    expect(r.exitCode).toBe(1);
  });

  it('answers exec into CoreDNS (a distroless image) as runc does, for a path and for a bare name', () => {
    const pod = run(c, 'kubectl -n kube-system get po -l k8s-app=kube-dns -o name | head -1').stdout.trim();
    const exec = (tail: string, interactive = false) =>
      run(c, `kubectl -n kube-system exec ${interactive ? '-it ' : ''}${pod} -- ${tail}`, interactive);
    expect(exec('/bin/sh', true).stderr).toMatch(
      execError('/bin/sh', 'stat /bin/sh: no such file or directory'),
    );
    expect(exec('sh', true).stderr).toMatch(execError('sh', 'executable file not found in \\$PATH'));
    // No shell means no coreutils either: echo is not a builtin outside a shell.
    expect(exec('echo hi').stderr).toMatch(execError('echo', 'executable file not found in \\$PATH'));
    expect(run(c, 'kubectl describe po d').stdout).toContain(
      'error during container init: exec: "/pause": stat /pause: no such file or directory: unknown',
    );
  });

  it('puts a StartError container into the crash-loop back-off', () => {
    const x = createCluster(undefined, { seed: 7 });
    run(x, 'kubectl run x --image=busybox:1.36 --command -- /nope; sleep 90');
    const line = run(x, 'kubectl get po x --no-headers').stdout;
    const restarts = Number(/\s(\d+) \(/.exec(line)?.[1]);
    // 1 s, 10 s, 20 s, 40 s of back-off: four or five restarts in 90 s, not one a second.
    expect(restarts).toBeGreaterThanOrEqual(3);
    expect(restarts).toBeLessThanOrEqual(5);
    expect(run(x, 'kubectl describe po x').stdout).toMatch(
      /Back-off restarting failed container x in pod x_default\(/,
    );
  });
});

describe('IPVS NodePorts (pkg/proxy/ipvs: every local address but loopback and kube-ipvs0)', () => {
  const kind = (cni: string) =>
    `kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnetworking:\n  kubeProxyMode: ipvs\npacketpath:\n  cni: ${cni}\n`;
  /** A command on the node itself, as `docker exec kind-worker …` runs it on kind. */
  const onNode = (c: Cluster, line: string) =>
    c.shell.execIn({ kind: 'node', node: 'kind-worker' }, ['sh', '-c', line]);

  it('refuses localhost:<nodePort> and answers on the node IP and the CNI devices', () => {
    const c = createCluster(kind('flannel'), { seed: 11 });
    run(
      c,
      'kubectl create deployment web --image=nginx; kubectl expose deploy web --port 80 --type NodePort',
    );
    run(c, 'sleep 30');
    const port = run(c, "kubectl get svc web -o jsonpath='{.spec.ports[0].nodePort}'").stdout;
    // kind nodes have no ipvsadm: a netshoot debug pod in the node's network namespace has it.
    const list = run(
      c,
      'kubectl debug node/kind-worker -q -it --image=nicolaka/netshoot -- ipvsadm -Ln',
    ).stdout;
    expect(list).not.toContain(`127.0.0.1:${port}`);
    // flannel's VTEP (flannel.1) and bridge (cni0) addresses on kind-worker, pod CIDR 10.244.1.0/24.
    expect(list).toContain(`TCP  10.244.1.0:${port} rr`);
    expect(list).toContain(`TCP  10.244.1.1:${port} rr`);
    const local = onNode(c, `curl -s -m 2 -o /dev/null -w '%{http_code}' 127.0.0.1:${port}`);
    expect(local?.exitCode).toBe(7);
    const ip = run(c, "kubectl get node kind-worker -o jsonpath='{.status.addresses[0].address}'").stdout;
    const nodeIP = onNode(c, `curl -s -m 2 -o /dev/null -w '%{http_code}' ${ip}:${port}`);
    expect(nodeIP?.stdout).toBe('200');
    const bridge = onNode(c, `curl -s -m 2 -o /dev/null -w '%{http_code}' 10.244.1.1:${port}`);
    expect(bridge?.stdout).toBe('200');
  });
});
