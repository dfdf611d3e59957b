/** A rule data cannot express, written in TypeScript. Keep predicates pure: read the cluster, return a verdict. */
import type { z } from 'zod';
import type { CheckEnv } from '../checks/env.ts';
import type { Verdict } from '../result.ts';

export interface Predicate {
  /** What the predicate checks, for lab authors (English). */
  readonly description: string;
  /** Validates `params` from lab.yaml; `lab validate` reports its errors. */
  readonly params: z.ZodType;
  evaluate(params: unknown, env: CheckEnv): Verdict;
}
