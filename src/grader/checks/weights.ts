/**
 * `type: weights`: a route splits traffic between backends in the wanted proportions. Weights are
 * compared as ratios, as the Gateway API defines them ("proportion of requests forwarded is weight /
 * sum of weights" in the rule; an unset weight is 1), so 9/1 is the same split as 90/10. The rule
 * graded is the first one whose backendRefs name a wanted backend.
 */
import { msg } from '../messages/format.ts';
import { errorVerdict, fail, verdict, type Verdict } from '../result.ts';
import type { Evaluator } from './env.ts';
import { namespaceFor, objectRef, resolveResource } from './objects.ts';

interface BackendRef {
  name?: string;
  weight?: number;
}

function percent(part: number, total: number): string {
  return total === 0 ? '0%' : `${Math.round((part * 1000) / total) / 10}%`;
}

export const evaluateWeights: Evaluator<'weights'> = (check, env): Verdict => {
  const info = resolveResource(check.resource);
  const wanted = Object.entries(check.shares);
  const wantedTotal = wanted.reduce((n, [, w]) => n + w, 0);
  const ns = info ? namespaceFor(info, check.namespace) : check.namespace;
  const ref = objectRef(ns, check.name);
  const split = (pairs: [string, number][], total: number): string[] =>
    pairs.map(([name, w]) => `${name} ${percent(w, total)}`);
  const expected = msg('check.weights.expected', { ref, split: split(wanted, wantedTotal) });
  if (!info) {
    const detail = msg('check.resource.unknownType', { resource: check.resource });
    return errorVerdict(expected, msg('check.error.invalid', { detail }));
  }
  const obj = env.cluster.view().get(info.key, ns, check.name);
  if (!obj) return fail(expected, msg('object.notFound', { kind: info.kind, ref }));
  const rules = ((obj.spec as { rules?: { backendRefs?: BackendRef[] }[] } | undefined)?.rules ?? []).map(
    (r) => r.backendRefs ?? [],
  );
  const refs = rules.find((r) => r.some((b) => b.name !== undefined && Object.hasOwn(check.shares, b.name)));
  if (!refs)
    return fail(expected, msg('check.weights.observed.noRule', { backends: Object.keys(check.shares) }));
  const got = new Map<string, number>();
  for (const b of refs) got.set(b.name ?? '?', (got.get(b.name ?? '?') ?? 0) + (b.weight ?? 1));
  const total = [...got.values()].reduce((n, w) => n + w, 0);
  const names = [...new Set([...got.keys(), ...Object.keys(check.shares)])];
  // Same proportions: got/total == share/wantedTotal for every backend, compared without rounding.
  const ok =
    total > 0 && names.every((n) => (got.get(n) ?? 0) * wantedTotal === (check.shares[n] ?? 0) * total);
  const observed = msg('check.weights.observed', {
    split: split(
      names.map((n) => [n, got.get(n) ?? 0]),
      total,
    ),
    weights: names.map((n) => `${n}=${got.get(n) ?? 0}`),
  });
  return verdict(ok, expected, observed);
};
