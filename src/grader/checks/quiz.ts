/**
 * `type: quiz`: the learner's choices (from the context, not the cluster) equal the answer set exactly.
 * The observation never names the right choices, so a failed attempt does not give them away.
 */
import { msg } from '../messages/format.ts';
import { verdict, type Verdict } from '../result.ts';
import type { Evaluator } from './env.ts';

export const evaluateQuiz: Evaluator<'quiz'> = (check, env): Verdict => {
  const expected = msg('check.quiz.expected', { question: check.question });
  const given = Object.hasOwn(env.quizAnswers, check.id) ? env.quizAnswers[check.id] : undefined;
  if (given === undefined || given.length === 0)
    return verdict(false, expected, msg('check.quiz.observed.unanswered'));
  const chosen = new Set(given);
  const ok = chosen.size === check.answer.length && check.answer.every((a) => chosen.has(a));
  const wrong = check.multiple ? 'check.quiz.observed.wrongMultiple' : 'check.quiz.observed.wrong';
  return verdict(ok, expected, msg(ok ? 'check.quiz.observed.correct' : wrong));
};
