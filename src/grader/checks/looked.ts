/**
 * `type: looked`: the learner looked at a kind of object — some command they ran printed it on their
 * terminal. The engine records what each typed line displayed (`cluster.sightings`: kubectl's tables,
 * `describe`, `-o yaml`/`json`, through a pipe that printed something), so any spelling counts and a
 * command that failed (NotFound, a typo, output sent to a file or into a `grep` that matched nothing)
 * does not. Namespaced kinds count in the namespace the check names, or from an `-A` listing.
 * When nothing counts, the message says why the closest attempt did not and what would.
 */
import { msg } from '../messages/format.ts';
import { errorVerdict, verdict, type Verdict } from '../result.ts';
import type { Evaluator } from './env.ts';
import { commandsOf, kubectlShow } from './kubectl-line.ts';
import { resolveResource } from './objects.ts';

/** The verbs whose output shows the objects named. */
const SHOWING_VERBS = new Set(['get', 'describe']);

export const evaluateLooked: Evaluator<'looked'> = (check, env): Verdict => {
  const infos = check.resources.map((r) => resolveResource(r));
  const names = check.resources.join(', ');
  const ns = check.namespace;
  const example = `kubectl${ns ? ` -n ${ns}` : ''} get ${check.resources[0]!}`;
  const expected = ns
    ? msg('check.looked.expected.namespace', { resources: names, namespace: ns })
    : msg('check.looked.expected', { resources: names });
  const unknown = check.resources.find((_, i) => !infos[i]);
  if (unknown !== undefined) {
    const detail = msg('check.resource.unknownType', { resource: unknown });
    return errorVerdict(expected, msg('check.error.invalid', { detail }));
  }
  const wanted = new Set<string>(infos.map((i) => i!.key));
  const namespaced = infos.some((i) => i!.namespaced);
  let elsewhere: string | undefined;
  for (const seen of env.cluster.sightings.list()) {
    if (!wanted.has(seen.resource)) continue;
    const where = seen.namespace;
    if (!namespaced || ns === undefined || where === undefined || where === '*' || where === ns)
      return verdict(true, expected, msg('check.history.observed.found', { line: seen.line }));
    elsewhere ??= seen.line;
  }
  if (elsewhere !== undefined)
    return verdict(
      false,
      expected,
      msg('check.looked.observed.otherNamespace', { line: elsewhere, namespace: ns ?? '', example }),
    );
  // A line that asked for them but showed nothing: it failed, or its output never reached the screen.
  const tried = env.history.find((line) =>
    commandsOf(line).some((words) => {
      const show = kubectlShow(words);
      return show && SHOWING_VERBS.has(show.verb) && show.resources.some((r) => wanted.has(r));
    }),
  );
  return verdict(
    false,
    expected,
    tried !== undefined
      ? msg('check.looked.observed.notShown', { line: tried, example })
      : msg('check.looked.observed.none', { count: env.history.length, example }),
  );
};
