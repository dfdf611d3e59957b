/**
 * Issue 4's dataplane budgets, measured (not asserted): kube-proxy rendering at 1,000 Services × 5
 * endpoints (`iptables-save` ≤ 500 ms), one probe through a Service with 100 NetworkPolicies (≤ 1 ms),
 * and a 100 × 100 pod reachability matrix with 50 policies (≤ 500 ms). Medians of several runs.
 */
import { createCluster } from '../src/engine/index.ts';
import { runProxyBenchmark } from '../src/engine/dataplane/proxy/benchmark.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function policies(count: number): string {
  const docs: string[] = [];
  for (let i = 0; i < count; i++) {
    docs.push(`apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: allow-${i}
spec:
  podSelector:
    matchLabels: { app: app-${i % 10} }
  ingress:
    - from:
        - podSelector:
            matchLabels: { app: app-${(i + 1) % 10} }
      ports:
        - port: 80`);
  }
  return docs.join('\n---\n');
}

export interface DataplaneBench {
  iptablesRenderPlusSaveMs: number;
  nftablesRenderPlusListMs: number;
  ipvsRenderPlusListMs: number;
  probeWith100PoliciesMs: number;
  matrix100x100With50PoliciesMs: number;
}

export function runDataplaneBench(runs = 5): DataplaneBench {
  const proxy = Array.from({ length: runs }, () => runProxyBenchmark(() => performance.now()));
  const total = (mode: string) =>
    median(proxy.map((r) => r.find((x) => x.mode === mode)!).map((x) => x.renderMs + x.printMs));

  const nodes = ['  - role: control-plane', ...Array.from({ length: 4 }, () => '  - role: worker')];
  const cluster = createCluster(
    `kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n${nodes.join('\n')}\n`,
    { seed: 11 },
  );
  for (let i = 0; i < 10; i++)
    cluster.execSync(`kubectl create deployment app-${i} --image=nginx --replicas=10`);
  cluster.execSync('kubectl expose deployment app-0 --port=80');
  cluster.waitFor(
    () =>
      cluster
        .view()
        .list('pods', 'default')
        .filter((p) => p.status?.phase === 'Running').length >= 100,
    120_000,
  );

  cluster.files.write('policies-100.yaml', policies(100));
  cluster.execSync('kubectl apply -f policies-100.yaml');
  const client = cluster
    .view()
    .list('pods', 'default')
    .find((p) => p.metadata.labels?.app === 'app-1')!;
  const probeTimes: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    cluster
      .view()
      .probe({ fromPod: { namespace: 'default', name: client.metadata.name }, to: 'app-0', port: 80 });
    probeTimes.push(performance.now() - t);
  }

  cluster.execSync('kubectl delete networkpolicy --all');
  cluster.files.write('policies-50.yaml', policies(50));
  cluster.execSync('kubectl apply -f policies-50.yaml');
  const pods = cluster.view().list('pods', 'default');
  const matrixTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    cluster.execSync(`kubectl label pod ${pods[i]!.metadata.name} round=r${i} --overwrite`);
    const t = performance.now();
    cluster.view().reachabilityMatrix(cluster.view().list('pods', 'default'));
    matrixTimes.push(performance.now() - t);
  }
  return {
    iptablesRenderPlusSaveMs: total('iptables'),
    nftablesRenderPlusListMs: total('nftables'),
    ipvsRenderPlusListMs: total('ipvs'),
    probeWith100PoliciesMs: median(probeTimes.slice(5)),
    matrix100x100With50PoliciesMs: median(matrixTimes),
  };
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(runDataplaneBench(), null, 2));
