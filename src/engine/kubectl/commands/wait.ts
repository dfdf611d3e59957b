/**
 * `kubectl wait --for=condition=Ready|delete|create|jsonpath='{…}'=value TYPE/NAME … --timeout=30s`
 * (pkg/cmd/wait), advancing the simulated clock. Prints `pod/web condition met` per object, or
 * `error: timed out waiting for the condition on pods/web`.
 */
import type { AnyObject } from '../../api/objects.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError } from '../errors.ts';
import { evaluateJsonPath, formatValue, parseJsonPath } from '../printers/jsonpath.ts';
import { relaxedJsonPath } from '../printers/jsonpath.ts';
import {
  fetchRefs,
  kindPrefix,
  parseLabelSelector,
  parseResourceArgs,
  type Fetched,
} from '../resource-args.ts';
import { reportErrors } from './create.ts';

type Condition =
  | { kind: 'delete' }
  | { kind: 'create' }
  | { kind: 'condition'; type: string; value: string }
  | { kind: 'jsonpath'; path: string; value: string | undefined };

function parseFor(text: string): Condition {
  const lower = text.toLowerCase();
  if (lower === 'delete') return { kind: 'delete' };
  if (lower === 'create') return { kind: 'create' };
  if (lower.startsWith('condition=')) {
    const rest = text.slice('condition='.length);
    const eq = rest.indexOf('=');
    return eq < 0
      ? { kind: 'condition', type: rest, value: 'true' }
      : { kind: 'condition', type: rest.slice(0, eq), value: rest.slice(eq + 1) };
  }
  if (lower.startsWith('jsonpath=')) {
    const rest = text.slice('jsonpath='.length);
    const close = rest.lastIndexOf('}');
    if (!rest.startsWith('{') || close < 0) throw cmdError(`unrecognized condition: "${text}"`);
    const path = rest.slice(0, close + 1);
    const after = rest.slice(close + 1);
    if (after !== '' && !after.startsWith('=')) throw cmdError(`unrecognized condition: "${text}"`);
    return { kind: 'jsonpath', path, value: after === '' ? undefined : after.slice(1) };
  }
  throw cmdError(`unrecognized condition: "${text}"`);
}

function holds(c: Condition, obj: AnyObject | undefined): boolean {
  switch (c.kind) {
    case 'delete':
      return obj === undefined;
    case 'create':
      return obj !== undefined;
    case 'condition': {
      const conds =
        (obj?.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? [];
      return conds.some(
        (x) =>
          x.type.toLowerCase() === c.type.toLowerCase() && x.status.toLowerCase() === c.value.toLowerCase(),
      );
    }
    case 'jsonpath': {
      if (!obj) return false;
      const values = evaluateJsonPath(parseJsonPath(relaxedJsonPath(c.path)), obj);
      if (c.value === undefined) return values.length > 0;
      return values.length > 0 && values.every((v) => formatValue(v) === c.value);
    }
  }
}

export function runWait(ctx: KubectlContext): number {
  const f = ctx.flags;
  const cond = parseFor(f.string('for'));
  if (f.args.length === 0 && f.array('filename').length === 0)
    throw cmdError('resource(s) were provided, but no name was specified');
  const refs = parseResourceArgs(f.args);
  const fieldSelector = f.string('field-selector');
  if (
    !f.bool('all') &&
    f.string('selector') === '' &&
    fieldSelector === '' &&
    refs.some((r) => r.name === undefined)
  ) {
    throw cmdError('resource(s) were provided, but no name was specified');
  }
  const fetch = (): { found: Fetched[]; errors: Error[] } =>
    fetchRefs(ctx.host.api, refs, {
      namespace: ctx.namespace,
      allNamespaces: ctx.allNamespaces,
      selector: parseLabelSelector(f.string('selector')),
      fieldSelector,
      labelSelectorText: f.string('selector'),
    });
  const timeout = f.duration('timeout');
  const errors: unknown[] = [];
  if (cond.kind === 'create') {
    const ok = ctx.host.waitFor(() => fetch().errors.length === 0, timeout);
    if (!ok)
      throw cmdError(
        `timed out waiting for the condition on ${refs.map((r) => `${r.info.plural}/${r.name ?? ''}`).join(', ')}`,
      );
    for (const x of fetch().found) ctx.out(`${kindPrefix(x.info)}/${x.object.metadata.name} condition met\n`);
    return 0;
  }
  const initial = fetch();
  if (cond.kind !== 'delete') errors.push(...initial.errors);
  if (initial.found.length === 0 && initial.errors.length === 0)
    throw cmdError('no matching resources found');
  for (const x of initial.found) {
    const key = x.info.key;
    const ns = x.object.metadata.namespace;
    const name = x.object.metadata.name;
    const current = (): AnyObject | undefined => {
      const o = ctx.host.api.get(key, ns, name) as AnyObject | undefined;
      return o && o.metadata.uid === x.object.metadata.uid ? o : undefined;
    };
    if (!ctx.host.waitFor(() => holds(cond, current()), timeout)) {
      errors.push(
        cmdError(
          `timed out waiting for the condition on ${x.info.group ? `${x.info.plural}.${x.info.group}` : x.info.plural}/${name}`,
        ),
      );
      continue;
    }
    ctx.out(`${kindPrefix(x.info)}/${name} condition met\n`);
  }
  return reportErrors(ctx, errors);
}
