/**
 * `type: looked`: the learner looked at a kind of object — some command they ran printed it. Recognised
 * however it was spelled (checks/kubectl-line.ts): any flag order, `-n` before or after the verb, comma
 * lists (`svc,endpointslices`), `type/name`, short and full resource names, `get` with any `-o` or
 * `describe`, piped through grep. Namespaced kinds count in the namespace the check names (or `-A`).
 * When nothing counts, the message says what would.
 */
import { msg } from '../messages/format.ts';
import { errorVerdict, verdict, type Verdict } from '../result.ts';
import type { Evaluator } from './env.ts';
import { commandsOf, kubectlShow } from './kubectl-line.ts';
import { DEFAULT_NAMESPACE, resolveResource } from './objects.ts';

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
  let near: string | undefined;
  for (const line of env.history) {
    for (const words of commandsOf(line)) {
      const show = kubectlShow(words);
      if (!show || !SHOWING_VERBS.has(show.verb) || !show.resources.some((r) => wanted.has(r))) continue;
      const where = show.namespace ?? DEFAULT_NAMESPACE;
      if (!namespaced || ns === undefined || where === '*' || where === ns)
        return verdict(true, expected, msg('check.history.observed.found', { line }));
      near ??= line;
    }
  }
  const observed =
    near !== undefined
      ? msg('check.looked.observed.otherNamespace', { line: near, namespace: ns ?? '', example })
      : msg('check.looked.observed.none', { count: env.history.length, example });
  return verdict(false, expected, observed);
};
