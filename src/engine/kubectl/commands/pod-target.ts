/**
 * How exec, logs, port-forward and attach find their pod (polymorphichelpers `AttachablePodForObject`):
 * a pod name, `pod/NAME`, or a workload/Service whose selector picks the pods, of which the first in
 * podutils order is used (`ActivePods` reversed for exec/attach/port-forward, `ByLogging` for logs),
 * and which container: `-c`, the
 * `kubectl.kubernetes.io/default-container` annotation, or the first one with a "Defaulted container"
 * notice when there are several.
 */
import type { Deployment, Pod, ReplicaSet, Service } from '../../api/objects.ts';
import { notFound } from '../../api/errors.ts';
import { matchesLabelSelector, matchesMapSelector } from '../../api/labels.ts';
import { parseTimestamp } from '../../util/clock.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError } from '../errors.ts';
import { mustResolve } from '../resource-args.ts';

/** podutils `IsPodReady`: the Ready condition is True (phase plays no part). */
function isReady(p: Pod): boolean {
  return (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** podutils `podReadyTime`: when Ready became True; 0 (Go's zero time) when not ready. */
function readyTime(p: Pod): number {
  const c = (p.status?.conditions ?? []).find((x) => x.type === 'Ready' && x.status === 'True');
  return c?.lastTransitionTime ? parseTimestamp(c.lastTransitionTime) : 0;
}

function maxRestarts(p: Pod): number {
  return Math.max(0, ...(p.status?.containerStatuses ?? []).map((c) => c.restartCount ?? 0));
}

function created(p: Pod): number {
  return p.metadata.creationTimestamp ? parseTimestamp(p.metadata.creationTimestamp) : 0;
}

/** podutils `afterOrZero`: t1 after t2, a zero time counting as after any other. */
function afterOrZero(t1: number, t2: number): boolean {
  if (t1 === 0 || t2 === 0) return t1 === 0;
  return t1 > t2;
}

/** Phases missing from podutils' maps (Succeeded, Failed) read as 0, as a Go map lookup does. */
function rank(phase: string | undefined, order: Readonly<Record<string, number>>): number {
  return order[phase ?? ''] ?? 0;
}

type Less = (a: Pod, b: Pod) => boolean;

/**
 * podutils `ByLogging.Less` (kubectl `logs TYPE/NAME`): assigned, Running < Unknown < Pending, ready,
 * ready the longest, more restarts, older. Nothing looks at deletionTimestamp: a Terminating pod that is
 * still Running and Ready can win (kubernetes/kubectl#1370; the PRs that changed it were not merged).
 */
export const byLogging: Less = (a, b) => {
  const na = a.spec?.nodeName ?? '';
  const nb = b.spec?.nodeName ?? '';
  if (na !== nb && (na === '' || nb === '')) return na !== '';
  const order = { Running: 0, Unknown: 1, Pending: 2 };
  if (rank(a.status?.phase, order) !== rank(b.status?.phase, order))
    return rank(a.status?.phase, order) < rank(b.status?.phase, order);
  if (isReady(a) !== isReady(b)) return isReady(a);
  if (isReady(a) && isReady(b) && readyTime(a) !== readyTime(b))
    return afterOrZero(readyTime(b), readyTime(a));
  if (maxRestarts(a) !== maxRestarts(b)) return maxRestarts(a) > maxRestarts(b);
  if (created(a) !== created(b)) return afterOrZero(created(b), created(a));
  return false;
};

/** podutils `ActivePods.Less`: the order a controller deletes in (least active first). */
const activePods: Less = (a, b) => {
  const na = a.spec?.nodeName ?? '';
  const nb = b.spec?.nodeName ?? '';
  if (na !== nb && (na === '' || nb === '')) return na === '';
  const order = { Pending: 0, Unknown: 1, Running: 2 };
  if (rank(a.status?.phase, order) !== rank(b.status?.phase, order))
    return rank(a.status?.phase, order) < rank(b.status?.phase, order);
  if (isReady(a) !== isReady(b)) return !isReady(a);
  if (isReady(a) && isReady(b) && readyTime(a) !== readyTime(b))
    return afterOrZero(readyTime(a), readyTime(b));
  if (maxRestarts(a) !== maxRestarts(b)) return maxRestarts(a) > maxRestarts(b);
  if (created(a) !== created(b)) return afterOrZero(created(a), created(b));
  return false;
};

/** `sort.Reverse(podutils.ActivePods(pods))` (AttachablePodForObject: exec, attach, port-forward). */
export const mostActive: Less = (a, b) => activePods(b, a);

/**
 * `GetFirstPod`: the first pod after `sort.Sort`. Go's sort is not stable; ties keep the API's list
 * order (by name) here, which a stable sort gives.
 */
export function firstPod(pods: readonly Pod[], less: Less): Pod | undefined {
  return sortPods(pods, less)[0];
}

function sortPods(pods: readonly Pod[], less: Less): Pod[] {
  return [...pods].sort((a, b) => (less(a, b) ? -1 : less(b, a) ? 1 : 0));
}

export interface PodTarget {
  readonly pod: Pod;
  /** How many pods the selector matched (for "Found 3 pods, using pod/…"). */
  readonly candidates: number;
  /** Every matching pod in `less` order (`logs --all-pods` reads them all). */
  readonly pods: readonly Pod[];
}

/**
 * Resolves `POD` or `TYPE/NAME` to a pod in the context's namespace. `purpose` names the
 * polymorphichelpers function kubectl goes through, whose errors say so: AttachablePodForObject
 * (exec, attach, port-forward: `cannot attach to *v1.Service: …`) or LogsForObject (`cannot get the
 * logs from *v1.Service: …`).
 */
export function resolvePodTarget(
  ctx: KubectlContext,
  arg: string,
  less: Less = mostActive,
  purpose: 'attach' | 'logs' | undefined = undefined,
): PodTarget {
  const ns = ctx.namespace;
  const api = ctx.host.api;
  const slash = arg.indexOf('/');
  if (slash < 0) {
    const pod = api.get('pods', ns, arg);
    if (!pod) throw notFound('pods', arg);
    return { pod, candidates: 1, pods: [pod] };
  }
  const info = mustResolve(arg.slice(0, slash));
  const name = arg.slice(slash + 1);
  if (info.key === 'pods') {
    const pod = api.get('pods', ns, name);
    if (!pod) throw notFound('pods', name);
    return { pod, candidates: 1, pods: [pod] };
  }
  const obj = api.get(info.key, ns, name);
  if (!obj) throw notFound(info.key, name);
  const pods = api.list('pods', ns);
  let matching: Pod[];
  if (info.key === 'services') {
    const sel = (obj as Service).spec?.selector;
    if (!sel || Object.keys(sel).length === 0)
      throw cmdError(
        `${purpose === 'attach' ? 'cannot attach to *v1.Service: ' : purpose === 'logs' ? 'cannot get the logs from *v1.Service: ' : ''}invalid service '${name}': Service is defined without a selector`,
      );
    matching = pods.filter((p) => matchesMapSelector(sel, p.metadata.labels));
  } else if (
    info.key === 'deployments.apps' ||
    info.key === 'replicasets.apps' ||
    info.key === 'daemonsets.apps'
  ) {
    const sel = (obj as Deployment | ReplicaSet).spec?.selector;
    matching = pods.filter((p) => matchesLabelSelector(sel, p.metadata.labels));
  } else {
    throw cmdError(`cannot attach to *v1.${info.kind}: selector for *v1.${info.kind} not implemented`);
  }
  const sorted = sortPods(matching, less);
  const pod = sorted[0];
  if (!pod) throw cmdError(`timed out waiting for the condition`);
  return { pod, candidates: matching.length, pods: sorted };
}

/** Picks the container (`-c`, annotation, or first with a notice on stderr). */
export function pickContainer(ctx: KubectlContext, pod: Pod, requested: string): string {
  const containers = pod.spec?.containers ?? [];
  if (requested !== '') return requested;
  const annotated = pod.metadata.annotations?.['kubectl.kubernetes.io/default-container'];
  if (annotated && containers.some((c) => c.name === annotated)) return annotated;
  const first = containers[0]?.name ?? '';
  const all = [
    ...containers.map((c) => c.name),
    ...(pod.spec?.initContainers ?? []).map((c) => `${c.name} (init)`),
    ...(pod.spec?.ephemeralContainers ?? []).map((c) => `${c.name} (ephem)`),
  ];
  // podcmd.FindOrDefaultContainerByName: the note is skipped with -q/--quiet (exec, attach).
  if (all.length > 1 && !ctx.flags.bool('quiet'))
    ctx.err(`Defaulted container "${first}" out of: ${all.join(', ')}\n`);
  return first;
}
