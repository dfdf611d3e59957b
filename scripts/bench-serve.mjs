// Bench of `packetpath serve` with the real kubectl v1.35 (issue 18, item 8):
//   1. `kubectl get pods` round trip (process start to exit, discovery cached), median of 30;
//   2. 20 concurrent `kubectl get pods -A -w` held while lab 04 is set up and solved through the
//      API (each watch must see the lab's pods arrive), with the get-pods median measured meanwhile.
//   The server's own time per GET /api/v1/pods is reported too (kubectl's process start dominates).
// Run: node scripts/bench-serve.mjs (Node 24: npm exec -- node scripts/bench-serve.mjs)
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCluster } from '../src/engine/index.ts';
import { ClusterHost } from '../src/runtime/node-cli/serve/cluster-host.ts';
import { createPki, kubeconfigYaml } from '../src/runtime/node-cli/serve/pki.ts';
import { startServer } from '../src/runtime/node-cli/serve/server.ts';
import { extractKubectl } from './extract-kubectl.mjs';

const kubectl = extractKubectl();
const dir = mkdtempSync(join(tmpdir(), 'packetpath-bench-'));
const pki = await createPki();
let requests = 0;
const serverMs = [];
const host = new ClusterHost(createCluster(undefined, { seed: 1 }), { clock: 'wall' });
const server = await startServer({
  host,
  pki,
  clock: 'wall',
  onRequest: (line) => {
    requests++;
    if (/^GET \/api\/v1\/pods\?/.test(line)) serverMs.push(Number(/ ([\d.]+)ms$/.exec(line)[1]));
  },
});
const kubeconfig = join(dir, 'kubeconfig');
writeFileSync(kubeconfig, kubeconfigYaml(pki, server.url));
const env = { PATH: '/usr/bin:/bin', HOME: dir, KUBECONFIG: kubeconfig, KUBECACHEDIR: join(dir, 'cache') };

function run(args) {
  return new Promise((done) => {
    const started = performance.now();
    const child = spawn(kubectl, args, { env, cwd: dir });
    let out = '';
    child.stdout.on('data', (t) => (out += t));
    child.on('close', (code) => done({ ms: performance.now() - started, code, out }));
  });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function getPodsMedian(n) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const r = await run(['get', 'pods', '-A']);
    if (r.code !== 0) throw new Error('kubectl get pods failed');
    times.push(r.ms);
  }
  return median(times);
}

await run(['api-resources']); // warm the discovery cache, as a learner's second command is
const idle = await getPodsMedian(30);
const before = requests;
await getPodsMedian(1);
const perCommand = requests - before;

// 20 watches, then lab 04 through the API while they are open.
const watches = Array.from({ length: 20 }, () => {
  const child = spawn(kubectl, ['get', 'pods', '-A', '-w', '--no-headers'], { env, cwd: dir });
  const w = { child, lines: 0, exited: false };
  child.stdout.on('data', (t) => (w.lines += String(t).split('\n').length - 1));
  child.on('close', () => (w.exited = true));
  return w;
});
await new Promise((r) => setTimeout(r, 2000));
cpSync('labs/04-empty-endpoints/start', dir, { recursive: true });
const labStarted = performance.now();
for (const line of [
  ['apply', '-f', 'shop.yaml'],
  ['apply', '-f', 'api-service.yaml'],
  ['-n', 'shop', 'rollout', 'status', 'deployment/api', '--timeout=120s'],
  ['-n', 'shop', 'rollout', 'status', 'deployment/web', '--timeout=120s'],
]) {
  const r = await run(line);
  if (r.code !== 0) throw new Error(`${line.join(' ')} failed`);
}
cpSync('labs/04-empty-endpoints/solution', dir, { recursive: true });
await run(['apply', '-f', 'api-service.yaml']);
const labMs = performance.now() - labStarted;
const busy = await getPodsMedian(15);
const shopSeen = watches.filter((w) => !w.exited && w.lines >= 4).length;
const held = watches.filter((w) => !w.exited).length;
for (const w of watches) w.child.kill('SIGINT');
await server.close();
console.log(
  JSON.stringify(
    {
      getPodsMedianMs: Math.round(idle),
      serverMsPerGetPodsMedian: median(serverMs),
      requestsPerGetPods: perCommand,
      watchesHeld: held,
      watchesThatSawTheLabsPods: shopSeen,
      labSetupAndSolveMs: Math.round(labMs),
      getPodsMedianMsWith20Watches: Math.round(busy),
    },
    null,
    2,
  ),
);
