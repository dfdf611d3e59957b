/** `type: predicate`: a rule in TypeScript, looked up by name in the registry. */
import { msg } from '../messages/format.ts';
import { PREDICATES } from '../predicates/index.ts';
import { errorVerdict, type Verdict } from '../result.ts';
import type { Evaluator } from './env.ts';

export const evaluatePredicate: Evaluator<'predicate'> = (check, env): Verdict => {
  const predicate = Object.hasOwn(PREDICATES, check.predicate) ? PREDICATES[check.predicate] : undefined;
  if (!predicate) {
    const problem = msg('check.error.predicateUnknown', { name: check.predicate });
    return errorVerdict(problem, msg('check.error.invalid', { detail: problem }));
  }
  return predicate.evaluate(check.params, env);
};
