/**
 * The grader's public surface for hosts (the lab UI's Web Worker, the Node CLI): the real engine bound
 * in. Pure TS — no DOM, no Node built-ins — so it runs in the browser worker and in Node alike; file
 * loading lives in `./node/`. Lower-level modules take a `LabEngine` so they can be tested without it.
 */
import { createCluster, restoreCluster, type Cluster, type ClusterHandle } from '../engine/index.ts';
import type { LabEngine } from './engine-api.ts';
import { evaluateChecks as evaluateWith, type EvaluationContext } from './evaluate.ts';
import { startLab as startWith } from './lab-runtime.ts';
import type { LoadedLab } from './lab-schema.ts';
import type { TrafficProbes } from './probes.ts';
import { engineProbes } from './dataplane.ts';
import { LabSession as Session, type SessionOptions } from './session.ts';
import type { CheckResult } from './result.ts';

export const engine: LabEngine<Cluster> = {
  createCluster: (config, opts) => createCluster(config, opts),
  restoreCluster: (snapshot) => restoreCluster(snapshot),
  probes: engineProbes,
};

/** Boots the lab's cluster: definition and seed, start files, then the setup lines (their output is not shown). */
export function startLab(loaded: LoadedLab, opts: { engine?: LabEngine<Cluster> } = {}): Cluster {
  return startWith(loaded, opts.engine ?? engine);
}

/** Evaluates every check, in lab order; hidden checks come back redacted unless `revealHidden`. */
export function evaluateChecks(
  loaded: LoadedLab,
  cluster: ClusterHandle,
  ctx: EvaluationContext,
  opts: { probes?: TrafficProbes; revealHidden?: boolean } = {},
): CheckResult[] {
  return evaluateWith(loaded, cluster, ctx, {
    engine,
    probes: opts.probes ?? engineProbes,
    revealHidden: opts.revealHidden ?? false,
  });
}

/** A recorded session on the real engine (see session.ts). */
export function openSession(loaded: LoadedLab, opts: SessionOptions = {}): Session<Cluster> {
  return new Session(loaded, engine, opts);
}

export { applySolution, applyStep, historyOf, solutionJournal, type JournalStep } from './lab-runtime.ts';
export type { EvaluationContext } from './evaluate.ts';
export { checkTitle } from './check-title.ts';
export { LabSession, type SessionOptions } from './session.ts';
export {
  score,
  redactHidden,
  type CheckResult,
  type CheckStatus,
  type Score,
  type Verdict,
} from './result.ts';
export { formatMessage, msg, type Message, type MessageKey, type MessageParam } from './messages/format.ts';
export {
  buildReport,
  parseReport,
  assertReportForLab,
  labForReport,
  ReportError,
  REPORT_FORMAT,
  REPORT_VERSION,
  startStateHash,
  type GradeReport,
} from './report.ts';
export {
  regradeReport,
  createStarter,
  flagText,
  ReplayCache,
  type Regrade,
  type RegradeFlag,
} from './regrade.ts';
export { labContentHash } from './content-hash.ts';
export { validateLab, correctAnswers, type LabValidation } from './validate.ts';
export { parseLab, parseFairness, LabError } from './lab-parse.ts';
export { validateFairness, type FairnessCounts, type FairnessValidation } from './fairness.ts';
export { Fairness } from './fairness-schema.ts';
export {
  drawVariant,
  isDrawSeed,
  labForLearner,
  MAX_DRAW_SEED,
  redrawSeed,
  resolveVariant,
  variantIds,
} from './variants.ts';
export {
  Lab,
  Check,
  LOCALES,
  type Locale,
  type Localized,
  type LoadedLab,
  type CheckType,
} from './lab-schema.ts';
export { defaultProbes, unavailableProbes, dataplaneProbes, type TrafficProbes, type Hop } from './probes.ts';
export { engineProbes } from './dataplane.ts';
export type { GradableCluster, LabEngine } from './engine-api.ts';
