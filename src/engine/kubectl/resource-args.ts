/**
 * The resource builder's argument rules (cli-runtime `Builder.ResourceTypeOrNameArgs`): `TYPE`,
 * `TYPE NAME…`, `TYPE1,TYPE2 [NAME…]`, `TYPE/NAME…` (not mixed with a separate TYPE), the `all`
 * category, and the lookups that turn those into objects: named gets (NotFound errors collected,
 * not fatal) and label-selected lists.
 */
import type { AnyObject, ResourceKey } from '../api/objects.ts';
import { RESOURCES, resolveResource, unsimulatedBuiltin, type ResourceInfo } from '../api/resources.ts';
import { matches, parseSelector, SelectorParseError, type Selector } from '../api/labels.ts';
import { notFound, StatusError } from '../api/errors.ts';
import { cmdError } from './errors.ts';
import type { KubectlApi } from './host.ts';
import { checkFieldSelector, gvrString, matchesFields } from './field-selector.ts';

export interface ResourceRef {
  readonly info: ResourceInfo;
  /** undefined: every object of the type (filtered by selector). */
  readonly name?: string;
}

/** `error: the server doesn't have a resource type "foo"`. */
export function unknownType(typed: string): Error {
  const missing = unsimulatedBuiltin({ typed });
  if (missing) return cmdError(`resource type "${typed}": ${missing}`);
  return cmdError(`the server doesn't have a resource type "${typed}"`);
}

/** Resolves one typed resource name; `all` is handled by callers that accept it. */
export function mustResolve(typed: string): ResourceInfo {
  const info = typed === '' ? undefined : resolveResource(typed);
  if (!info) throw unknownType(typed);
  return info;
}

/** The types of the `all` category, in discovery order (pods, services, daemonsets, deployments, replicasets). */
export function allCategory(): ResourceInfo[] {
  return RESOURCES.filter((r) => r.categories.includes('all'));
}

function resolveTypes(typed: string): ResourceInfo[] {
  const out: ResourceInfo[] = [];
  for (const t of typed.split(',')) {
    if (t === '') continue;
    const list = t.toLowerCase() === 'all' ? allCategory() : [mustResolve(t)];
    for (const info of list) if (!out.includes(info)) out.push(info);
  }
  if (out.length === 0) throw unknownType(typed);
  return out;
}

/** Parses positional args into resource references. */
export function parseResourceArgs(args: readonly string[]): ResourceRef[] {
  if (args.length === 0) return [];
  const slashed = args.filter((a) => a.includes('/'));
  if (slashed.length > 0) {
    if (slashed.length !== args.length) {
      throw cmdError(
        "there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'",
      );
    }
    return args.map((a) => {
      const slash = a.indexOf('/');
      const type = a.slice(0, slash);
      const name = a.slice(slash + 1);
      if (type === '' || name === '')
        throw cmdError(`arguments in resource/name form must have a single resource and name`);
      return { info: mustResolve(type), name };
    });
  }
  const [typeArg, ...names] = args;
  const types = resolveTypes(typeArg!);
  if (names.length === 0) return types.map((info) => ({ info }));
  const out: ResourceRef[] = [];
  for (const info of types) for (const name of names) out.push({ info, name });
  return out;
}

/**
 * Selectors kubectl could not have parsed: kubectl sends `-l` unparsed and the API server rejects
 * it when the list is made, so the error waits for the resource it is listed against.
 */
const invalidSelectors = new WeakMap<Selector, { text: string; message: string }>();

export function parseLabelSelector(text: string): Selector {
  try {
    return parseSelector(text);
  } catch (e) {
    if (!(e instanceof SelectorParseError)) throw e;
    // Matches nothing (an `in` with no values), should a caller filter before listing.
    const never: Selector = [{ key: '', op: 'in', values: [] }];
    invalidSelectors.set(never, { text, message: e.message });
    return never;
  }
}

/**
 * Throws the server's BadRequest for a selector parseLabelSelector could not parse, as cli-runtime's
 * EnhanceListError rewords it: `Unable to find "/v1, Resource=pods" that match label selector …`.
 */
export function checkListSelector(info: ResourceInfo, selector: Selector, fieldSelector = ''): void {
  const bad = invalidSelectors.get(selector);
  if (bad)
    throw new StatusError(
      'BadRequest',
      `Unable to find "${gvrString(info)}" that match label selector "${bad.text}", field selector "${fieldSelector}": ${bad.message}`,
    );
}

export interface FetchOptions {
  readonly namespace: string;
  readonly allNamespaces: boolean;
  readonly selector: Selector;
  /** `--field-selector` as typed, checked and applied as the API server does (field-selector.ts). */
  readonly fieldSelector?: string;
  /** `-l` as typed: the server's selector errors quote it. */
  readonly labelSelectorText?: string;
  /** `kubectl delete` reports the object as NotFound even when its namespace is missing. */
  readonly keepNotFound?: boolean;
}

export interface Fetched {
  readonly info: ResourceInfo;
  readonly object: AnyObject;
}

/**
 * Reads what the refs name. Missing named objects become NotFound errors in `errors` (kubectl prints
 * them after what it found and exits 1).
 */
export function fetchRefs(
  api: KubectlApi,
  refs: readonly ResourceRef[],
  opts: FetchOptions,
): { found: Fetched[]; errors: Error[] } {
  const found: Fetched[] = [];
  const errors: Error[] = [];
  for (const ref of refs) {
    const ns = ref.info.namespaced ? opts.namespace : undefined;
    if (ref.name !== undefined) {
      const obj = api.get(ref.info.key, ns, ref.name) as AnyObject | undefined;
      if (obj) found.push({ info: ref.info, object: obj });
      // kubectl v1.35 looks the namespace up after a NotFound and reports a missing namespace instead
      // (found by running the real kubectl against packetpath serve: test/serve/differential.test.ts).
      else if (ns !== undefined && !opts.keepNotFound && !api.get('namespaces', undefined, ns))
        errors.push(notFound('namespaces', ns));
      else errors.push(notFound(ref.info.key, ref.name));
      continue;
    }
    checkListSelector(ref.info, opts.selector, opts.fieldSelector);
    const fields = opts.fieldSelector
      ? checkFieldSelector(ref.info, opts.fieldSelector, opts.labelSelectorText ?? '')
      : [];
    const list = api.list(
      ref.info.key,
      ref.info.namespaced && !opts.allNamespaces ? ns : undefined,
    ) as AnyObject[];
    for (const obj of list)
      if (matches(opts.selector, obj.metadata.labels) && matchesFields(fields, obj))
        found.push({ info: ref.info, object: obj });
  }
  return { found, errors };
}

/** `deployment.apps`, `pod`: the prefix of `kind/name` texts. */
export function kindPrefix(info: ResourceInfo): string {
  return info.group ? `${info.singular}.${info.group}` : info.singular;
}

export function resourceKeyOf(info: ResourceInfo): ResourceKey {
  return info.key;
}
