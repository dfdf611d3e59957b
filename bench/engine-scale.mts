/**
 * Issue 3's engine budgets, measured (not asserted): build a 50-worker cluster, apply 1,000
 * Deployments × 5 replicas and 1,000 Services in one `kubectl apply -f -`, settle until every pod
 * runs, then time `kubectl get pods -A`, lab-sized commands, and the heap the cluster holds.
 * Run: npm run bench (or node bench/engine-scale.mts under the project's Node 24).
 */
import { createCluster } from '../src/engine/index.ts';

const WORKERS = 50;
const SERVICES = 1000;
const REPLICAS = 5;

function kindConfig(workers: number): string {
  const nodes = ['  - role: control-plane', ...Array.from({ length: workers }, () => '  - role: worker')];
  return `kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n${nodes.join('\n')}\n`;
}

function manifests(count: number): string {
  const docs: string[] = [];
  for (let i = 0; i < count; i++) {
    docs.push(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-${i}
spec:
  replicas: ${REPLICAS}
  selector:
    matchLabels: { app: app-${i} }
  template:
    metadata:
      labels: { app: app-${i} }
    spec:
      containers:
        - name: web
          image: nginx
---
apiVersion: v1
kind: Service
metadata:
  name: app-${i}
spec:
  selector: { app: app-${i} }
  ports:
    - port: 80
      targetPort: 80`);
  }
  return docs.join('\n---\n');
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function p95(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)]!;
}

export interface EngineScaleResult {
  applyAndSettleMs: number;
  applyAndSettleCpuMs: number;
  /** CPU time of the main thread alone (the engine's own work, without the GC's helper threads). */
  applyAndSettleMainThreadCpuMs: number;
  /**
   * The first read of a node's rules after the settle: kube-proxy renders every node's owed rules
   * then (kube-proxy.ts `deferred`), so this is where that work shows.
   */
  firstIptablesSaveMs: number;
  getPodsAllMs: number;
  labCommandP95Ms: number;
  heapMB: number;
  pods: number;
  services: number;
}

export async function runEngineScale(): Promise<EngineScaleResult> {
  const cluster = createCluster(kindConfig(WORKERS), { seed: 7 });
  const text = manifests(SERVICES);
  cluster.files.write('scale.yaml', text);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const thread0 = process.threadCpuUsage();
  const applied = cluster.execSync('kubectl apply -f scale.yaml');
  if (applied.exitCode !== 0) throw new Error(applied.stderr.slice(0, 500));
  cluster.waitFor(
    () =>
      cluster.store.list('pods', 'default').filter((p) => p.status?.phase === 'Running').length >=
      SERVICES * REPLICAS,
    120_000,
  );
  const applyAndSettleMs = performance.now() - t0;
  // The machine is shared: CPU time (user + system) of this process is the steadier figure.
  const cpu = process.cpuUsage(cpu0);
  const applyAndSettleCpuMs = (cpu.user + cpu.system) / 1000;
  const thread = process.threadCpuUsage(thread0);
  const applyAndSettleMainThreadCpuMs = (thread.user + thread.system) / 1000;
  const pods = cluster.store.list('pods').length;
  const tRules = performance.now();
  cluster.kubeProxy.iptablesSave('kind-worker');
  const firstIptablesSaveMs = performance.now() - tRules;

  const getTimes: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    cluster.shell.run('kubectl get pods -A', { interactive: false });
    getTimes.push(performance.now() - t);
  }

  const lab = createCluster(undefined, { seed: 3 });
  lab.execSync('kubectl create deployment web --image=nginx --replicas=3');
  lab.execSync('kubectl expose deployment web --port=80');
  const lines = [
    'kubectl get pods -o wide',
    'kubectl get svc',
    'kubectl get endpointslices',
    'kubectl describe svc web',
    'kubectl get pods -A',
    'kubectl scale deployment web --replicas=4',
    'kubectl get deploy web -o yaml',
    'kubectl get pods | grep web | wc -l',
  ];
  const labTimes: number[] = [];
  for (let round = 0; round < 20; round++) {
    for (const line of lines) {
      const t = performance.now();
      lab.execSync(line);
      labTimes.push(performance.now() - t);
    }
  }
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const heapMB = process.memoryUsage().heapUsed / 1024 / 1024;
  return {
    applyAndSettleMs,
    applyAndSettleCpuMs,
    applyAndSettleMainThreadCpuMs,
    firstIptablesSaveMs,
    getPodsAllMs: median(getTimes),
    labCommandP95Ms: p95(labTimes),
    heapMB,
    pods,
    services: cluster.store.list('services').length,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runEngineScale(), null, 2));
}
