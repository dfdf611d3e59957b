/**
 * The field schema of every kind the engine serves, generated from `kubernetes-types` (and
 * `crd-types.ts`) by `scripts/gen-k8s-schema.mjs`. The API server decodes manifests against it
 * (unknown fields, JSON type errors) and `kubectl explain` prints its descriptions and types.
 *
 * Nodes keep JSON-Schema words: a struct has `properties`/`required`, a map has `additionalProperties`,
 * an array has `items`; `$ref` names a shared definition (`io.k8s.api.core.v1.PodSpec`).
 */
import data from './k8s-schema.json' with { type: 'json' };

export type SchemaType =
  | 'string'
  | 'boolean'
  | 'integer'
  | 'number'
  | 'object'
  | 'array'
  | 'int-or-string'
  | 'any';

export interface SchemaNode {
  readonly type?: SchemaType;
  readonly $ref?: string;
  readonly description?: string;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly required?: readonly string[];
  readonly items?: SchemaNode;
  readonly additionalProperties?: SchemaNode;
  readonly enum?: readonly (string | number | boolean)[];
  /** int32 | int64 | byte (base64 in JSON) | quantity | date-time. */
  readonly format?: string;
  /** The Go type where decoding errors name one the JSON type does not tell (`v1.Protocol`). */
  readonly 'x-go-type'?: string;
}

export interface KindSchemaEntry {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly definition: string;
}

interface SchemaFile {
  readonly kinds: readonly KindSchemaEntry[];
  readonly definitions: Readonly<Record<string, SchemaNode>>;
}

const SCHEMA = data as SchemaFile;
const DEFINITIONS = new Map(Object.entries(SCHEMA.definitions));

export function definition(name: string): SchemaNode | undefined {
  return DEFINITIONS.get(name);
}

/** The entry of a kind; `apiVersion` disambiguates when given (`apps/v1`, `v1`). */
export function kindEntry(kind: string, apiVersion?: string): KindSchemaEntry | undefined {
  return SCHEMA.kinds.find(
    (k) =>
      k.kind === kind &&
      (apiVersion === undefined || (k.group ? `${k.group}/${k.version}` : k.version) === apiVersion),
  );
}

/** The root schema of a kind (the definition of `Pod`, `Deployment`, …), or undefined for an unknown kind. */
export function fieldSchema(kind: string, apiVersion?: string): SchemaNode | undefined {
  const entry = kindEntry(kind, apiVersion);
  return entry ? definition(entry.definition) : undefined;
}

/**
 * Follows `$ref`. The referencing node's description wins: a field's own text (`spec`: "Specification
 * of the desired behavior of the pod") is more specific than its type's ("PodSpec is a description of
 * a pod").
 */
export function resolveNode(node: SchemaNode): SchemaNode {
  if (!node.$ref) return node;
  const target = DEFINITIONS.get(node.$ref);
  if (!target) return node;
  return node.description ? { ...target, description: node.description } : target;
}

/** A field found by `lookupPath`. */
export interface FieldInfo {
  /** The path as walked, e.g. ['spec', 'containers', 'ports']. */
  readonly path: readonly string[];
  /** The field's node with `$ref` resolved (for arrays and maps: the array or map node itself). */
  readonly node: SchemaNode;
  readonly description: string;
  /** As `kubectl explain` prints it between angle brackets: `[]Container`, `map[string]string`, `integer`. */
  readonly typeName: string;
  readonly required: boolean;
  /** The struct whose fields `kubectl explain` lists under FIELDS (array items and map values unwrapped). */
  readonly fields: Readonly<Record<string, SchemaNode>> | undefined;
  readonly requiredFields: readonly string[];
}

/**
 * Walks `path` (dotted string or segments) from a kind's root, stepping through arrays and maps as
 * `kubectl explain pod.spec.containers.ports` does. An empty path is the kind itself.
 */
export function lookupPath(
  kind: string,
  path: string | readonly string[],
  apiVersion?: string,
): FieldInfo | undefined {
  const root = fieldSchema(kind, apiVersion);
  if (!root) return undefined;
  const segments = typeof path === 'string' ? path.split('.').filter((s) => s !== '') : path;
  let node: SchemaNode = root;
  let required = false;
  for (const segment of segments) {
    const struct = resolveNode(elementOf(node));
    const child =
      struct.properties && Object.hasOwn(struct.properties, segment) ? struct.properties[segment] : undefined;
    if (!child) return undefined;
    required = struct.required?.includes(segment) ?? false;
    node = child;
  }
  const resolved = resolveNode(node);
  const inner = resolveNode(elementOf(resolved));
  return {
    path: [...segments],
    node: resolved,
    description: resolved.description ?? '',
    typeName: explainTypeName(node),
    required,
    fields: inner.properties,
    requiredFields: inner.required ?? [],
  };
}

/** Array items and map values, unwrapped until a struct or a scalar. */
function elementOf(node: SchemaNode): SchemaNode {
  let n = resolveNode(node);
  while (n.items || n.additionalProperties) n = resolveNode((n.items ?? n.additionalProperties)!);
  return n;
}

/** kubectl explain's `typeGuess`: `[]` and `map[string]` prefixes, the referenced struct's short name, `Object`. */
export function explainTypeName(node: SchemaNode): string {
  if (node.items) return `[]${explainTypeName(node.items)}`;
  if (node.additionalProperties) return `map[string]${explainTypeName(node.additionalProperties)}`;
  if (node.$ref) return node.$ref.slice(node.$ref.lastIndexOf('.') + 1);
  if (node.format === 'quantity') return 'Quantity';
  switch (node.type) {
    case 'int-or-string':
      return 'IntOrString';
    case 'object':
    case 'any':
    case undefined:
      return 'Object';
    default:
      return node.type;
  }
}

/**
 * The Go type a JSON decoding error names for this node, as `reflect.Type.String()` prints it:
 * `int32`, `v1.Protocol`, `[]v1.Container`, `map[string]string`.
 */
export function goTypeName(node: SchemaNode): string {
  if (node['x-go-type']) return node['x-go-type'];
  if (node.$ref) {
    const short = node.$ref.slice(node.$ref.lastIndexOf('.') + 1);
    const pkg = node.$ref.slice(0, node.$ref.lastIndexOf('.'));
    return `${pkg.slice(pkg.lastIndexOf('.') + 1)}.${short}`;
  }
  if (node.items) return `[]${goTypeName(node.items)}`;
  if (node.additionalProperties) {
    const value = node.additionalProperties;
    return `map[string]${value.format === 'byte' ? '[]uint8' : goTypeName(value)}`;
  }
  switch (node.type) {
    case 'string':
      return node.format === 'quantity' ? 'resource.Quantity' : 'string';
    case 'boolean':
      return 'bool';
    case 'integer':
      return node.format === 'int64' ? 'int64' : 'int32';
    case 'number':
      return 'float64';
    case 'int-or-string':
      return 'intstr.IntOrString';
    default:
      return 'interface {}';
  }
}
