/**
 * The editor's Kubernetes JSON Schema, derived from the one schema the engine already has
 * (`src/engine/api/schema/k8s-schema.json`, generated at build time from kubernetes-types by
 * scripts/gen-k8s-schema.mjs, no network). That file uses a few words of its own (`int-or-string`,
 * `any`, bare definition names in `$ref`, `x-go-type`); this turns them into draft-07 JSON Schema for
 * monaco-yaml: one `oneOf` branch per kind the engine serves, structs closed (unknown fields are
 * flagged, as the API server's strict decoding flags them), maps open.
 */
import { k8sSchema as source } from '../engine/data.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Node = { [key: string]: Json };

interface SourceSchema {
  readonly kinds: readonly { group: string; version: string; kind: string; definition: string }[];
  readonly definitions: Readonly<Record<string, Node>>;
}

function convert(node: Json): Json {
  if (Array.isArray(node)) return node.map(convert);
  if (node === null || typeof node !== 'object') return node;
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'x-go-type') continue;
    if (key === '$ref' && typeof value === 'string') out.$ref = `#/definitions/${value}`;
    else if (key === 'properties' && value && typeof value === 'object' && !Array.isArray(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v)]));
    } else out[key] = convert(value);
  }
  if (out.type === 'int-or-string') {
    delete out.type;
    out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  } else if (out.type === 'any') {
    delete out.type;
  }
  if (out.format === 'quantity') {
    delete out.format;
    delete out.type;
    out.anyOf = [{ type: 'string' }, { type: 'number' }];
  } else if (out.format !== 'date-time') delete out.format;
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  // An apiVersion/kind pinned to one value: `const` makes monaco-yaml pick the right kind.
  const props = out.properties;
  if (props && typeof props === 'object' && !Array.isArray(props)) {
    for (const k of ['apiVersion', 'kind']) {
      const p = props[k];
      if (p && typeof p === 'object' && !Array.isArray(p) && Array.isArray(p.enum) && p.enum.length === 1) {
        p.const = p.enum[0] ?? null;
      }
    }
  }
  return out;
}

/** The JSON Schema for one manifest document of any kind the engine serves. */
export function kubernetesJsonSchema(schema: SourceSchema = source as unknown as SourceSchema): Node {
  const definitions: Node = {};
  for (const [name, node] of Object.entries(schema.definitions)) definitions[name] = convert(node);
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Kubernetes manifest (Packet Path)',
    oneOf: schema.kinds.map((k) => ({ $ref: `#/definitions/${k.definition}` })),
    definitions,
  };
}
