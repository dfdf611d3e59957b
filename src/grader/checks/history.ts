/** `type: history`: the learner ran a command matching a pattern (lines as typed, oldest first). */
import { msg } from '../messages/format.ts';
import { verdict, type Verdict } from '../result.ts';
import type { Evaluator } from './env.ts';

export const evaluateHistory: Evaluator<'history'> = (check, env): Verdict => {
  const re = new RegExp(check.matches);
  const { example } = check;
  const expected =
    example === undefined
      ? msg('check.history.expected', { pattern: check.matches })
      : msg('check.history.expected.example', { example });
  const line = env.history.find((l) => re.test(l));
  if (line !== undefined) return verdict(true, expected, msg('check.history.observed.found', { line }));
  const count = env.history.length;
  return verdict(
    false,
    expected,
    example === undefined
      ? msg('check.history.observed.none', { count })
      : msg('check.history.observed.noneLike', { count, example }),
  );
};
