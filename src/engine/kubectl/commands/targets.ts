/**
 * The objects a modifying command (patch, set, edit) visits: `-f` files, or TYPE NAME… / TYPE/NAME…
 * / TYPE with `-l` or `--all`, with the resource builder's errors. NotFound errors are collected
 * (kubectl prints them after handling what it found).
 */
import type { KubectlContext } from '../context.ts';
import { cmdError, KubectlError } from '../errors.ts';
import { readManifests } from '../manifests.ts';
import { fetchRefs, parseLabelSelector, parseResourceArgs, type Fetched } from '../resource-args.ts';
import { refsFromManifests, resolveFileObject } from './file-refs.ts';
import type { AnyObject } from '../../api/objects.ts';

export const NO_RESOURCES = `error: You must provide one or more resources by argument or filename.
Example resource specifications include:
   '-f rsrc.yaml'
   '--filename=rsrc.json'
   '<resource> <name>'
   '<resource>'`;

export function visitTargets(
  ctx: KubectlContext,
  args: readonly string[],
  opts: { selectors: boolean },
): { found: Fetched[]; errors: Error[] } {
  const f = ctx.flags;
  const filenames = f.array('filename');
  if (filenames.length > 0) {
    if (args.length > 0)
      throw cmdError(
        'when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well',
      );
    const found: Fetched[] = [];
    const errors: Error[] = [];
    const manifests = readManifests(ctx.host.files, filenames, ctx.io.stdin, f.bool('recursive'));
    for (const { ref, namespace } of refsFromManifests(ctx, manifests)) {
      const r = fetchRefs(ctx.host.api, [ref], { namespace, allNamespaces: false, selector: [] });
      found.push(...r.found);
      errors.push(...r.errors);
    }
    return { found, errors };
  }
  if (args.length === 0) throw new KubectlError(NO_RESOURCES);
  const refs = parseResourceArgs(args);
  const selectorText = opts.selectors ? f.string('selector') : '';
  const all = opts.selectors && f.bool('all');
  if (refs.some((r) => r.name === undefined) && selectorText === '' && !all)
    throw cmdError('resource(s) were provided, but no name was specified');
  if (refs.some((r) => r.name !== undefined) && selectorText !== '')
    throw cmdError('name cannot be provided when a selector is specified');
  return fetchRefs(ctx.host.api, refs, {
    namespace: ctx.namespace,
    allNamespaces: opts.selectors && f.bool('all-namespaces'),
    selector: parseLabelSelector(selectorText),
  });
}

/**
 * `--local`: the objects of the `-f` files themselves, never read from the server (set, patch).
 * `needFiles` is the error when no file was given.
 */
export function localTargets(ctx: KubectlContext, needFiles: string): { found: Fetched[]; errors: Error[] } {
  const filenames = ctx.flags.array('filename');
  if (filenames.length === 0) throw new KubectlError(needFiles);
  const manifests = readManifests(ctx.host.files, filenames, ctx.io.stdin, ctx.flags.bool('recursive'));
  const found = manifests.map((sm) => ({
    info: resolveFileObject(ctx, sm, false).info,
    object: sm.manifest as AnyObject,
  }));
  return { found, errors: [] };
}
