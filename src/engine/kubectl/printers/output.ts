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
import { tabwrite } from '../../util/tabwriter.ts';
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

/** What `-o` may draw on besides its own value: `--template`, and the files the `-file` formats name. */
export interface TemplateInput {
  /** `--template`'s value ('' when not given). */
  readonly template: string;
  /** A file's text, or os.ReadFile's error for it (`open P: no such file or directory`). */
  readonly readFile: (path: string) => { readonly text: string } | { readonly error: string };
}

const TEMPLATE_FORMATS: Record<string, { readonly as: string; readonly file: boolean }> = {
  'go-template': { as: 'go-template', file: false },
  template: { as: 'go-template', file: false },
  'go-template-file': { as: 'go-template', file: true },
  templatefile: { as: 'go-template', file: true },
  jsonpath: { as: 'jsonpath', file: false },
  'jsonpath-as-json': { as: 'jsonpath-as-json', file: false },
  'jsonpath-file': { as: 'jsonpath', file: true },
};

/**
 * `-o` with `--template`, as cli-runtime's PrintFlags.ToPrinter and the go-template, jsonpath and
 * custom-columns print flags resolve them: `--template` alone means go-template; a template format
 * takes its text from `--template` when given (then `-o` must be the bare format name), else from
 * `FORMAT=TEXT`; the `-file` formats read their text from that path. Returns `-o` in its inline form.
 */
function inlineTemplate(value: string, tables: boolean, input: TemplateInput): string {
  const output = value === '' && input.template !== '' ? 'go-template' : value;
  const eq = output.indexOf('=');
  const name = eq < 0 ? output : output.slice(0, eq);
  const columns = tables && (name === 'custom-columns' || name === 'custom-columns-file');
  const format = columns ? undefined : TEMPLATE_FORMATS[name];
  if (!columns && !format) return output;
  if (input.template !== '' && eq >= 0) throw noPrinter(output, tables);
  const text = input.template !== '' ? input.template : eq < 0 ? '' : output.slice(eq + 1);
  if (text === '')
    throw cmdError(
      columns
        ? 'custom-columns format specified but no custom columns given'
        : 'template format specified but no template given',
    );
  if (name === 'custom-columns') return `custom-columns=${text}`;
  if (format && !format.file) return `${format.as}=${text}`;
  const read = input.readFile(text);
  // The go-template and jsonpath flags say `--template`; the custom-columns flags do not.
  if ('error' in read)
    throw cmdError(`error reading ${format ? '--template' : 'template'} ${text}, ${read.error}`);
  // An empty file parses as an empty template, which prints nothing (it is not "no template given").
  return format ? `${format.as}=${read.text}` : `custom-columns=${customColumnsFromTemplate(read.text)}`;
}

/**
 * `NewCustomColumnsPrinterFromTemplate`: a header line and a spec line, both split on whitespace, one
 * spec per header; given back as the `HEADER:spec,…` form of `-o custom-columns=`.
 */
function customColumnsFromTemplate(text: string): string {
  const lines = text.split('\n');
  const words = (line: string | undefined) => (line ?? '').split(/\s+/).filter((w) => w !== '');
  const usage =
    'Expected format is one line of space separated headers, one line of space separated column specs.';
  if (text === '') throw cmdError(`invalid template, missing header line. ${usage}`);
  if (lines.length < 2 || (lines.length === 2 && lines[1] === ''))
    throw cmdError(`invalid template, missing spec line. ${usage}`);
  const headers = words(lines[0]);
  const specs = words(lines[1]);
  if (headers.length !== specs.length)
    throw cmdError(
      `number of headers (${headers.length}) and field specifications (${specs.length}) don't match`,
    );
  return headers.map((h, i) => `${h}:${specs[i]}`).join(',');
}

/**
 * Parses `-o`. `tables` says whether the command can print tables (get) or only generic formats
 * (create, apply, …), which changes the error's list of allowed formats. With `input`, `--template`
 * and the `-file` formats are resolved first (inlineTemplate).
 */
export function parseOutputFormat(given: string, tables: boolean, input?: TemplateInput): OutputFormat {
  const value = input ? inlineTemplate(given, tables, input) : given;
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
  throw noPrinter(value, tables);
}

/** cli-runtime's NoCompatiblePrinterError; it sorts the list, so `wide` lands before `yaml`. */
function noPrinter(value: string, tables: boolean): KubectlError {
  const allowed = tables
    ? ['custom-columns', 'custom-columns-file', ...GENERIC_FORMATS.split(','), 'wide'].sort().join(',')
    : GENERIC_FORMATS;
  return cmdError(
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
