import { describe, it, expect } from 'vitest';
import { createCluster, type Cluster } from './cluster.ts';
import { parseClusterConfig } from '../api/cluster-config.ts';

function run(c: Cluster, line: string) {
  return c.execSync(line, { interactive: true });
}

function bootWithPods(): Cluster {
  const c = createCluster(undefined, { seed: 5 });
  run(c, 'kubectl create service clusterip early --tcp=80:8080');
  run(c, 'kubectl run bb --image=busybox -- sleep 3600');
  run(c, 'kubectl create deployment web --image=nginx');
  run(c, 'sleep 10');
  run(c, 'kubectl create service clusterip late --tcp=81:8080');
  return c;
}

describe('pod sessions through the command registry', () => {
  it('gives a busybox pod its ash prompt, its files and its tools only', () => {
    const c = bootWithPods();
    expect(run(c, 'kubectl exec -it bb -- sh').exitCode).toBe(0);
    expect(c.shell.prompt()).toBe('/ # ');
    expect(run(c, 'cat /etc/resolv.conf').stdout).toBe(
      'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n',
    );
    expect(run(c, 'hostname; whoami; cat /etc/hostname').stdout).toBe('bb\nroot\nbb\n');
    expect(run(c, 'kubectl get pods')).toEqual({
      stdout: '',
      stderr: 'sh: kubectl: not found\n',
      exitCode: 127,
    });
    expect(run(c, 'bash')).toEqual({ stdout: '', stderr: 'sh: bash: not found\n', exitCode: 127 });
    const env = run(c, 'env | sort').stdout;
    expect(env).toContain('KUBERNETES_SERVICE_HOST=10.96.0.1\n');
    expect(env).toContain('EARLY_SERVICE_PORT=80\n');
    expect(env).not.toContain('LATE_');
    expect(
      run(c, 'echo hi > /tmp/x; cat /tmp/x; ls -1 /var/run/secrets/kubernetes.io/serviceaccount').stdout,
    ).toBe('hi\nca.crt\nnamespace\ntoken\n');
    expect(run(c, 'exit').exitCode).toBe(0);
    expect(c.shell.context()).toEqual({ kind: 'host' });
  });

  it("runs kubectl exec commands with the container's files and tools", () => {
    const c = bootWithPods();
    expect(run(c, 'kubectl exec bb -- cat /etc/hosts').stdout).toMatch(
      /^# Kubernetes-managed hosts file\.\n127\.0\.0\.1\tlocalhost\n[\s\S]*\tbb\n$/,
    );
    expect(run(c, "kubectl exec bb -- sh -c 'hostname | wc -c'").stdout).toBe('3\n');
    const ps = run(c, 'kubectl exec bb -- ps');
    expect(ps.stdout.split('\n')[0]).toBe('PID   USER     TIME  COMMAND');
    expect(ps.stdout).toContain('    1 root      0:00 sleep 3600\n');
    // Debian-based nginx has no procps: the runtime's "executable file not found".
    expect(run(c, 'kubectl exec deploy/web -- ps').stderr).toMatch(
      /exec: "ps": executable file not found in \$PATH: unknown\n$/,
    );
  });

  it('shows Debian bash in an nginx pod', () => {
    const c = bootWithPods();
    run(c, 'kubectl exec -it deploy/web -- bash');
    expect(c.shell.prompt()).toMatch(/^root@web-[a-z0-9]+-[a-z0-9]{5}:\/# $/);
    expect(run(c, 'nope').stderr).toBe('bash: nope: command not found\n');
  });

  it('uses the node name and the node resolv.conf for a hostNetwork pod', () => {
    const c = createCluster(undefined, { seed: 2 });
    run(
      c,
      'cat <<EOF | kubectl apply -f -\napiVersion: v1\nkind: Pod\nmetadata:\n  name: hn\nspec:\n  hostNetwork: true\n  nodeName: kind-worker\n  containers:\n  - name: c\n    image: busybox\n    command: ["sleep", "3600"]\nEOF',
    );
    expect(run(c, 'kubectl exec hn -- hostname').stdout).toBe('kind-worker\n');
    expect(run(c, 'kubectl exec hn -- cat /etc/resolv.conf').stdout).toBe(
      'nameserver 172.18.0.1\noptions ndots:0\n',
    );
  });
});

describe('kubectl completion from the store', () => {
  it('completes verbs, resource types and object names', () => {
    const c = bootWithPods();
    expect(c.shell.completions('kubectl ge').candidates).toEqual(['get']);
    expect(c.shell.completions('kubectl get deploy').candidates).toEqual([
      'deploy',
      'deployment',
      'deployments',
    ]);
    expect(c.shell.completions('k get pods b').candidates).toEqual(['bb']);
    expect(c.shell.completions('kubectl get svc/').candidates).toEqual([
      'svc/early',
      'svc/kubernetes',
      'svc/late',
    ]);
    expect(c.shell.completions('kubectl -n kube-system get deploy core').candidates).toEqual(['coredns']);
    expect(c.shell.completions('kubectl get pods -n kube-').candidates).toEqual([
      'kube-node-lease',
      'kube-public',
      'kube-system',
    ]);
    expect(c.shell.completions('kubectl get pods -o ya').candidates).toEqual(['yaml']);
  });
});

// Golden lines: a real kubeadm kube-proxy v1.33.1 start-up log (version changed to the image's
// v1.35.0, timestamps to the pod's start), the v1.35 IPVS deprecation (kubernetes/kubernetes#134539),
// and a real CoreDNS 1.13.1 banner (`linux/amd64, go1.25.2, 1db4568`).
describe('system component logs', () => {
  const logsOf = (c: Cluster, prefix: string) => {
    const pods = run(c, 'kubectl -n kube-system get pods -o name').stdout.trim().split('\n');
    const pod = pods.find((p) => p.startsWith(`pod/${prefix}`))!;
    return run(c, `kubectl -n kube-system logs ${pod}`);
  };
  const klog = /^[IWE]\d{4} \d\d:\d\d:\d\d\.\d{6} {7}1 [a-z_]+\.go:\d+\] /;

  it('kube-proxy prints its klog start-up lines for its node in iptables mode', () => {
    const c = createCluster(undefined, { seed: 5 });
    const r = logsOf(c, 'kube-proxy');
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    for (const l of lines) expect(l).toMatch(klog);
    const bodies = lines.map((l) => l.replace(/^.*?\] /, ''));
    expect(bodies).toContain('"kube-proxy running in dual-stack mode" primary ipFamily="IPv4"');
    expect(bodies).toContain('"Using iptables Proxier"');
    expect(bodies).toContain('"Version info" version="v1.35.0"');
    expect(bodies.at(-1)).toBe('"Caches are synced" controller="node config"');
    expect(r.stdout).toMatch(
      /server\.go:\d+\] "Successfully retrieved node IP\(s\)" IPs=\["172\.18\.0\.\d+"\]/,
    );
    expect(r.stdout).not.toContain('ipvs');
    // --timestamps gives each line the time it was written: the klog header's time, to the ms.
    const pods = run(c, 'kubectl -n kube-system get pods -o name').stdout.trim().split('\n');
    const pod = pods.find((p) => p.startsWith('pod/kube-proxy'))!;
    const stamped = run(c, `kubectl -n kube-system logs ${pod} --timestamps --tail=2`)
      .stdout.trimEnd()
      .split('\n');
    for (const l of stamped) {
      const m = /^\d{4}-(\d\d)-(\d\d)T(\d\d:\d\d:\d\d\.\d{3})\d{6}Z [IWE](\d\d)(\d\d) ([\d:.]{12})000 /.exec(
        l,
      );
      expect(m).not.toBeNull();
      expect([m![4], m![5], m![6]]).toEqual([m![1], m![2], m![3]]);
    }
  });

  it('a restart into ipvs mode logs the IPVS deprecation error in the new pod', () => {
    const c = createCluster(undefined, { seed: 6 });
    const cm = run(c, 'kubectl -n kube-system get configmap kube-proxy -o yaml').stdout;
    c.files.write('kp.yaml', cm.replace(/mode: "?[a-z]*"?/, 'mode: "ipvs"'));
    expect(run(c, 'kubectl apply -f kp.yaml').exitCode).toBe(0);
    run(c, 'kubectl -n kube-system rollout restart daemonset kube-proxy');
    c.tick(60_000);
    const out = logsOf(c, 'kube-proxy').stdout;
    expect(out).toMatch(/\nI\d{4} [\d:.]+ {7}1 server_linux\.go:194\] "Using ipvs Proxier"\n/);
    expect(out).toMatch(
      /\nE\d{4} [\d:.]+ {7}1 server_linux\.go:196\] "The ipvs proxier is now deprecated and may be removed in a future release\. Please use 'nftables' instead\."\n/,
    );
    expect(out).toContain('"IPVS scheduler not specified, use rr by default" ipFamily="IPv4"');
    expect(out).not.toContain('route_localnet');
  });

  it('each kube-proxy pod logs its own start-up: an old one keeps it after a successor starts', () => {
    const c = createCluster(undefined, { seed: 6 });
    const old = c.store
      .list('pods', 'kube-system')
      .find((p) => p.metadata.labels?.['k8s-app'] === 'kube-proxy')!;
    const logs = (name: string) => run(c, `kubectl -n kube-system logs pod/${name}`).stdout;
    const before = logs(old.metadata.name);
    expect(before).toContain('"Using iptables Proxier"');
    // A successor starts on the same node in ipvs mode while the old pod is still there (as while
    // it terminates): the node's kube-proxy is now the new process.
    const cm = run(c, 'kubectl -n kube-system get configmap kube-proxy -o yaml').stdout;
    c.files.write('kp.yaml', cm.replace(/mode: "?[a-z]*"?/, 'mode: "ipvs"'));
    expect(run(c, 'kubectl apply -f kp.yaml').exitCode).toBe(0);
    c.api.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'kube-proxy-0next', namespace: 'kube-system', labels: { 'k8s-app': 'kube-proxy' } },
      spec: old.spec,
    } as never);
    c.tick(60_000);
    expect(c.kubeProxy.nodeMode(old.spec!.nodeName!)).toBe('ipvs');
    expect(logs('kube-proxy-0next')).toContain('"Using ipvs Proxier"');
    expect(logs(old.metadata.name)).toBe(before);
  });

  it('on k3s CoreDNS first warns about the optional coredns-custom import globs caddy found empty', () => {
    const c = createCluster(
      parseClusterConfig(
        'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\npacketpath:\n  distribution: k3s\n',
      ),
      { seed: 5 },
    );
    const lines = logsOf(c, 'coredns').stdout.split('\n');
    expect(lines.slice(0, 4)).toEqual([
      'maxprocs: Leaving GOMAXPROCS=8: CPU quota undefined',
      '[WARNING] No files matching import glob pattern: /etc/coredns/custom/*.override',
      '[WARNING] No files matching import glob pattern: /etc/coredns/custom/*.server',
      '.:53',
    ]);
    expect(lines.slice(-3)).toEqual(['CoreDNS-1.13.1', 'linux/amd64, go1.25.2, 1db4568', '']);
  });

  it('CoreDNS prints its banner with the reload plugin’s SHA512 of the Corefile it read', () => {
    const c = createCluster(undefined, { seed: 5 });
    // kubeadm's default Corefile, as real CoreDNS 1.12/1.13 pods log it (hash of its server blocks).
    const sha =
      '1b226df79860026c6a52e67daa10d7f0d57ec5b023288ec00c5e05f93523c894564e15b91770d3a07ae1cfbe861d15b37d4a0027e69c546ab112970993a3b03b';
    expect(logsOf(c, 'coredns').stdout).toBe(
      `maxprocs: Leaving GOMAXPROCS=8: CPU quota undefined\n.:53\n[INFO] plugin/reload: Running configuration SHA512 = ${sha}\nCoreDNS-1.13.1\nlinux/amd64, go1.25.2, 1db4568\n`,
    );
  });
});
