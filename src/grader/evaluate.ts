/**
 * Evaluates every check of a lab against a cluster, in lab order. A check that throws becomes an
 * error result (never a pass) so one broken check cannot hide the others.
 */
import type { Check, CheckType, LoadedLab } from './lab-schema.ts';
import type { CheckEnv, Evaluator } from './checks/env.ts';
import { evaluateConnections } from './checks/connections.ts';
import { evaluateDns } from './checks/dns.ts';
import { evaluateEndpoints } from './checks/endpoints.ts';
import { evaluateField } from './checks/field.ts';
import { evaluateHistory } from './checks/history.ts';
import { evaluateLooked } from './checks/looked.ts';
import { evaluateWeights } from './checks/weights.ts';
import { evaluateOutput } from './checks/output.ts';
import { evaluatePredicate } from './checks/predicate.ts';
import { evaluateQuiz } from './checks/quiz.ts';
import { evaluateReachability } from './checks/reachability.ts';
import { evaluateResource } from './checks/resource.ts';
import type { GradableCluster, LabEngine } from './engine-api.ts';
import { msg } from './messages/format.ts';
import { defaultProbes, type TrafficProbes } from './probes.ts';
import { errorVerdict, redactHidden, type CheckResult, type Verdict } from './result.ts';

export interface EvaluationContext {
  /** The learner's command lines, oldest first (for `history` checks). */
  readonly history: readonly string[];
  /** Quiz check id → chosen choice ids. */
  readonly quizAnswers?: Readonly<Record<string, readonly string[]>>;
}

export interface EvaluationOptions {
  /** Builds scratch copies for `output` checks. */
  readonly engine: LabEngine;
  readonly probes?: TrafficProbes;
  /** Keep hidden checks' details (instructor CLI, lab validate). The learner's view redacts them. */
  readonly revealHidden?: boolean;
}

const EVALUATORS: { readonly [T in CheckType]: Evaluator<T> } = {
  resource: evaluateResource,
  field: evaluateField,
  endpoints: evaluateEndpoints,
  reachability: evaluateReachability,
  dns: evaluateDns,
  output: evaluateOutput,
  history: evaluateHistory,
  looked: evaluateLooked,
  weights: evaluateWeights,
  connections: evaluateConnections,
  quiz: evaluateQuiz,
  predicate: evaluatePredicate,
};

function evaluateOne(check: Check, env: CheckEnv): Verdict {
  const evaluator = EVALUATORS[check.type] as Evaluator<CheckType>;
  try {
    return evaluator(check as never, env);
  } catch (e) {
    const detail = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    return errorVerdict(msg('check.error.internal', { detail }), msg('check.error.internal', { detail }));
  }
}

export function evaluateChecks(
  loaded: LoadedLab,
  cluster: GradableCluster,
  ctx: EvaluationContext,
  opts: EvaluationOptions,
): CheckResult[] {
  let snapshot: ReturnType<GradableCluster['snapshot']> | undefined;
  let probeCopy: GradableCluster | undefined;
  const env: CheckEnv = {
    cluster,
    history: ctx.history,
    quizAnswers: ctx.quizAnswers ?? {},
    probes: opts.probes ?? opts.engine.probes ?? defaultProbes,
    // One snapshot per evaluation, one fresh restore per output check: checks never see each other's effects.
    scratch: () => opts.engine.restoreCluster((snapshot ??= cluster.snapshot())),
    probeCluster: () => (probeCopy ??= opts.engine.restoreCluster((snapshot ??= cluster.snapshot()))),
  };
  return loaded.lab.checks.map((check) => {
    const result: CheckResult = {
      id: check.id,
      type: check.type,
      hidden: check.hidden,
      redacted: false,
      ...evaluateOne(check, env),
    };
    return opts.revealHidden ? result : redactHidden(result);
  });
}
