/**
 * Running fuzz cases: a fresh cluster per case (restored from a lab's start snapshot, so a case replays
 * alike from its seed), a per-call work guard, and the run count/seed of `npm test` vs `npm run fuzz`.
 */
import fc from 'fast-check';
import { restoreCluster, type Cluster, type ExecResult } from '../../src/engine/index.ts';
import { startLab } from '../../src/grader/index.ts';
import type { LabCorpus } from './corpus.ts';

/** `npm run fuzz` sets FUZZ_RUNS (many runs); `npm test` runs each property's small default. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 0) || undefined;
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261129);

/**
 * Parameters for fc.assert: seeded so `npm test` is reproducible; `npm run fuzz` scales every
 * property by the same factor. fast-check's failure message carries the seed and path to replay.
 */
export function params<T>(name: string, defaultRuns: number): fc.Parameters<T> {
  const numRuns = FUZZ_RUNS
    ? Math.max(defaultRuns, Math.round((defaultRuns * FUZZ_RUNS) / 100))
    : defaultRuns;
  const seed = FUZZ_SEED;
  return {
    numRuns,
    seed,
    reporter: (details) => {
      if (FUZZ_RUNS)
        console.log(`fuzz ${name}: ${details.numRuns} cases, seed ${seed}${details.failed ? ' FAILED' : ''}`);
      if (details.failed) {
        const cause = details.errorInstance instanceof Error ? details.errorInstance.message : '';
        throw new Error(`${fc.defaultReportMessage(details)}\n${cause}`);
      }
    },
  };
}

/**
 * Simulated work one engine call may do: controller rounds of the settle loop plus time steps. The
 * shell already stops a line at MAX_COMMANDS / MAX_LOOP_ITERATIONS; this guard turns anything that
 * escapes those limits (a controller that never settles, a wait that spins) into a test failure
 * instead of a hung test run. Counted in simulated steps, never wall time.
 */
export const WORK_BUDGET = 2_000_000;

export class WorkExceeded extends Error {}

/** Counts the settle rounds of a cluster and throws WorkExceeded past the budget (reset per call). */
export function meter(cluster: Cluster): { reset(): void; readonly used: number } {
  let used = 0;
  const settle = cluster.settle.bind(cluster);
  cluster.settle = () => {
    const rounds = settle();
    used += rounds;
    if (used > WORK_BUDGET) throw new WorkExceeded(`more than ${WORK_BUDGET} settle rounds in one call`);
    return rounds;
  };
  return {
    reset: () => {
      used = 0;
    },
    get used() {
      return used;
    },
  };
}

const snapshots = new Map<string, string>();

/** A fresh cluster in the lab's start state (setup run), restored from a cached snapshot. */
export function labCluster(lab: LabCorpus): Cluster {
  let snap = snapshots.get(lab.id);
  if (snap === undefined) {
    snap = JSON.stringify(startLab(lab.loaded).snapshot());
    snapshots.set(lab.id, snap);
  }
  return restoreCluster(snap);
}

const meters = new WeakMap<Cluster, ReturnType<typeof meter>>();

/** Runs one line under the work guard; exceptions propagate (they are the defect). */
export function guardedExec(cluster: Cluster, line: string): ExecResult {
  let m = meters.get(cluster);
  if (!m) {
    m = meter(cluster);
    meters.set(cluster, m);
  }
  m.reset();
  return cluster.execSync(line, { interactive: true });
}
