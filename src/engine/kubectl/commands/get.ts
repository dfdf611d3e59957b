/**
 * `kubectl get` (pkg/cmd/get/get.go): tables per resource kind with a blank line between kinds,
 * `kind/name` names when several kinds are printed, `No resources found in <ns> namespace.` on stderr
 * when nothing matched, NotFound errors after what was found; yaml/json/name/jsonpath print one
 * object for a single named object and a `List` otherwise. `-w` prints the current state and returns
 * (there is no streaming in the simulator).
 */
import type { AnyObject } from '../../api/objects.ts';
import type { ResourceInfo } from '../../api/resources.ts';
import type { KubectlContext } from '../context.ts';
import { KubectlError, aggregateLine, cmdError, errorText } from '../errors.ts';
import { readManifests } from '../manifests.ts';
import { asList, parseOutputFormat, printCustomColumns, printGeneric } from '../printers/output.ts';
import { tableFor } from '../printers/registry.ts';
import { tableLines } from '../printers/table.ts';
import { tabwrite } from '../../util/tabwriter.ts';
import {
  fetchRefs,
  kindPrefix,
  parseLabelSelector,
  parseResourceArgs,
  type Fetched,
  type ResourceRef,
} from '../resource-args.ts';
import { refsFromManifests } from './file-refs.ts';

export const ENDPOINTS_WARNING =
  'Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\n';

const REQUIRED_RESOURCE = `You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.

error: Required resource not specified.
Use "kubectl explain <resource>" for a detailed description of that resource (e.g. kubectl explain pods).
See 'kubectl get -h' for help and examples`;

export function runGet(ctx: KubectlContext): number {
  const f = ctx.flags;
  const filenames = f.array('filename');
  if (f.args.length === 0 && filenames.length === 0) throw new KubectlError(REQUIRED_RESOURCE);
  const format = parseOutputFormat(f.string('output'), true, ctx.templateInput());
  const selector = parseLabelSelector(f.string('selector'));
  let refs: ResourceRef[];
  let namespaceOf: ((ref: ResourceRef) => string) | undefined;
  if (filenames.length > 0) {
    if (f.args.length > 0)
      throw cmdError(
        'when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well',
      );
    const manifests = readManifests(ctx.host.files, filenames, ctx.io.stdin, f.bool('recursive'));
    const fromFiles = refsFromManifests(ctx, manifests);
    refs = fromFiles.map((r) => r.ref);
    const nsByRef = new Map(fromFiles.map((r) => [r.ref, r.namespace]));
    namespaceOf = (ref) => nsByRef.get(ref) ?? ctx.namespace;
  } else {
    refs = parseResourceArgs(f.args);
  }
  const named = refs.some((r) => r.name !== undefined);
  if (named && (f.string('selector') !== '' || f.string('field-selector') !== ''))
    throw cmdError('name cannot be provided when a selector is specified');
  if (named && ctx.allNamespaces && !namespaceOf)
    throw cmdError('a resource cannot be retrieved by name across all namespaces');
  if (f.bool('watch-only') || f.bool('watch')) {
    const types = new Set(refs.map((r) => r.info.key));
    if (types.size > 1) throw cmdError('you may only specify a single resource type');
  }
  if (refs.some((r) => r.info.key === 'endpoints')) ctx.err(ENDPOINTS_WARNING);

  const found: Fetched[] = [];
  const errors: Error[] = [];
  for (const ref of refs) {
    const r = fetchRefs(ctx.host.api, [ref], {
      namespace: namespaceOf ? namespaceOf(ref) : ctx.namespace,
      allNamespaces: ctx.allNamespaces,
      selector,
      fieldSelector: f.string('field-selector'),
      labelSelectorText: f.string('selector'),
    });
    found.push(...r.found);
    errors.push(...r.errors);
  }
  const ignoreNotFound = f.bool('ignore-not-found');
  const reportable = ignoreNotFound ? [] : errors;
  if (f.bool('watch-only')) return finish(ctx, reportable);

  if (format.kind === 'table' || format.kind === 'custom-columns') {
    printTables(
      ctx,
      found,
      format.kind === 'table' ? format.wide : false,
      format.kind === 'custom-columns' ? format.spec : undefined,
    );
    const written = ctx.stdout.length > 0;
    if (!written && reportable.length === 0 && !ignoreNotFound) {
      const allNamespaced = !ctx.allNamespaces && refs.every((r) => r.info.namespaced);
      ctx.err(allNamespaced ? `No resources found in ${ctx.namespace} namespace.\n` : 'No resources found\n');
      ctx.listedNone(refs.map((r) => r.info));
    }
    return finish(ctx, reportable);
  }

  const singleItemImplied = refs.length === 1 && refs[0]!.name !== undefined && filenames.length === 0;
  if (found.length === 0 && ignoreNotFound) return 0;
  if (singleItemImplied && found.length === 1) {
    ctx.out(printGeneric(format, found[0]!.object, { showManagedFields: f.bool('show-managed-fields') }));
    ctx.showed(found);
    return 0;
  }
  if (singleItemImplied && reportable.length > 0) return finish(ctx, reportable);
  ctx.out(
    printGeneric(format, asList(found.map((x) => x.object)), {
      showManagedFields: f.bool('show-managed-fields'),
    }),
  );
  ctx.showed(found);
  return finish(ctx, reportable);
}

function finish(ctx: KubectlContext, errors: readonly Error[]): number {
  if (errors.length === 0) return 0;
  if (errors.length === 1) ctx.err(`${errorText(errors[0])}\n`);
  else for (const e of errors) ctx.err(`${aggregateLine(e)}\n`);
  return 1;
}

function printTables(
  ctx: KubectlContext,
  found: readonly Fetched[],
  wide: boolean,
  customColumns: string | undefined,
): void {
  const f = ctx.flags;
  const kinds = new Set(found.map((x) => `${x.object.apiVersion}/${x.object.kind}`));
  const withKind = kinds.size > 1 || f.bool('show-kind');
  const groups: { info: ResourceInfo; objects: AnyObject[] }[] = [];
  for (const x of found) {
    const last = groups[groups.length - 1];
    if (last && last.info.key === x.info.key) last.objects.push(x.object);
    else groups.push({ info: x.info, objects: [x.object] });
  }
  const noHeaders = f.bool('no-headers');
  const labelColumns = f
    .array('label-columns')
    .flatMap((l) => l.split(','))
    .filter((l) => l !== '');
  let text = '';
  const printed: Fetched[] = [];
  for (const g of groups) {
    let block: string;
    if (customColumns !== undefined) {
      block = printCustomColumns(customColumns, g.objects, noHeaders);
    } else {
      const lines = tableLines(
        tableFor(g.info.key),
        g.objects,
        {
          wide,
          noHeaders,
          withNamespace: ctx.allNamespaces && g.info.namespaced,
          ...(withKind ? { kindPrefix: kindPrefix(g.info) } : {}),
          showLabels: f.bool('show-labels'),
          labelColumns,
        },
        { now: ctx.now(), wide },
      );
      block = lines.length > 0 ? tabwrite(`${lines.join('\n')}\n`) : '';
    }
    if (block === '') continue;
    if (text !== '' && !noHeaders) text += '\n';
    text += block;
    printed.push(...g.objects.map((object) => ({ info: g.info, object })));
  }
  ctx.out(text);
  ctx.showed(printed);
}
