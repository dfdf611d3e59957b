/**
 * Decoding a manifest into a kind's fields, as kube-apiserver's JSON serializer does with
 * `sigs.k8s.io/json` `UnmarshalStrict` (a fork of Go's encoding/json): known fields are copied, unknown
 * ones are collected as `unknown field "spec.containers[0].foo"` (at most 100), the first JSON type
 * mismatch is kept as Go prints it (`json: cannot unmarshal string into Go struct field
 * DeploymentSpec.spec.replicas of type int32`), and errors raised by custom unmarshalers (IntOrString,
 * Quantity, Time) end decoding at once, as they do in Go.
 *
 * Kubernetes' serializer walks the JSON kubectl sent, whose object keys Go's encoder sorted; we walk in
 * sorted key order too, so the first error and the unknown-field list come out in the same order.
 *
 * The walk is iterative and follows the schema, so its depth is bounded by the schema, never by the
 * input. Output objects get keys through `setOwn`, so a `__proto__` key stays inert data.
 */
import { goTypeName, resolveNode, type SchemaNode } from '../api/schema/field-schema.ts';
import { isPlainObject } from '../util/json.ts';
import { boundedClone, setOwn, sortedKeys, zeroValue } from './json-values.ts';
import { QUANTITY_ERROR, base64ErrorIndex, quantityError, timeError } from './json-literals.ts';

export { setOwn };

export interface DecodeResult {
  readonly value: Record<string, unknown>;
  /** `unknown field "spec.foo"` texts, in the order Go reports them. */
  readonly unknownFields: readonly string[];
  /** The error `json.Unmarshal` returns (saved type error, or the first unmarshaler failure). */
  readonly error: string | undefined;
  /** CRD-style (OpenAPI) type and value problems, for kinds validated by a structural schema. */
  readonly schemaErrors: readonly SchemaProblem[];
}

export interface SchemaProblem {
  readonly kind: 'type' | 'required' | 'enum';
  /** `spec.listeners[0].port`. */
  readonly path: string;
  readonly expected?: string;
  readonly actual?: string;
  readonly value?: unknown;
  readonly allowed?: readonly (string | number | boolean)[];
}

/** `sigs.k8s.io/json` keeps at most this many strict errors. */
const MAX_STRICT_ERRORS = 100;

interface Task {
  readonly value: unknown;
  readonly node: SchemaNode;
  /**
   * Where the value sits, relative to `parent`: a key (`.key`) or an index (`[i]`). The strict-error
   * path (`spec.containers[0]`) and Go's field chain are derived from these only when an error needs
   * them (pathOf, fieldsOf), not built for every field decoded.
   */
  readonly parent?: Task;
  readonly key?: string;
  readonly index?: number;
  /** Whether `key` is a struct field (part of Go's field chain) rather than a map key. */
  readonly field?: boolean;
  /** Go error context: the struct holding the current field. */
  readonly struct: string;
  /** Where the decoded value goes (under `key`, or `index` for an array); none for the root. */
  readonly into?: Record<string, unknown> | unknown[];
  /** A key the struct does not have: reported when the walk reaches it, in document order. */
  readonly unknown?: boolean;
}

/** Stores a decoded value where its task says (the root task's value is the output itself). */
function assign(t: Task, value: unknown): void {
  if (t.into) setOwn(t.into, t.index ?? t.key ?? '', value);
}

/** Strict-error path with indices: `spec.containers[0]`. */
function pathOf(t: Task): string {
  if (!t.parent) return '';
  const base = pathOf(t.parent);
  return t.index !== undefined ? `${base}[${t.index}]` : joinPath(base, t.key ?? '');
}

/** The JSON names of the struct fields leading here (Go's `Struct.field.field` context). */
function fieldsOf(t: Task): string[] {
  if (!t.parent) return [];
  const base = fieldsOf(t.parent);
  if (t.field) base.push(t.key ?? '');
  return base;
}

/** The JSON kind of a value, as Go's UnmarshalTypeError names it. */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'string') return 'string';
  return 'object';
}

/** The JSON-Schema type name the OpenAPI validator reports for a value. */
function openApiKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'string' || typeof v === 'boolean') return typeof v === 'string' ? 'string' : 'boolean';
  return 'object';
}

const INT_RANGES: Record<string, [number, number]> = {
  int32: [-2147483648, 2147483647],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

export function decodeAgainstSchema(
  input: Record<string, unknown>,
  root: SchemaNode,
  rootStruct: string,
  opts: { readonly structural: boolean },
): DecodeResult {
  const out: Record<string, unknown> = {};
  const unknownFields: string[] = [];
  const schemaErrors: SchemaProblem[] = [];
  let saved: string | undefined;
  let fatal: string | undefined;
  const save = (message: string) => {
    if (saved === undefined) saved = message;
  };
  const typeError = (t: Task, value: unknown, goType: string, valueText = jsonKind(value)) => {
    if (opts.structural) {
      schemaErrors.push({
        kind: 'type',
        path: pathOf(t),
        expected: resolveNode(t.node).type ?? 'object',
        actual: openApiKind(value),
        value,
      });
      return;
    }
    const fields = fieldsOf(t);
    const where = fields.length > 0 ? `Go struct field ${t.struct}.${fields.join('.')}` : 'Go value';
    save(`json: cannot unmarshal ${valueText} into ${where} of type ${goType}`);
  };

  const stack: Task[] = [];
  const pushStruct = (t: Task, node: SchemaNode, struct: string, target: Record<string, unknown>) => {
    const obj = t.value as Record<string, unknown>;
    const props = node.properties ?? {};
    const keys = sortedKeys(obj);
    if (opts.structural) {
      for (const req of node.required ?? []) {
        if ((obj[req] === undefined || obj[req] === null) && !(pathOf(t) === '' && req === 'status')) {
          schemaErrors.push({ kind: 'required', path: joinPath(pathOf(t), req) });
        }
      }
    }
    // Pushed in reverse so the stack pops them in sorted order.
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      const child = Object.hasOwn(props, key) ? props[key] : undefined;
      if (!child) {
        stack.push({
          value: undefined,
          node: {},
          parent: t,
          key,
          struct,
          unknown: true,
        });
        continue;
      }
      const v = obj[key];
      if (v === null || v === undefined) continue;
      stack.push({
        value: v,
        node: child,
        parent: t,
        key,
        field: true,
        struct,
        into: target,
      });
    }
  };

  const rootNode = resolveNode(root);
  pushStruct({ value: input, node: rootNode, struct: rootStruct }, rootNode, rootStruct, out);

  // Unknown fields found after a fatal error are not reported: decoding stopped there.
  let unknownAtFatal = 0;
  while (stack.length > 0 && fatal === undefined) {
    const t = stack.pop()!;
    if (t.unknown) {
      if (unknownFields.length < MAX_STRICT_ERRORS) unknownFields.push(`unknown field "${pathOf(t)}"`);
      continue;
    }
    const node = resolveNode(t.node);
    const v = t.value;
    if (node.enum && opts.structural && !node.enum.includes(v as string)) {
      if (typeof v === typeof node.enum[0]) {
        schemaErrors.push({ kind: 'enum', path: pathOf(t), value: v, allowed: node.enum });
        continue;
      }
    }
    switch (node.type) {
      case 'any':
        assign(t, boundedClone(v));
        break;
      case 'string':
        if (node.format === 'quantity') {
          const text = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : undefined;
          const problem = text === undefined ? QUANTITY_ERROR : quantityError(text);
          if (problem !== undefined) {
            fatal = problem;
            unknownAtFatal = unknownFields.length;
          } else assign(t, text);
        } else if (typeof v !== 'string') {
          if (node.format === 'date-time' && !opts.structural) {
            fatal = `json: cannot unmarshal ${jsonKind(v)} into Go value of type string`;
            unknownAtFatal = unknownFields.length;
          } else typeError(t, v, goTypeName(node));
        } else if (node.format === 'date-time' && timeError(v) !== undefined && !opts.structural) {
          fatal = timeError(v);
          unknownAtFatal = unknownFields.length;
        } else if (node.format === 'byte') {
          const bad = base64ErrorIndex(v);
          if (bad !== undefined) save(`illegal base64 data at input byte ${bad}`);
          else assign(t, v);
        } else assign(t, v);
        break;
      case 'boolean':
        if (typeof v === 'boolean') assign(t, v);
        else typeError(t, v, 'bool');
        break;
      case 'integer':
      case 'number': {
        if (typeof v !== 'number') {
          typeError(t, v, goTypeName(node));
          break;
        }
        const [lo, hi] = INT_RANGES[node.format ?? 'int32'] ?? INT_RANGES.int32!;
        if (node.type === 'integer' && (!Number.isInteger(v) || v < lo || v > hi)) {
          typeError(t, v, goTypeName(node), `number ${String(v)}`);
        } else assign(t, v);
        break;
      }
      case 'int-or-string':
        // intstr.IntOrString.UnmarshalJSON: strings are names, anything else must decode as an int32 (with
        // the standard library, so the error has no struct context).
        if (
          typeof v === 'string' ||
          (typeof v === 'number' && Number.isInteger(v) && v >= -2147483648 && v <= 2147483647)
        ) {
          assign(t, v);
        } else if (opts.structural) {
          typeError(t, v, 'int32');
        } else {
          fatal = `json: cannot unmarshal ${typeof v === 'number' ? `number ${String(v)}` : jsonKind(v)} into Go value of type int32`;
          unknownAtFatal = unknownFields.length;
        }
        break;
      case 'array': {
        if (!Array.isArray(v)) {
          typeError(t, v, goTypeName(node));
          break;
        }
        const arr: unknown[] = [];
        assign(t, arr);
        const items = node.items ?? { type: 'any' };
        for (let i = v.length - 1; i >= 0; i--) {
          const item: unknown = v[i];
          if (item === null || item === undefined) {
            setOwn(arr, i, zeroValue(items));
            continue;
          }
          stack.push({
            value: item,
            node: items,
            parent: t,
            index: i,
            struct: t.struct,
            into: arr,
          });
        }
        break;
      }
      default: {
        if (!isPlainObject(v)) {
          typeError(t, v, goTypeName(t.node));
          break;
        }
        const target: Record<string, unknown> = {};
        assign(t, target);
        if (node.additionalProperties) {
          const values = node.additionalProperties;
          const keys = sortedKeys(v);
          for (let i = keys.length - 1; i >= 0; i--) {
            const key = keys[i]!;
            const item = v[key];
            if (item === null || item === undefined) {
              setOwn(target, key, zeroValue(values));
              continue;
            }
            stack.push({
              value: item,
              node: values,
              parent: t,
              key,
              struct: t.struct,
              into: target,
            });
          }
        } else {
          const struct = t.node.$ref ? t.node.$ref.slice(t.node.$ref.lastIndexOf('.') + 1) : t.struct;
          pushStruct(t, node, struct, target);
        }
      }
    }
  }
  return {
    value: out,
    unknownFields: fatal !== undefined ? unknownFields.slice(0, unknownAtFatal) : unknownFields,
    error: fatal ?? saved,
    schemaErrors,
  };
}

function joinPath(prefix: string, key: string): string {
  return prefix ? `${prefix}.${key}` : key;
}
