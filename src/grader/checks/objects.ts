/** Finding objects the way kubectl does: typed resource names, default namespace, label selectors. */
import {
  parseSelector,
  resolveResource,
  selectorMatches,
  type AnyObject,
  type GradableCluster,
  type ResourceInfo,
} from '../engine-api.ts';
import { msg, type Message } from '../messages/format.ts';

export const DEFAULT_NAMESPACE = 'default';
/** Lists in messages stop after this many names, so a runaway count stays readable. */
const MAX_LISTED = 8;

export { resolveResource, type ResourceInfo };

export function namespaceFor(info: ResourceInfo, namespace: string | undefined): string | undefined {
  return info.namespaced ? (namespace ?? DEFAULT_NAMESPACE) : undefined;
}

export function objectRef(namespace: string | undefined, name: string): string {
  return namespace === undefined ? name : `${namespace}/${name}`;
}

/** Objects of a type in a namespace (all of them for cluster-scoped types) whose labels match. */
export function listMatching(
  cluster: GradableCluster,
  info: ResourceInfo,
  namespace: string | undefined,
  selector: string | undefined,
): readonly AnyObject[] {
  const all = cluster.view().list(info.key, namespace);
  if (selector === undefined) return all;
  const sel = parseSelector(selector);
  return all.filter((o) => selectorMatches(sel, o.metadata.labels));
}

export function scopeMessage(namespace: string | undefined, selector: string | undefined): Message {
  if (namespace === undefined)
    return selector === undefined ? msg('scope.cluster') : msg('scope.clusterSelector', { selector });
  return selector === undefined
    ? msg('scope.namespace', { namespace })
    : msg('scope.namespaceSelector', { namespace, selector });
}

/** Names for a message: `ns/a, ns/b, … (+3)`. */
export function listedNames(objects: readonly AnyObject[]): string[] {
  const names = objects.slice(0, MAX_LISTED).map((o) => objectRef(o.metadata.namespace, o.metadata.name));
  if (objects.length > MAX_LISTED) names.push(`… (+${objects.length - MAX_LISTED})`);
  return names;
}

export function listed(items: readonly string[]): string[] {
  return items.length > MAX_LISTED
    ? [...items.slice(0, MAX_LISTED), `… (+${items.length - MAX_LISTED})`]
    : [...items];
}
