/** `type: history`: the learner ran a command matching a pattern (lines as typed, oldest first). */
import { msg } from '../messages/format.ts';
import { verdict, type Verdict } from '../result.ts';
import type { Evaluator } from './env.ts';

export const evaluateHistory: Evaluator<'history'> = (check, env): Verdict => {
  const re = new RegExp(check.matches);
  const expected = msg('check.history.expected', { pattern: check.matches });
  const line = env.history.find((l) => re.test(l));
  return line === undefined
    ? verdict(false, expected, msg('check.history.observed.none', { count: env.history.length }))
    : verdict(true, expected, msg('check.history.observed.found', { line }));
};
