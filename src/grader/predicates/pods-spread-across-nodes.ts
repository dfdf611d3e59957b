/**
 * `pods-spread-across-nodes`: the running pods a selector matches are scheduled on at least `min`
 * distinct nodes (the topology-spread and anti-affinity labs). Data checks count objects but cannot
 * count *distinct values of a field*, hence a predicate.
 */
import { z } from 'zod';
import { parseSelector, selectorMatches } from '../engine-api.ts';
import { msg } from '../messages/format.ts';
import { errorVerdict, verdict } from '../result.ts';
import { listed } from '../checks/objects.ts';
import type { Predicate } from './types.ts';

const Params = z
  .object({
    namespace: z.string().min(1).default('default'),
    selector: z.string().min(1),
    min: z.number().int().positive().default(2),
  })
  .strict();

export const podsSpreadAcrossNodes: Predicate = {
  description: 'The running pods matching `selector` in `namespace` run on at least `min` distinct nodes.',
  params: Params,
  evaluate(raw, env) {
    const parsed = Params.safeParse(raw);
    if (!parsed.success) {
      const detail = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      const problem = msg('check.error.invalid', { detail: `pods-spread-across-nodes params: ${detail}` });
      return errorVerdict(problem, problem);
    }
    const { namespace, selector, min } = parsed.data;
    const expected = msg('predicate.spread.expected', { selector, namespace, min });
    const sel = parseSelector(selector);
    const nodes = new Set<string>();
    for (const pod of env.cluster.view().list('pods', namespace)) {
      const spec = pod.spec as { nodeName?: string } | undefined;
      const phase = (pod.status as { phase?: string } | undefined)?.phase;
      if (spec?.nodeName && phase === 'Running' && selectorMatches(sel, pod.metadata.labels))
        nodes.add(spec.nodeName);
    }
    const names = [...nodes].sort();
    const observed =
      names.length === 0
        ? msg('predicate.spread.none')
        : msg('predicate.spread.observed', { count: names.length, nodes: listed(names) });
    return verdict(names.length >= min, expected, observed);
  },
};
