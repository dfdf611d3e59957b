/**
 * `type: connections`: the whole set of connections NetworkPolicy allows at one end equals the intended
 * set — every pod pair and listening port the dataplane's policy matrix covers, not a few probes. With
 * `direction: ingress` the check asks who the `pods` admit, judging each source as if its own egress were
 * open (so "allow the whole namespace" fails even when the other pods' egress happens to be closed);
 * with `direction: egress`, where the `pods` may send, as if every destination admitted them. A mismatch
 * names the connections too many (with the rule that allowed them) or missing. It grades the policies
 * as written: on a CNI that does not enforce them it still says what they would allow (traffic checks
 * say what gets through).
 */
import { parseSelector, selectorMatches, type AnyObject, type MatrixCell } from '../engine-api.ts';
import { msg } from '../messages/format.ts';
import { isUnavailable } from '../probes.ts';
import { errorVerdict, verdict, type Verdict } from '../result.ts';
import type { CheckOf } from '../check-schema.ts';
import type { CheckEnv, Evaluator } from './env.ts';

/** A mismatch message lists at most this many connections of each kind. */
const MAX_SHOWN = 4;

type Peer = CheckOf<'connections'>['allowed'][number];

function labelsOf(env: CheckEnv, ref: { namespace: string; name: string }): AnyObject['metadata']['labels'] {
  return env.cluster.view().get('pods', ref.namespace, ref.name)?.metadata.labels;
}

function inGroup(
  env: CheckEnv,
  ref: { namespace: string; name: string },
  group: { namespace?: string | undefined; selector?: string | undefined },
): boolean {
  if (group.namespace !== undefined && ref.namespace !== group.namespace) return false;
  return group.selector === undefined || selectorMatches(parseSelector(group.selector), labelsOf(env, ref));
}

function intended(
  env: CheckEnv,
  peer: { namespace: string; name: string },
  cell: MatrixCell,
  allowed: readonly Peer[],
): boolean {
  return allowed.some(
    (a) =>
      inGroup(env, peer, a) &&
      (a.ports === undefined || a.ports.includes(cell.port)) &&
      (a.protocol === undefined || a.protocol === cell.protocol),
  );
}

const connection = (c: MatrixCell): string =>
  `${c.from.namespace}/${c.from.name} → ${c.to.namespace}/${c.to.name}:${c.port}/${c.protocol}`;

export const evaluateConnections: Evaluator<'connections'> = (check, env): Verdict => {
  const ingress = check.direction === 'ingress';
  const pods = `${check.pods.selector ?? '*'} (${check.pods.namespace})`;
  const peers = check.allowed.map(
    (a) =>
      `${a.selector ?? '*'} (${a.namespace ?? '*'})${a.ports ? `:${a.ports.join(',')}` : ''}${a.protocol ? `/${a.protocol}` : ''}`,
  );
  const expected = msg(ingress ? 'check.connections.expected.ingress' : 'check.connections.expected.egress', {
    pods,
    peers: peers.length ? peers : ['-'],
  });
  const cells = env.probes.connections?.(env.probeCluster()) ?? {
    unavailable: 'the NetworkPolicy matrix (dataplane reachabilityMatrix)',
  };
  if (isUnavailable(cells))
    return errorVerdict(expected, msg('check.error.unavailable', { feature: cells.unavailable }));
  const extra: MatrixCell[] = [];
  const missing: MatrixCell[] = [];
  for (const cell of cells) {
    const [mine, peer] = ingress ? [cell.to, cell.from] : [cell.from, cell.to];
    if (!inGroup(env, mine, check.pods)) continue;
    // The policies as written: on a CNI that does not enforce them, what they would allow.
    const side = cell.sides ? (ingress ? cell.sides.ingress : cell.sides.egress) : undefined;
    const allowed = side ? side.allowed : cell.verdict === 'allowed';
    const want = intended(env, peer, cell, check.allowed);
    if (allowed && !want) extra.push(cell);
    if (!allowed && want) missing.push(cell);
  }
  if (extra.length === 0 && missing.length === 0)
    return verdict(true, expected, msg('check.connections.observed.same', { count: cells.length }));
  const parts = [];
  if (extra.length > 0) {
    const shown = extra.slice(0, MAX_SHOWN).map((c) => {
      const by = ingress ? c.sides?.ingress.allowedBy : c.sides?.egress.allowedBy;
      return by
        ? msg('check.connections.allowedBy', {
            connection: connection(c),
            policy: `${by.namespace}/${by.name}`,
            rule: by.rule + 1,
          })
        : msg('check.connections.notIsolated', { connection: connection(c) });
    });
    parts.push(msg('check.connections.observed.extra', { count: extra.length, connections: shown }));
  }
  if (missing.length > 0)
    parts.push(
      msg('check.connections.observed.missing', {
        count: missing.length,
        connections: missing.slice(0, MAX_SHOWN).map(connection),
      }),
    );
  return verdict(false, expected, parts.length === 1 ? parts[0]! : msg('check.list', { items: parts }));
};
