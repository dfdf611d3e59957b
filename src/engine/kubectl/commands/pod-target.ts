/**
 * How exec, logs, port-forward and attach find their pod (polymorphichelpers `AttachablePodForObject`):
 * a pod name, `pod/NAME`, or a workload/Service whose selector picks the pods, of which the "best" one
 * is used (running and ready before others, then the oldest), and which container: `-c`, the
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

function isReady(p: Pod): boolean {
  return (
    p.status?.phase === 'Running' &&
    (p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')
  );
}

/** Orders candidate pods like kubectl's `podutils.ByLogging`: ready and running first, then older. */
export function bestPod(pods: readonly Pod[]): Pod | undefined {
  return [...pods].sort((a, b) => {
    const ra = isReady(a) ? 0 : a.status?.phase === 'Running' ? 1 : 2;
    const rb = isReady(b) ? 0 : b.status?.phase === 'Running' ? 1 : 2;
    if (ra !== rb) return ra - rb;
    const ta = parseTimestamp(a.metadata.creationTimestamp);
    const tb = parseTimestamp(b.metadata.creationTimestamp);
    if (ta !== tb) return ta - tb;
    return a.metadata.name < b.metadata.name ? -1 : 1;
  })[0];
}

export interface PodTarget {
  readonly pod: Pod;
  /** How many pods the selector matched (for "Found 3 pods, using pod/…"). */
  readonly candidates: number;
}

/** Resolves `POD` or `TYPE/NAME` to a pod in the context's namespace. */
export function resolvePodTarget(ctx: KubectlContext, arg: string): PodTarget {
  const ns = ctx.namespace;
  const api = ctx.host.api;
  const slash = arg.indexOf('/');
  if (slash < 0) {
    const pod = api.get('pods', ns, arg);
    if (!pod) throw notFound('pods', arg);
    return { pod, candidates: 1 };
  }
  const info = mustResolve(arg.slice(0, slash));
  const name = arg.slice(slash + 1);
  if (info.key === 'pods') {
    const pod = api.get('pods', ns, name);
    if (!pod) throw notFound('pods', name);
    return { pod, candidates: 1 };
  }
  const obj = api.get(info.key, ns, name);
  if (!obj) throw notFound(info.key, name);
  const pods = api.list('pods', ns);
  let matching: Pod[];
  if (info.key === 'services') {
    const sel = (obj as Service).spec?.selector;
    if (!sel || Object.keys(sel).length === 0)
      throw cmdError(`invalid service '${name}': Service is defined without a selector`);
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
  const pod = bestPod(matching);
  if (!pod) throw cmdError(`timed out waiting for the condition`);
  return { pod, candidates: matching.length };
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
  if (all.length > 1) ctx.err(`Defaulted container "${first}" out of: ${all.join(', ')}\n`);
  return first;
}
