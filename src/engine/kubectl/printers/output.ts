/**
 * kubectl's generic printers: `-o yaml|json|name|jsonpath=…|jsonpath-as-json=…|custom-columns=…`.
 * Objects read from the server are unstructured maps in kubectl, and Go marshals maps with sorted
 * keys, so `get -o yaml/json` prints every mapping in alphabetical key order. YAML goes through
 * sigs.k8s.io/yaml (go-yaml v2: YAML 1.1 quoting, sequences not indented under their key).
 * managedFields are dropped unless `--show-managed-fields`.
 */
import type { AnyObject } from '../../api/objects.ts';
import { resourceForKind } from '../../api/resources.ts';
import { isPlainObject } from '../../util/json.ts';
import { cmdError, KubectlError } from '../errors.ts';
import {
  executeGoTemplate,
  goDump,
  goQuote,
  GoTemplateExecError,
  GoTemplateParseError,
  parseGoTemplate,
  type GoTemplate,
} from './go-template.ts';
import {
  evaluateJsonPath,
  executeJsonPath,
  formatValue,
  JsonPathError,
  parseJsonPath,
  relaxedJsonPath,
} from './jsonpath.ts';
import { tabwrite } from './tabwriter.ts';
import { goYamlStringify } from './go-yaml-scalars.ts';
import { setOwn } from '../../apiserver/json-values.ts';

export type OutputFormat =
  | { kind: 'table'; wide: boolean }
  | { kind: 'yaml' }
  | { kind: 'json' }
  | { kind: 'name' }
  | { kind: 'jsonpath'; template: string; asJson: boolean }
  | { kind: 'custom-columns'; spec: string }
  | { kind: 'go-template'; template: string; parsed: GoTemplate };

const GENERIC_FORMATS =
  'go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,yaml';

/**
 * Parses `-o`. `tables` says whether the command can print tables (get) or only generic formats
 * (create, apply, …), which changes the error's list of allowed formats.
 */
export function parseOutputFormat(value: string, tables: boolean): OutputFormat {
  if (value === '') return { kind: 'table', wide: false };
  if (tables && value === 'wide') return { kind: 'table', wide: true };
  if (value === 'yaml') return { kind: 'yaml' };
  if (value === 'json') return { kind: 'json' };
  if (value === 'name') return { kind: 'name' };
  const eq = value.indexOf('=');
  const name = eq < 0 ? value : value.slice(0, eq);
  const arg = eq < 0 ? '' : value.slice(eq + 1);
  if (name === 'jsonpath' || name === 'jsonpath-as-json') {
    if (arg === '') throw cmdError('template format specified but no template given');
    return { kind: 'jsonpath', template: arg, asJson: name === 'jsonpath-as-json' };
  }
  if (name === 'go-template' || name === 'template') {
    if (arg === '') throw cmdError('template format specified but no template given');
    // kubectl parses the template when it builds the printer, before any request.
    try {
      return { kind: 'go-template', template: arg, parsed: parseGoTemplate(arg) };
    } catch (e) {
      if (e instanceof GoTemplateParseError) throw cmdError(`error parsing template ${arg}, ${e.message}`);
      throw e;
    }
  }
  if (tables && name === 'custom-columns') {
    if (arg === '') throw cmdError('custom-columns format specified but no custom columns given');
    return { kind: 'custom-columns', spec: arg };
  }
  // NoCompatiblePrinterError sorts the list, so `wide` lands before `yaml`.
  const allowed = tables
    ? ['custom-columns', 'custom-columns-file', ...GENERIC_FORMATS.split(','), 'wide'].sort().join(',')
    : GENERIC_FORMATS;
  throw cmdError(
    `unable to match a printer suitable for the output format "${value}", allowed formats are: ${allowed}`,
  );
}

/** Recursively sorts mapping keys (Go's encoding of map[string]interface{}). */
export function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    // setOwn: a `__proto__` key the learner stored is data and must print like any other key.
    for (const k of Object.keys(v).sort()) if (v[k] !== undefined) setOwn(out, k, sortKeys(v[k]));
    return out;
  }
  return v;
}

export function stripManagedFields<T>(obj: T): T {
  if (!isPlainObject(obj) || !isPlainObject(obj.metadata) || obj.metadata.managedFields === undefined)
    return obj;
  const { managedFields: _drop, ...metadata } = obj.metadata;
  return { ...obj, metadata } as T;
}

/** go-yaml v2 style YAML of a value: its key order, string styles and line folding. */
export function toYaml(v: unknown): string {
  return goYamlStringify(sortKeys(v));
}

/** Go's json.MarshalIndent with four-space indent (kubectl's JSON printer), keys sorted unless `keepOrder`. */
export function toJson(v: unknown, keepOrder = false): string {
  return `${JSON.stringify(keepOrder ? v : sortKeys(v), null, 4).replace(
    /[\u2028\u2029<>&]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )}\n`;
}

/** `kind.group/name` as `-o name` prints it: `pod/web`, `deployment.apps/web`. */
export function resourceName(obj: {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: { name?: string };
}): string {
  const kind = String(obj.kind ?? '');
  const apiVersion = String(obj.apiVersion ?? '');
  const info = resourceForKind(apiVersion, kind);
  const group = info ? info.group : apiVersion.includes('/') ? apiVersion.split('/')[0]! : '';
  return `${kind.toLowerCase()}${group ? `.${group}` : ''}/${obj.metadata?.name ?? ''}`;
}

/** Wraps several objects into the `List` kubectl prints for multi-object yaml/json. */
export function asList(items: readonly unknown[]): Record<string, unknown> {
  return { apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } };
}

export interface GenericPrintOptions {
  readonly showManagedFields?: boolean;
  /** Client-side objects keep the field order of their Go struct in JSON. */
  readonly keepOrder?: boolean;
}

/** Prints one object (or a List) in a generic format. */
export function printGeneric(
  format: Exclude<OutputFormat, { kind: 'table' } | { kind: 'custom-columns' }>,
  obj: unknown,
  opts: GenericPrintOptions = {},
): string {
  const data = opts.showManagedFields ? obj : stripDeep(obj);
  switch (format.kind) {
    case 'yaml':
      return toYaml(data);
    case 'json':
      return toJson(data, opts.keepOrder);
    case 'name': {
      const items = isList(data) ? (data.items as AnyObject[]) : [data as AnyObject];
      return items.map((o) => `${resourceName(o)}\n`).join('');
    }
    case 'jsonpath':
      return runJsonPath(format.template, data, format.asJson);
    case 'go-template':
      return runGoTemplate(format, data, opts.keepOrder === true);
  }
}

/**
 * cli-runtime GoTemplatePrinter.PrintObj: on an execution error, what the template wrote so far and
 * a debugging dump go to stdout, then the error.
 */
function runGoTemplate(
  format: Extract<OutputFormat, { kind: 'go-template' }>,
  data: unknown,
  keepOrder: boolean,
): string {
  try {
    return executeGoTemplate(format.parsed, data);
  } catch (e) {
    if (!(e instanceof GoTemplateExecError)) throw e;
    const raw = JSON.stringify(keepOrder ? data : sortKeys(data)).replace(
      /[\u2028\u2029<>&]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    const dump =
      `${e.partial}Error executing template: ${e.message}. Printing more information for debugging the template:\n` +
      `\ttemplate was:\n\t\t${format.template}\n\traw data was:\n\t\t${raw}\n` +
      `\tobject given to template engine was:\n\t\t${goDump(data)}\n\n`;
    throw new KubectlError(
      `error: error executing template ${goQuote(format.template)}: ${e.message}`,
      1,
      dump,
    );
  }
}

function isList(v: unknown): v is { items: unknown[] } {
  return isPlainObject(v) && v.kind === 'List' && Array.isArray(v.items);
}

function stripDeep(v: unknown): unknown {
  if (isList(v)) return { ...v, items: v.items.map((i) => stripManagedFields(i)) };
  return stripManagedFields(v);
}

function runJsonPath(template: string, data: unknown, asJson: boolean): string {
  let nodes;
  try {
    nodes = parseJsonPath(template);
  } catch (e) {
    throw cmdError(`error parsing jsonpath ${template}, ${(e as Error).message}`);
  }
  try {
    if (asJson) return `${JSON.stringify(evaluateJsonPath(nodes, data), null, 4)}\n`;
    return executeJsonPath(nodes, data);
  } catch (e) {
    if (e instanceof JsonPathError)
      throw cmdError(
        `error executing jsonpath ${JSON.stringify(template)}: Error executing template: ${e.message}. Printing more information for debugging the template:\n\ttemplate was:\n\t\t${template}\n\tobject given to jsonpath engine was:\n\t\t${JSON.stringify(data)}\n\n`,
      );
    throw e;
  }
}

/** `-o custom-columns=HEADER:.path,…` (cli-runtime `CustomColumnsPrinter`). */
export function printCustomColumns(spec: string, objects: readonly unknown[], noHeaders: boolean): string {
  const columns = spec.split(',').map((part) => {
    const colon = part.indexOf(':');
    if (colon < 0)
      throw cmdError(`unexpected custom-columns spec: ${part}, expected <header>:<json-path-expr>`);
    const header = part.slice(0, colon);
    let nodes;
    try {
      nodes = parseJsonPath(relaxedJsonPath(part.slice(colon + 1)));
    } catch (e) {
      throw cmdError(
        `unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'`,
      );
    }
    return { header, nodes };
  });
  const lines: string[] = [];
  if (!noHeaders) lines.push(columns.map((c) => c.header).join('\t'));
  for (const obj of objects) {
    lines.push(
      columns
        .map((c) => {
          const values = evaluateJsonPath(c.nodes, obj);
          return values.length === 0 ? '<none>' : values.map(formatValue).join(',');
        })
        .join('\t'),
    );
  }
  return lines.length === 0 ? '' : tabwrite(`${lines.join('\n')}\n`);
}
