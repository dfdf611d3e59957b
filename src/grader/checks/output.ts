/**
 * `type: output`: a command's stdout contains or matches a text, or it exits with a code. The command
 * runs in a scratch copy of the cluster restored from a snapshot, so checking never changes the
 * learner's cluster, files, clock or history (a check may run after every command). Write `2>&1` in the
 * command to check what it prints on stderr.
 */
import { msg, type Message } from '../messages/format.ts';
import { verdict, type Verdict } from '../result.ts';
import type { Evaluator } from './env.ts';

const EXCERPT_LINES = 4;
const EXCERPT_CHARS = 300;

function excerpt(text: string): string {
  const lines = text.replace(/\n+$/, '').split('\n');
  let out = lines.slice(0, EXCERPT_LINES).join('\n');
  if (out.length > EXCERPT_CHARS) out = out.slice(0, EXCERPT_CHARS);
  return out.length < text.replace(/\n+$/, '').length ? `${out} …` : out;
}

export const evaluateOutput: Evaluator<'output'> = (check, env): Verdict => {
  const command = check.command;
  const parts: Message[] = [];
  if (check.contains !== undefined)
    parts.push(msg('check.output.expected.contains', { command, text: check.contains }));
  if (check.matches !== undefined)
    parts.push(msg('check.output.expected.matches', { command, pattern: check.matches }));
  if (check.exitCode !== undefined)
    parts.push(msg('check.output.expected.exitCode', { command, code: check.exitCode }));
  const expected = parts.length === 1 ? parts[0]! : msg('check.list', { items: parts });
  const result = env.scratch().execSync(command, { interactive: false });
  const observed =
    result.stdout.trim() === ''
      ? msg('check.output.observed.empty', { code: result.exitCode })
      : msg('check.output.observed', { code: result.exitCode, excerpt: excerpt(result.stdout) });
  const ok =
    (check.contains === undefined || result.stdout.includes(check.contains)) &&
    (check.matches === undefined || new RegExp(check.matches, 'm').test(result.stdout)) &&
    (check.exitCode === undefined || result.exitCode === check.exitCode);
  return verdict(ok, expected, observed);
};
