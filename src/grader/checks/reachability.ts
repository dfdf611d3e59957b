/**
 * `type: reachability`: a connection from a pod is allowed, blocked (dropped: the client times out) or
 * refused (a reset or ICMP unreachable), as the engine's dataplane decides it. The result names the
 * hop that decided, so "blocked" says which NetworkPolicy or rule dropped the packet.
 */
import { msg } from '../messages/format.ts';
import { formatProbeTarget, parseProbeTarget } from '../probe-target.ts';
import { hopMessage, isUnavailable, type ReachOutcome } from '../probes.ts';
import { errorVerdict, fail, verdict, type Verdict } from '../result.ts';
import { clientLabel, resolveClient } from './client.ts';
import type { Evaluator } from './env.ts';

const OBSERVED = {
  connected: 'check.reach.observed.allowed',
  timeout: 'check.reach.observed.blocked',
  refused: 'check.reach.observed.refused',
} as const;

const EXPECTED_OUTCOME = { allowed: 'connected', blocked: 'timeout', refused: 'refused' } as const;

export const evaluateReachability: Evaluator<'reachability'> = (check, env): Verdict => {
  const target = parseProbeTarget(check.to, check.port, check.protocol);
  const from = clientLabel(check.from);
  const targetText = 'error' in target ? check.to : formatProbeTarget(target);
  const expected = msg(`check.reach.expected.${check.expect}`, { from, target: targetText });
  if ('error' in target) return errorVerdict(expected, msg('check.error.invalid', { detail: target.error }));
  const client = resolveClient(check.from, env);
  if ('problem' in client) return fail(expected, client.problem);
  const outcome: ReachOutcome | { unavailable: string } = env.probes.reach(
    env.probeCluster(),
    client,
    target,
  );
  if (isUnavailable(outcome))
    return errorVerdict(expected, msg('check.error.unavailable', { feature: outcome.unavailable }));
  if (outcome.kind === 'unresolved') {
    // A name that does not resolve never connects: the client gives up before sending a packet.
    return verdict(false, expected, msg('check.reach.observed.unresolved', { host: outcome.host }));
  }
  const hop = outcome.hop ? msg('hop.decidedBy', { hop: hopMessage(outcome.hop) }) : undefined;
  return verdict(outcome.kind === EXPECTED_OUTCOME[check.expect], expected, msg(OBSERVED[outcome.kind]), hop);
};
