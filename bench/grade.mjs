#!/usr/bin/env node
/**
 * Benchmark: `packetpath grade` re-grading 1,000 reports of the sandbox lab (budget: ≤ 10 s, issue 6).
 *
 * Makes 1,000 honest reports on the real engine from eight learner behaviours (solved, half-solved,
 * wrong turns, editor saves, typos), each ending with its own `echo` line so that **every journal is
 * distinct** (identical journals would be served by the grader's replay cache and measure nothing).
 * Then times `runGrade` end to end — read, parse and validate every report once, replay every journal
 * into the engine (shared prefixes restored from the replay tree's snapshots), evaluate every check,
 * compare score/results/files, the start state and the snapshot (by sha256 of its JSON), print the
 * table, write the CSV — several times, and prints the median of wall and of CPU time (all threads:
 * `--jobs N` grades in this thread and N - 1 workers). `--same` makes every report of a behaviour identical instead (the
 * replay cache's best case). Not a timed test: `node bench/grade.mjs [--reports N] [--runs N] [--jobs N] [--same]`.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildReport,
  createStarter,
  engine,
  evaluateChecks,
  historyOf,
  LabSession,
  labContentHash,
} from '../src/grader/index.ts';
import { loadLabFromDir } from '../src/grader/node/load-lab.ts';
import { FORMATS, runGrade } from '../src/runtime/node-cli/grade.ts';
import { gradeLoaded } from '../src/runtime/node-cli/grade-files.ts';
import { planOutputs, writePlan } from '../src/runtime/node-cli/grade-write.ts';
import { cohortCsv, cohortJson } from '../src/runtime/node-cli/grade-output.ts';
import { cohortLab } from '../src/grader/formats/cohort.ts';
import { parseRoster } from '../src/grader/formats/roster.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const REPORTS = arg('--reports', 1000);
const RUNS = arg('--runs', 5);
const JOBS = arg('--jobs', availableParallelism());
const BUDGET_MS = 10_000;

const labDir = join(root, 'labs', '00-sandbox');
const loaded = loadLabFromDir(labDir);
const web3 = loaded.solutionFiles['web.yaml'];

/** Learner journals, from a perfect run to a lost one. */
const cohort = [
  (s) => s.solve(),
  (s) => {
    s.exec('kubectl get pods');
    s.exec('kubectl apply -f web.yaml');
    s.exec('kubectl get pods -o wide');
    s.exec('kubectl scale deployment web --replicas=3');
    s.exec('kubectl expose deployment web --port=80');
    s.exec('kubectl get svc web');
    s.exec('kubectl get endpointslices');
    s.exec('kubectl describe svc web');
  },
  (s) => {
    s.writeFile('web.yaml', web3);
    s.exec('kubectl apply -f web.yaml');
    s.exec('kubectl expose deploy web --port 80');
    s.exec('kubectl get endpointslices -o wide');
  },
  (s) => {
    s.exec('kubectl apply -f web.yaml');
    s.exec('kubectl get pods');
    s.exec('kubectl get deploy web -o yaml');
  },
  (s) => {
    s.exec('kubectl create deployment web --image=nginx');
    s.exec('kubectl scale deploy/web --replicas 3');
    s.exec('kubectl expose deploy/web --port=8080 --target-port=80');
    s.exec('kubectl get endpointslice');
  },
  (s) => {
    s.exec('kubectl aply -f web.yaml');
    s.exec('kubectl apply -f web.yml');
    s.exec('ls');
    s.exec('cat web.yaml');
    s.exec('kubectl apply -f web.yaml');
    s.exec('kubectl expose deployment web --port=80');
    s.wait(30_000);
    s.exec('kubectl get endpointslices');
  },
  (s) => {
    s.exec('kubectl get nodes');
    s.exec('kubectl get pods -A');
  },
  (s) => {
    s.exec('kubectl apply -f web.yaml');
    s.exec('kubectl scale deployment web --replicas=3');
    s.exec('kubectl expose deployment web --port=80');
    s.exec('kubectl delete pod -l app=web');
    s.exec('kubectl get endpointslices');
    s.exec('kubectl get pods -o wide');
  },
];

const SAME = process.argv.includes('--same');
const dir = mkdtempSync(join(tmpdir(), 'packetpath-bench-'));
const t0 = performance.now();
// Each behaviour is played once; every report then restores the behaviour's end state and adds its own
// line, which is exactly the state a learner who typed that journal would have (restores are verified
// equivalent to fresh starts by createStarter, as the grader itself uses them).
const starter = createStarter(loaded, engine);
const fastEngine = { ...engine, createCluster: () => starter.start() };
const behaviours = cohort.map((play) => {
  const s = new LabSession(loaded, fastEngine);
  play(s);
  return { journal: [...s.journal], snapshot: s.cluster.snapshot(), startState: s.startState };
});
let steps = 0;
for (let i = 0; i < REPORTS; i++) {
  const b = behaviours[i % behaviours.length];
  const cluster = engine.restoreCluster(b.snapshot);
  const journal = [...b.journal];
  if (!SAME) {
    const run = `echo learner ${i} done`;
    cluster.execSync(run, { interactive: true });
    journal.push({ run });
  }
  steps += journal.length;
  const results = evaluateChecks(loaded, cluster, { history: historyOf(journal) });
  const report = buildReport({
    loaded,
    cluster,
    journal,
    results,
    locale: i % 2 ? 'en' : 'pt-BR',
    learner: `Learner ${String(i).padStart(4, '0')}`,
    startedAt: '2026-03-01T10:00:00Z',
    submittedAt: '2026-03-01T10:45:00Z',
    startState: b.startState,
  });
  writeFileSync(join(dir, `learner-${String(i).padStart(4, '0')}.json`), JSON.stringify(report));
}
steps /= REPORTS;
console.error(`bench/grade: made ${REPORTS} reports in ${Math.round(performance.now() - t0)} ms`);

const quiet = { cwd: dir, out: () => {}, err: (t) => errors.push(t) };
const errors = [];
const times = [];
const cpuTimes = [];
const loadAverageAtStart = loadavg().map((x) => Number(x.toFixed(2)));
for (let run = 0; run < RUNS; run++) {
  errors.length = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const code = await runGrade([labDir, dir, '--csv', join(dir, 'grades.csv'), '--jobs', String(JOBS)], quiet);
  times.push(performance.now() - t0);
  const cpu = process.cpuUsage(cpu0);
  cpuTimes.push((cpu.user + cpu.system) / 1000);
  if (code !== 0) {
    console.error(`bench/grade: runGrade exited ${code}:\n${errors.slice(0, 5).join('')}`);
    process.exit(1);
  }
}
// Every gradebook format and the HTML cohort report from the same 1,000 re-graded reports (budget:
// ≤ 10 s with the grading, issue 21): the export stage on its own, then end to end with all outputs.
const files = readdirSync(dir)
  .filter((f) => f.startsWith('learner-'))
  .sort()
  .map((f) => ({ path: join(dir, f), label: f }));
const rows = gradeLoaded(loaded, files).map((g) => g.row);
const roster = parseRoster(
  ['name,email', ...rows.map((r, i) => `${r.learner},learner${i}@uni.example`)].join('\n'),
);
const exportTimes = [];
for (let run = 0; run < RUNS; run++) {
  const out = mkdtempSync(join(tmpdir(), 'packetpath-bench-out-'));
  const t = performance.now();
  const lab = cohortLab(loaded);
  const checkIds = lab.checks.map((c) => c.id);
  const labInfo = { id: loaded.lab.id, version: loaded.lab.version, contentHash: labContentHash(loaded) };
  for (const format of FORMATS) {
    const { plan } = planOutputs(
      out,
      { lab, entries: rows },
      roster,
      {
        format,
        out: format === 'gradescope' ? 'gradescope' : `${format}.out`,
        ...(format === 'csv' ? { html: 'cohort.html' } : {}),
      },
      { locale: 'pt-BR' },
      () => cohortCsv(rows, checkIds),
      () => cohortJson(rows, labInfo, 'pt-BR'),
    );
    writePlan(plan);
  }
  exportTimes.push(performance.now() - t);
  rmSync(out, { recursive: true, force: true });
}
exportTimes.sort((a, b) => a - b);
const exportMedian = exportTimes[Math.floor(exportTimes.length / 2)];
const e2e0 = performance.now();
const e2eOut = mkdtempSync(join(tmpdir(), 'packetpath-bench-out-'));
errors.length = 0;
await runGrade(
  [
    labDir,
    dir,
    '--jobs',
    String(JOBS),
    '--format',
    'canvas',
    '--out',
    join(e2eOut, 'c.csv'),
    '--html',
    join(e2eOut, 'r.html'),
    '--csv',
    join(e2eOut, 'g.csv'),
    '--json',
    join(e2eOut, 'g.json'),
  ],
  quiet,
);
const e2eMs = performance.now() - e2e0;
rmSync(e2eOut, { recursive: true, force: true });
rmSync(dir, { recursive: true, force: true });
console.log(
  `grade formats: ${REPORTS} re-graded reports to all ${FORMATS.length} formats + the HTML report in ${Math.round(exportMedian)} ms (median of ${RUNS}); grade + canvas + html + csv + json end to end ${Math.round(e2eMs)} ms (budget ${BUDGET_MS} ms) ${exportMedian <= BUDGET_MS && e2eMs <= BUDGET_MS ? 'OK' : 'OVER BUDGET'}`,
);
times.sort((a, b) => a - b);
cpuTimes.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
// CPU time (all threads) says what the work costs when the machine is shared; wall time what you wait.
const cpuMedian = cpuTimes[Math.floor(cpuTimes.length / 2)];
const cpu = cpus();
const result = {
  bench: 'grade',
  reports: REPORTS,
  distinctJournals: SAME ? behaviours.length : REPORTS,
  meanJournalSteps: Number(steps.toFixed(1)),
  runs: RUNS,
  medianMs: Math.round(median),
  perReportMs: Number((median / REPORTS).toFixed(2)),
  cpuMedianMs: Math.round(cpuMedian),
  cpuPerReportMs: Number((cpuMedian / REPORTS).toFixed(2)),
  minMs: Math.round(times[0]),
  maxMs: Math.round(times[times.length - 1]),
  budgetMs: BUDGET_MS,
  withinBudget: median <= BUDGET_MS,
  machine: `${cpu[0]?.model ?? 'unknown CPU'} × ${cpu.length}, ${Math.round(totalmem() / 2 ** 30)} GiB`,
  jobs: JOBS,
  loadAverageAtStart,
  loadAverageAtEnd: loadavg().map((x) => Number(x.toFixed(2))),
  node: process.version,
  date: new Date().toISOString().slice(0, 10),
};
console.log(
  `grade: re-graded ${REPORTS} reports in ${result.medianMs} ms wall, ${result.cpuMedianMs} ms CPU (median of ${RUNS}; ${result.perReportMs} ms/report; budget ${BUDGET_MS} ms) ${result.withinBudget ? 'OK' : 'OVER BUDGET'}`,
);
console.log(JSON.stringify(result));
if (!result.withinBudget) process.exitCode = 1;
