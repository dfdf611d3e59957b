import { describe, expect, it } from 'vitest';
import { createCluster } from '../../cluster/cluster.ts';

// A node's rules are written by the kube-proxy process running there. Without it the kernel keeps the
// last rules: existing Services still translate, new ones get nothing (kubernetes.io "Virtual IPs and
// Service Proxies": kube-proxy watches and programs; nothing else writes these chains).
describe('kube-proxy liveness on kubeadm', () => {
  it('a node without a running kube-proxy keeps stale rules and gets none for new Services', () => {
    const c = createCluster(undefined, { seed: 5 });
    c.execSync('kubectl create deployment old --image=nginx && kubectl expose deployment old --port=80');
    c.tick(10_000);
    expect(c.kubeProxy.iptablesSave('kind-worker', 'nat')).toContain('"default/old cluster IP"');

    expect(c.execSync('kubectl -n kube-system delete daemonset kube-proxy').exitCode).toBe(0);
    c.tick(60_000);
    c.execSync('kubectl create deployment fresh --image=nginx && kubectl expose deployment fresh --port=80');
    c.tick(10_000);
    const rules = c.kubeProxy.iptablesSave('kind-worker', 'nat');
    expect(rules).toContain('"default/old cluster IP"');
    expect(rules).not.toContain('default/fresh');
  });

  it('a restart into an invalid mode exits and leaves the previous rules in place', () => {
    const c = createCluster(undefined, { seed: 6 });
    const cm = c.execSync('kubectl -n kube-system get configmap kube-proxy -o yaml').stdout;
    c.files.write('kp.yaml', cm.replace(/mode: "?[a-z]*"?/, 'mode: "iptabels"'));
    expect(c.execSync('kubectl apply -f kp.yaml').exitCode).toBe(0);
    c.execSync('kubectl -n kube-system rollout restart daemonset kube-proxy');
    c.tick(60_000);
    c.execSync('kubectl create deployment late --image=nginx && kubectl expose deployment late --port=80');
    c.tick(10_000);
    expect(c.kubeProxy.iptablesSave('kind-worker', 'nat')).not.toContain('default/late');
    expect(c.kubeProxy.iptablesSave('kind-worker', 'nat')).toContain('"default/kubernetes:https cluster IP"');
  });
});
