/**
 * `type: field`: one field of one object, read with kubectl's JSONPath. `equals` compares the value as
 * JSON (`equals: 80` matches the number 80), or as printed text when `equals` is a string, so
 * `equals: "80"` matches too; several results compare as a list. `matches` tests the text
 * `kubectl get -o jsonpath=…` would print.
 */
import {
  evaluateJsonPath,
  executeJsonPath,
  jsonEqual,
  parseJsonPath,
  relaxedJsonPath,
} from '../engine-api.ts';
import { msg, type Message } from '../messages/format.ts';
import { errorVerdict, fail, verdict, type Verdict } from '../result.ts';
import type { Evaluator } from './env.ts';
import { namespaceFor, objectRef, resolveResource } from './objects.ts';

const MAX_VALUE_CHARS = 200;

function printed(v: unknown): string {
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
}

function sameValue(actual: unknown, wanted: unknown): boolean {
  if (jsonEqual(actual, wanted)) return true;
  return typeof wanted === 'string' && typeof actual !== 'object' && String(actual) === wanted;
}

export const evaluateField: Evaluator<'field'> = (check, env): Verdict => {
  const info = resolveResource(check.resource);
  const kind = info?.kind ?? check.resource;
  const ns = info ? namespaceFor(info, check.namespace) : check.namespace;
  const ref = objectRef(ns, check.name);
  const base = { path: check.path, kind, ref };
  const expected: Message =
    check.equals !== undefined
      ? msg('check.field.expected.equals', { ...base, value: printed(check.equals) })
      : msg('check.field.expected.matches', { ...base, pattern: check.matches ?? '' });
  if (!info) {
    return errorVerdict(
      expected,
      msg('check.error.invalid', { detail: msg('check.resource.unknownType', { resource: check.resource }) }),
    );
  }
  let nodes: ReturnType<typeof parseJsonPath>;
  try {
    nodes = parseJsonPath(relaxedJsonPath(check.path));
  } catch (e) {
    return errorVerdict(
      expected,
      msg('check.error.invalid', { detail: `JSONPath ${check.path}: ${(e as Error).message}` }),
    );
  }
  const obj = env.cluster.view().get(info.key, ns, check.name);
  if (!obj) return fail(expected, msg('object.notFound', { kind, ref }));
  const values = evaluateJsonPath(nodes, obj).filter((v) => v !== undefined);
  const observed =
    values.length === 0
      ? msg('check.field.observed.missing')
      : values.length === 1
        ? msg('check.field.observed.value', { value: printed(values[0]) })
        : msg('check.field.observed.values', { count: values.length, value: printed(values) });
  let ok = true;
  if (check.equals !== undefined) {
    ok =
      values.length === 1
        ? sameValue(values[0], check.equals)
        : values.length > 1 && jsonEqual(values, check.equals);
  }
  if (ok && check.matches !== undefined) ok = new RegExp(check.matches).test(executeJsonPath(nodes, obj));
  return verdict(ok, expected, observed);
};
