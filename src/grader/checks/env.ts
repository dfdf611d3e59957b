/** What every check evaluator gets: the cluster to look at and what the learner did. */
import type { CheckOf, CheckType } from '../check-schema.ts';
import type { GradableCluster } from '../engine-api.ts';
import type { TrafficProbes } from '../probes.ts';
import type { Verdict } from '../result.ts';

export interface CheckEnv {
  readonly cluster: GradableCluster;
  /** The learner's command lines, oldest first. */
  readonly history: readonly string[];
  /** Quiz check id → the choice ids the learner picked. */
  readonly quizAnswers: Readonly<Record<string, readonly string[]>>;
  /** A throwaway copy of the cluster for commands run while checking; each call gives a fresh one. */
  scratch(): GradableCluster;
  /** One throwaway copy shared by this evaluation's traffic and DNS probes (they leave conntrack and cache state). */
  probeCluster(): GradableCluster;
  readonly probes: TrafficProbes;
}

export type Evaluator<T extends CheckType> = (check: CheckOf<T>, env: CheckEnv) => Verdict;
