// A restored snapshot runs the kube-proxy the cluster was running: the mode a node's process started
// with, not a ConfigMap edited since without a restart (graders and output checks run on restored copies,
// so a copy that restarted kube-proxy would grade a world the learner never had).
import { describe, expect, it } from 'vitest';
import { createCluster, restoreCluster } from '../../cluster/cluster.ts';

const TO_NFTABLES = `kubectl -n kube-system get configmap kube-proxy -o yaml | sed 's/mode: "iptables"/mode: "nftables"/' | kubectl apply -f -`;

describe('kube-proxy across a snapshot', () => {
  it('keeps the running mode until the pods restart, in the copy as in the original', () => {
    const cluster = createCluster(undefined, { seed: 1 });
    expect(cluster.execSync(TO_NFTABLES).exitCode).toBe(0);
    expect(cluster.kubeProxy.nodeMode('kind-worker')).toBe('iptables');
    const copy = restoreCluster(cluster.snapshot());
    copy.kubeProxy.sync();
    expect(copy.kubeProxy.nodeMode('kind-worker')).toBe('iptables');
    copy.execSync('kubectl -n kube-system rollout restart daemonset/kube-proxy');
    copy.execSync('kubectl -n kube-system rollout status daemonset/kube-proxy --timeout=60s');
    expect(copy.kubeProxy.nodeMode('kind-worker')).toBe('nftables');
  });
});
