// Two hostNetwork pods on one node share the node's ports. The scheduler only sees declared ports, so a
// second process that binds a port the first holds gets scheduled, fails with the bind error (in its
// log) and crash-loops, while the first keeps serving — what a real node does.
import { describe, expect, it } from 'vitest';
import { createCluster } from '../cluster/cluster.ts';

const pod = (name: string, image: string, args: string, port: number): string => `apiVersion: v1
kind: Pod
metadata: { name: ${name} }
spec:
  hostNetwork: true
  nodeName: kind-worker
  containers:
    - name: main
      image: ${image}
      args: ${args}
      ports: [{ containerPort: ${port} }]
`;

describe('a host port clash between hostNetwork pods', () => {
  it('crash-loops the second binder with the bind error, and the first keeps the port', () => {
    const cluster = createCluster(undefined, { seed: 3 });
    cluster.files.write(
      'first.yaml',
      pod('first', 'registry.k8s.io/e2e-test-images/agnhost:2.53', '["netexec", "--http-port=9100"]', 9100),
    );
    cluster.files.write(
      'second.yaml',
      pod('second', 'hashicorp/http-echo:1.0.0', '["-listen=:9100", "-text=second"]', 9200),
    );
    cluster.execSync('kubectl apply -f first.yaml');
    cluster.execSync('kubectl wait --for=condition=Ready pod/first --timeout=60s');
    cluster.execSync('kubectl apply -f second.yaml');
    cluster.execSync('sleep 60');
    expect(cluster.execSync('kubectl get pod second --no-headers').stdout).toMatch(
      /^second\s+0\/1\s+CrashLoopBackOff\s/,
    );
    expect(cluster.execSync('kubectl logs second --previous').stdout).toMatch(
      /^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d listen tcp :9100: bind: address already in use\n$/,
    );
    expect(cluster.execSync('curl -s -m 3 http://172.18.0.3:9100/hostname').stdout).toBe('kind-worker');
    // Once the holder is gone, the next restart binds.
    cluster.execSync('kubectl delete pod first');
    cluster.execSync('sleep 300');
    expect(cluster.execSync('curl -s -m 3 http://172.18.0.3:9100/').stdout).toBe('second\n');
  });
});
