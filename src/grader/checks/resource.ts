/** `type: resource`: an object exists or not, or a number of objects match. */
import { msg } from '../messages/format.ts';
import { errorVerdict, verdict, type Verdict } from '../result.ts';
import type { Evaluator } from './env.ts';
import {
  listedNames,
  listMatching,
  namespaceFor,
  objectRef,
  resolveResource,
  scopeMessage,
} from './objects.ts';

export const evaluateResource: Evaluator<'resource'> = (check, env): Verdict => {
  const info = resolveResource(check.resource);
  if (!info) {
    const unknown = msg('check.resource.unknownType', { resource: check.resource });
    return errorVerdict(unknown, msg('check.error.invalid', { detail: unknown }));
  }
  const ns = namespaceFor(info, check.namespace);
  if (check.name !== undefined) {
    const ref = objectRef(ns, check.name);
    const found = listMatching(env.cluster, info, ns, check.selector).some(
      (o) => o.metadata.name === check.name,
    );
    const params = { kind: info.kind, ref };
    const expected = msg(
      check.exists ? 'check.resource.expected.exists' : 'check.resource.expected.absent',
      params,
    );
    const observed = msg(found ? 'check.resource.observed.exists' : 'object.notFound', params);
    return verdict(found === check.exists, expected, observed);
  }
  const objects = listMatching(env.cluster, info, ns, check.selector);
  const scope = scopeMessage(ns, check.selector);
  const resource = info.plural;
  const count = objects.length;
  const observed =
    count === 0
      ? msg('check.resource.observed.none')
      : msg('check.resource.observed.found', { count, names: listedNames(objects) });
  if (check.count) {
    const { min, max } = check.count;
    const expected =
      min !== undefined && max !== undefined
        ? msg('check.resource.expected.range', { resource, min, max, scope })
        : min !== undefined
          ? msg('check.resource.expected.min', { resource, min, scope })
          : msg('check.resource.expected.max', { resource, max: max ?? 0, scope });
    return verdict(
      (min === undefined || count >= min) && (max === undefined || count <= max),
      expected,
      observed,
    );
  }
  const expected = msg(check.exists ? 'check.resource.expected.any' : 'check.resource.expected.none', {
    resource,
    scope,
  });
  return verdict(check.exists ? count > 0 : count === 0, expected, observed);
};
