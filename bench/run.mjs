#!/usr/bin/env node
/**
 * `npm run bench`: every budget of the engine, dataplane and grader, measured (never asserted) and
 * printed with the machine and the date so the numbers can go into BENCHMARKS.md. The lab/browser
 * budgets have their own command (`npm run bench:lab`, needs a build). Each benchmark runs in its own
 * process so one does not warm or fill the heap of the next.
 */
import { spawnSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node = process.execPath;

function runJson(script, args = []) {
  const r = spawnSync(node, ['--expose-gc', join(root, script), ...args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) {
    console.error(`${script} failed:\n${r.stderr}`);
    return undefined;
  }
  const text = r.stdout.trim();
  return JSON.parse(text.slice(text.lastIndexOf('\n{') + 1 || 0));
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const runs = Number(process.env.BENCH_RUNS ?? 3);

console.log(`# Packet Path benchmarks — ${new Date().toISOString().slice(0, 10)}`);
console.log(
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB; Node ${process.version}`,
);
console.log(`Medians of ${runs} runs (BENCH_RUNS to change).\n`);

const rows = [];
const engine = Array.from({ length: runs }, () => runJson('bench/engine-scale.mts')).filter(Boolean);
if (engine.length) {
  const m = (k) => median(engine.map((r) => r[k]));
  rows.push([
    'engine',
    'apply 1,000 Services × 5 pods (5,000 pods, 50 workers) and settle',
    m('applyAndSettleMs'),
    2000,
    'ms',
  ]);
  rows.push([
    'engine',
    'same, main-thread CPU (steadier on a shared machine)',
    m('applyAndSettleMainThreadCpuMs'),
    undefined,
    'ms',
  ]);
  rows.push([
    'engine',
    'first `iptables-save` after it (renders the owed rules of 51 nodes)',
    m('firstIptablesSaveMs'),
    undefined,
    'ms',
  ]);
  rows.push(['engine', '`kubectl get pods -A` on that cluster', m('getPodsAllMs'), 100, 'ms']);
  rows.push(['engine', 'lab-sized command, p95', m('labCommandP95Ms'), 5, 'ms']);
  rows.push(['engine', 'heap held by that cluster', m('heapMB'), 200, 'MB']);
}
const dp = Array.from({ length: runs }, () => runJson('bench/dataplane.mts')).filter(Boolean);
if (dp.length) {
  const m = (k) => median(dp.map((r) => r[k]));
  rows.push([
    'dataplane',
    '`iptables-save` render, 1,000 Services × 5 endpoints',
    m('iptablesRenderPlusSaveMs'),
    500,
    'ms',
  ]);
  rows.push([
    'dataplane',
    'nftables render + `nft list table` (same input)',
    m('nftablesRenderPlusListMs'),
    undefined,
    'ms',
  ]);
  rows.push([
    'dataplane',
    'IPVS render + `ipvsadm -Ln` (same input)',
    m('ipvsRenderPlusListMs'),
    undefined,
    'ms',
  ]);
  rows.push(['dataplane', 'one probe through a Service, 100 policies', m('probeWith100PoliciesMs'), 1, 'ms']);
  rows.push([
    'dataplane',
    '100 × 100 reachability matrix, 50 policies',
    m('matrix100x100With50PoliciesMs'),
    500,
    'ms',
  ]);
}
const capture = Array.from({ length: runs }, () => runJson('bench/capture.mts')).filter(Boolean);
if (capture.length) {
  const m = (k) => median(capture.map((r) => r[k]));
  rows.push(['capture', '`tcpdump -nn -r` of 10,000 packets in a pod, printed', m('print10kMs'), 300, 'ms']);
  rows.push(['capture', 'same, piped to `wc -l`', m('print10kPipedToWcMs'), undefined, 'ms']);
  rows.push([
    'capture',
    '`kubectl exec … curl` to a ClusterIP, no capture running',
    m('curlNoCaptureMs'),
    undefined,
    'ms',
  ]);
}
const grade = spawnSync(node, [join(root, 'bench/grade.mjs')], {
  cwd: root,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
console.log('| area | measure | median | budget | |\n| --- | --- | --- | --- | --- |');
for (const [area, what, value, budget, unit] of rows) {
  const verdict = budget === undefined ? '' : value <= budget ? 'within' : '**over**';
  console.log(
    `| ${area} | ${what} | ${value.toFixed(value < 10 ? 2 : 0)} ${unit} | ${budget ?? '—'}${budget === undefined ? '' : ' ' + unit} | ${verdict} |`,
  );
}
console.log('\n## Grading (bench/grade.mjs)\n');
console.log(grade.status === 0 ? grade.stdout.trim() : `bench/grade.mjs failed:\n${grade.stderr}`);
