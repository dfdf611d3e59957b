/**
 * `kubectl explain` with kubectl's plaintext template (pkg/explain/v2/templates/plaintext.tmpl):
 * GROUP/KIND/VERSION header, `FIELD: name <type>` for a field path, DESCRIPTION wrapped at 76
 * columns (sprig `wrap`, which never breaks a word) and indented 4, then FIELDS with a tab between
 * name and `<type>`, `-required-` marks, and `--recursive` listing nested fields by name only.
 */
import {
  definition,
  lookupPath,
  explainTypeName,
  resolveNode,
  type SchemaNode,
} from '../../api/schema/field-schema.ts';
import { apiVersionOf } from '../../api/resources.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError, KubectlError } from '../errors.ts';
import { mustResolve } from '../resource-args.ts';

/** goutils.WrapCustom(str, width, "\n", false), which sprig's `wrap` calls. */
export function sprigWrap(str: string, width: number): string {
  if (str === '') return '';
  let offset = 0;
  let out = '';
  while (str.length - offset > width) {
    if (str[offset] === ' ') {
      offset++;
      continue;
    }
    const end = width + offset + 1;
    let at = str.slice(offset, end).lastIndexOf(' ');
    if (at >= 0) {
      at += offset;
      out += `${str.slice(offset, at)}\n`;
      offset = at + 1;
    } else {
      const next = str.slice(width + offset).indexOf(' ');
      if (next >= 0) {
        at = next + width + offset;
        out += `${str.slice(offset, at)}\n`;
        offset = at + 1;
      } else {
        out += str.slice(offset);
        offset = str.length;
      }
    }
  }
  return out + str.slice(offset);
}

function indent(text: string, n: number): string {
  const pad = ' '.repeat(n);
  return pad + text.replace(/\n/g, `\n${pad}`);
}

/** The "description" template: a field's own text, then its type's (through `$ref`, arrays and maps unwrapped). */
function descriptionOf(node: SchemaNode): string {
  let out = node.description ? `${node.description}\n` : '';
  let inner = node;
  while (inner.items || inner.additionalProperties) inner = (inner.items ?? inner.additionalProperties)!;
  const ref = node.$ref ?? inner.$ref;
  const target = ref ? definition(ref) : undefined;
  if (target?.description) out += `${target.description}\n`;
  return out;
}

function fieldList(
  fields: Readonly<Record<string, SchemaNode>>,
  required: readonly string[],
  level: number,
  recursive: boolean,
  seen: Set<string>,
): string {
  let out = '';
  const ind = level * 2;
  for (const name of Object.keys(fields).sort()) {
    const f = fields[name]!;
    out += `${' '.repeat(ind)}${name}\t<${explainTypeName(f)}>${required.includes(name) ? ' -required-' : ''}\n`;
    if (!recursive) {
      out += `${indent(sprigWrap(f.description || '<no description>', 78 - ind), ind + 2)}\n\n`;
      continue;
    }
    let inner: SchemaNode = f;
    while (true) {
      const r = resolveNode(inner);
      const next = r.items ?? r.additionalProperties;
      if (!next) break;
      inner = next;
    }
    const ref = inner.$ref;
    if (ref && seen.has(ref)) continue;
    const struct = resolveNode(inner);
    if (struct.properties) {
      const nextSeen = new Set(seen);
      if (ref) nextSeen.add(ref);
      out += fieldList(struct.properties, struct.required ?? [], level + 1, recursive, nextSeen);
    }
  }
  return out;
}

export function runExplain(ctx: KubectlContext): number {
  const args = ctx.flags.args;
  if (args.length === 0) {
    throw new KubectlError(
      'error: You must specify the type of resource to explain. Use "kubectl api-resources" for a complete list of supported resources.',
    );
  }
  if (args.length > 1) throw cmdError(`We accept only this format: explain RESOURCE`);
  const [typed, ...path] = args[0]!.split('.');
  const info = mustResolve(typed ?? '');
  const apiVersion = ctx.flags.string('api-version') || apiVersionOf(info);
  const field = lookupPath(info.kind, path, apiVersion);
  if (!field) {
    if (path.length === 0) throw cmdError(`GVK ${apiVersion}, Kind=${info.kind} not found in OpenAPI schema`);
    throw cmdError(`field "${path[path.length - 1]}" does not exist`);
  }
  let out = info.group ? `GROUP:      ${info.group}\n` : '';
  out += `KIND:       ${info.kind}\nVERSION:    ${info.version}\n\n`;
  if (path.length > 0) {
    const parent = lookupPath(info.kind, path.slice(0, -1), apiVersion);
    const raw = parent?.fields?.[path[path.length - 1]!];
    const node = raw ?? field.node;
    out += `FIELD: ${path[path.length - 1]} <${explainTypeName(node)}>\n`;
    const en = resolveNode(node).enum;
    if (en && en.length > 0)
      out += `ENUM:\n${en.map((v) => `    ${v === '' ? '""' : String(v)}`).join('\n')}\n`;
    out += '\n\n';
    out += `DESCRIPTION:\n${indent(sprigWrap(descriptionOf(node) || '<empty>', 76), 4)}\n`;
  } else {
    const root = lookupPath(info.kind, [], apiVersion)!;
    out += `DESCRIPTION:\n${indent(sprigWrap(root.description ? `${root.description}\n` : '<empty>', 76), 4)}\n`;
  }
  if (field.fields && Object.keys(field.fields).length > 0) {
    out += `FIELDS:\n${fieldList(field.fields, field.requiredFields, 1, ctx.flags.bool('recursive'), new Set())}`;
  }
  ctx.out(`${out}\n`);
  return 0;
}
