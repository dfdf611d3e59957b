/**
 * `type: dns`: a lookup from a pod, as a program in it would make it (resolv.conf search list and
 * ndots, the image's C library), resolves or not, contains the wanted addresses, and sends at most
 * `maxQueries` queries (the ndots lesson: `api.shop` from another namespace costs several).
 */
import { msg } from '../messages/format.ts';
import { isUnavailable } from '../probes.ts';
import { errorVerdict, fail, verdict, type Verdict } from '../result.ts';
import { clientLabel, resolveClient } from './client.ts';
import type { Evaluator } from './env.ts';
import { listed } from './objects.ts';

export const evaluateDns: Evaluator<'dns'> = (check, env): Verdict => {
  const { resolves, answers, maxQueries } = check.expect;
  const limit =
    maxQueries === undefined ? '' : msg('check.dns.limit', { max: maxQueries, count: maxQueries });
  const base = { name: check.name, from: clientLabel(check.from), limit };
  const expected = !resolves
    ? msg('check.dns.expected.fails', base)
    : answers
      ? msg('check.dns.expected.answers', { ...base, answers: [...answers] })
      : msg('check.dns.expected.resolves', base);
  const client = resolveClient(check.from, env);
  if ('problem' in client) return fail(expected, client.problem);
  const outcome = env.probes.lookup(env.probeCluster(), client, check.name);
  if (isUnavailable(outcome))
    return errorVerdict(expected, msg('check.error.unavailable', { feature: outcome.unavailable }));
  const resolved = outcome.addresses.length > 0 && outcome.error === undefined;
  const observed = resolved
    ? msg('check.dns.observed.resolved', { answers: listed(outcome.addresses), count: outcome.queries })
    : msg('check.dns.observed.failed', { error: outcome.error ?? 'no answer', count: outcome.queries });
  let ok = resolved === resolves;
  if (ok && answers) ok = answers.every((a) => outcome.addresses.includes(a));
  if (ok && maxQueries !== undefined) ok = outcome.queries <= maxQueries;
  return verdict(ok, expected, observed);
};
