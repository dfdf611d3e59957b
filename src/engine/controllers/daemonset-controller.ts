/**
 * The DaemonSet controller (pkg/controller/daemon/daemon_controller.go): one pod per eligible node —
 * the node matches the nodeSelector/affinity and its NoSchedule/NoExecute taints are tolerated —
 * created as `<ds>-<5 chars>` with a required node affinity on `metadata.name` so the scheduler binds
 * it there (ScheduleDaemonSetPods), plus the tolerations every daemon pod gets
 * (`util.AddOrUpdateDaemonPodTolerations`). Pods on nodes that are no longer eligible are deleted; a
 * template change (or `kubectl rollout restart`) replaces pods as RollingUpdate says: by default one
 * node at a time (maxUnavailable 1, maxSurge 0), the next node only once the new pod is available;
 * OnDelete waits for the pods to be deleted by hand. Status counts follow `updateDaemonSetStatus`.
 */
import type { Toleration } from 'kubernetes-types/core/v1';
import type { DaemonSet, Node, Pod, ResourceKey } from '../api/objects.ts';
import type { WatchEvent } from '../api/store.ts';
import { objectKey, POD_CONTROLLER_INDEX } from '../api/store.ts';
import { parseTimestamp } from '../util/clock.ts';
import { deepClone, jsonEqual } from '../util/json.ts';
import { BaseController, splitKey } from './base-controller.ts';
import { controllerOf, controllerRef, createControlledPod, isControlledBy } from './pod-util.ts';
import { isPodActive, isPodAvailable, isPodReady, isPodTerminal } from '../api/pod-status.ts';
import { untoleratedTaint } from './taints.ts';
import { computeHash } from './deployment-util.ts';
import { omitZero } from './replicaset-controller.ts';

const REVISION_LABEL = 'controller-revision-hash';

/** Tolerations the DaemonSet controller adds to every daemon pod. */
export function daemonTolerations(hostNetwork: boolean): Toleration[] {
  const t = (key: string, effect: string): Toleration => ({ key, operator: 'Exists', effect });
  return [
    t('node.kubernetes.io/not-ready', 'NoExecute'),
    t('node.kubernetes.io/unreachable', 'NoExecute'),
    t('node.kubernetes.io/disk-pressure', 'NoSchedule'),
    t('node.kubernetes.io/memory-pressure', 'NoSchedule'),
    t('node.kubernetes.io/pid-pressure', 'NoSchedule'),
    t('node.kubernetes.io/unschedulable', 'NoSchedule'),
    ...(hostNetwork ? [t('node.kubernetes.io/network-unavailable', 'NoSchedule')] : []),
  ];
}

/** Whether a daemon pod belongs on `node` (`NodeShouldRunDaemonPod`). */
export function shouldRunOn(ds: DaemonSet, node: Node): boolean {
  const spec = ds.spec?.template?.spec;
  const labels = node.metadata.labels ?? {};
  for (const [k, v] of Object.entries(spec?.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const tolerations = [...(spec?.tolerations ?? []), ...daemonTolerations(!!spec?.hostNetwork)];
  return untoleratedTaint(node.spec?.taints, tolerations) === undefined;
}

export class DaemonSetController extends BaseController {
  readonly name = 'daemonset-controller';
  /** When a DaemonSet must look again on its own: a new pod reaching minReadySeconds. */

  protected watches(): [ResourceKey, (e: WatchEvent) => readonly string[]][] {
    return [
      ['daemonsets.apps', (e) => [objectKey(e.object.metadata.namespace, e.object.metadata.name)]],
      [
        'pods',
        (e) => {
          const ref = controllerOf(e.object as Pod);
          return ref?.kind === 'DaemonSet' ? [objectKey(e.object.metadata.namespace, ref.name)] : [];
        },
      ],
      ['nodes', () => this.initialKeys()],
    ];
  }

  protected initialKeys(): string[] {
    return this.ctx.api.list('daemonsets.apps').map((d) => objectKey(d.metadata.namespace, d.metadata.name));
  }

  nextWakeup(): number | undefined {
    return this.queue.nextDue();
  }

  wake(): void {
    this.queue.addDue(this.ctx.clock.now());
  }

  protected reconcile(key: string): boolean {
    this.queue.forget(key);
    const [ns, name] = splitKey(key);
    const ds = this.ctx.api.get('daemonsets.apps', ns, name);
    if (!ds || ds.metadata.deletionTimestamp) return false;
    const hash = computeHash(ds.spec?.template).slice(0, 10);
    const nodes = this.ctx.api.list('nodes');
    const byNode = this.podsByNode(ds);
    const surge = this.limits(ds, 0).maxSurge > 0;
    let wrote = false;
    // `manage`: a pod on every eligible node, none elsewhere. A node whose pod is still terminating
    // gets its replacement only once that pod is gone (the node "has" a pod until then).
    for (const node of nodes) {
      const here = byNode.get(node.metadata.name) ?? [];
      const live = here.filter((p) => !p.metadata.deletionTimestamp);
      if (shouldRunOn(ds, node)) {
        if (here.length === 0) wrote = this.createPod(ds, node, hash) || wrote;
        // Without surge one pod per node; with surge an old and a new one may overlap.
        const keep = surge ? keptWithSurge(live, hash) : live.slice(0, 1);
        for (const extra of live) if (!keep.includes(extra)) wrote = this.deletePod(ds, extra) || wrote;
      } else {
        for (const p of live) wrote = this.deletePod(ds, p) || wrote;
      }
    }
    if ((ds.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate')
      wrote = this.rollingUpdate(ds, nodes, this.podsByNode(ds), hash) || wrote;
    return this.writeStatus(ds, hash, nodes) || wrote;
  }

  /** Non-terminal pods of the DaemonSet (terminating ones included) by the node they are for. */
  private podsByNode(ds: DaemonSet): Map<string, Pod[]> {
    const byNode = new Map<string, Pod[]>();
    const pods = this.ctx.api
      .byIndex('pods', POD_CONTROLLER_INDEX, ds.metadata.uid)
      .filter((p) => p.metadata.namespace === ds.metadata.namespace && !isPodTerminal(p));
    for (const p of pods) {
      const node = targetNode(p);
      if (node === undefined) continue;
      const list = byNode.get(node);
      if (list) list.push(p);
      else byNode.set(node, [p]);
    }
    return byNode;
  }

  /**
   * maxSurge and maxUnavailable scaled against the desired number of nodes, rounding up
   * (`util.SurgeCount`, `util.UnavailableCount`); both zero would stall, so unavailable becomes 1.
   */
  private limits(ds: DaemonSet, desired: number): { maxSurge: number; maxUnavailable: number } {
    const ru = ds.spec?.updateStrategy?.rollingUpdate;
    const scaled = (v: number | string | undefined, fallback: number) => {
      if (v === undefined) return fallback;
      if (typeof v === 'number') return v;
      const m = /^(\d+)%$/.exec(v);
      return m ? Math.ceil((Number(m[1]) * desired) / 100) : Number(v) || 0;
    };
    const maxSurge = scaled(ru?.maxSurge, 0);
    let maxUnavailable = scaled(ru?.maxUnavailable, 1);
    if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
    return { maxSurge, maxUnavailable };
  }

  /**
   * `rollingUpdate` (pkg/controller/daemon/update.go). Without surge: old pods are deleted while
   * fewer than maxUnavailable nodes are unavailable (a node counts as unavailable while its new pod
   * is not available yet, or while it has no pod, or both an old and a new one); an old pod that is
   * itself unavailable may always go. With surge: a new pod starts beside the old one on up to
   * maxSurge nodes, and the old pod is deleted once the new one is available. Nodes are taken in name
   * order (upstream walks a map, in no fixed order).
   */
  private rollingUpdate(
    ds: DaemonSet,
    nodes: readonly Node[],
    byNode: ReadonlyMap<string, Pod[]>,
    hash: string,
  ): boolean {
    const now = this.ctx.clock.now();
    const minReady = ds.spec?.minReadySeconds ?? 0;
    const available = (p: Pod) => isPodAvailable(p, minReady, now);
    const eligible = nodes.filter((n) => shouldRunOn(ds, n)).map((n) => n.metadata.name);
    const { maxSurge, maxUnavailable } = this.limits(ds, eligible.length);
    const toDelete: Pod[] = [];
    const toCreate: string[] = [];
    let waitingOn: Pod | undefined;
    if (maxSurge === 0) {
      let unavailable = 0;
      const allowed: Pod[] = [];
      const candidates: Pod[] = [];
      for (const node of [...byNode.keys()].sort()) {
        const found = updatedOnNode(byNode.get(node) ?? [], hash);
        if (!found) {
          unavailable++;
          continue;
        }
        const { newPod, oldPod } = found;
        if ((!oldPod && !newPod) || (oldPod && newPod)) unavailable++;
        else if (newPod) {
          if (!available(newPod)) {
            unavailable++;
            waitingOn ??= newPod;
          }
        } else if (oldPod) {
          if (!available(oldPod)) allowed.push(oldPod);
          else if (unavailable < maxUnavailable) candidates.push(oldPod);
        }
      }
      const remaining = Math.min(Math.max(maxUnavailable - unavailable, 0), candidates.length);
      toDelete.push(...allowed, ...candidates.slice(0, remaining));
    } else {
      let surging = 0;
      const allowedNew: string[] = [];
      const candidateNew: string[] = [];
      for (const node of eligible) {
        const found = updatedOnNode(byNode.get(node) ?? [], hash);
        if (!found || !found.oldPod) continue;
        const { newPod, oldPod } = found;
        if (newPod) {
          surging++;
          if (available(newPod)) toDelete.push(oldPod);
          else waitingOn ??= newPod;
        } else if (!available(oldPod)) allowedNew.push(node);
        else candidateNew.push(node);
      }
      const remaining = Math.min(Math.max(maxSurge - surging, 0), candidateNew.length);
      toCreate.push(...allowedNew, ...candidateNew.slice(0, remaining));
    }
    // A new pod that is ready but not yet minReadySeconds old becomes available on its own.
    const readyAt = waitingOn ? readySince(waitingOn) : undefined;
    if (readyAt !== undefined && minReady > 0)
      this.queue.addAfter(objectKey(ds.metadata.namespace, ds.metadata.name), readyAt + minReady * 1000);
    let wrote = false;
    for (const p of toDelete) wrote = this.deletePod(ds, p) || wrote;
    const byName = new Map(nodes.map((n) => [n.metadata.name, n]));
    for (const n of toCreate) wrote = this.createPod(ds, byName.get(n)!, hash) || wrote;
    return wrote;
  }

  private createPod(ds: DaemonSet, node: Node, hash: string): boolean {
    const template = deepClone(ds.spec?.template ?? {});
    const spec = template.spec ?? { containers: [] };
    const hostNetwork = !!spec.hostNetwork;
    const existing = spec.tolerations ?? [];
    const tolerations = [
      ...existing,
      ...daemonTolerations(hostNetwork).filter(
        (t) => !existing.some((e) => e.key === t.key && e.effect === t.effect),
      ),
    ];
    return createControlledPod(
      this.ctx,
      ds,
      'daemonset-controller',
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          namespace: ds.metadata.namespace,
          labels: {
            ...template.metadata?.labels,
            [REVISION_LABEL]: hash,
            'pod-template-generation': String(ds.metadata.generation ?? 1),
          },
          ...(template.metadata?.annotations ? { annotations: template.metadata.annotations } : {}),
          ownerReferences: [controllerRef(ds)],
        },
        spec: {
          ...spec,
          tolerations,
          affinity: {
            ...spec.affinity,
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchFields: [{ key: 'metadata.name', operator: 'In', values: [node.metadata.name] }] },
                ],
              },
            },
          },
        },
      },
      `${ds.metadata.name}-`,
    );
  }

  private deletePod(ds: DaemonSet, pod: Pod): boolean {
    this.ctx.api.delete('pods', pod.metadata.namespace, pod.metadata.name);
    this.record(ds, 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
    return true;
  }

  private writeStatus(ds: DaemonSet, hash: string, nodes: readonly Node[]): boolean {
    const now = this.ctx.clock.now();
    const owner = ds;
    const pods = this.ctx.api
      .list('pods', ds.metadata.namespace)
      .filter((p) => isControlledBy(p, owner) && isPodActive(p));
    const eligible = nodes.filter((n) => shouldRunOn(ds, n)).map((n) => n.metadata.name);
    const scheduled = pods.filter((p) => p.spec?.nodeName);
    const onEligible = scheduled.filter((p) => eligible.includes(p.spec!.nodeName!));
    const available = onEligible.filter((p) => isPodAvailable(p, ds.spec?.minReadySeconds ?? 0, now)).length;
    const status = omitZero(
      {
        currentNumberScheduled: new Set(onEligible.map((p) => p.spec!.nodeName)).size,
        desiredNumberScheduled: eligible.length,
        numberAvailable: available,
        numberMisscheduled: scheduled.length - onEligible.length,
        numberReady: onEligible.filter(isPodReady).length,
        numberUnavailable: Math.max(eligible.length - available, 0),
        observedGeneration: ds.metadata.generation ?? 1,
        updatedNumberScheduled: onEligible.filter((p) => p.metadata.labels?.[REVISION_LABEL] === hash).length,
      },
      ['currentNumberScheduled', 'desiredNumberScheduled', 'numberMisscheduled', 'numberReady'],
    );
    if (jsonEqual(status, ds.status)) return false;
    this.ctx.api.updateStatus({ ...ds, status });
    return true;
  }

  private record(
    ds: DaemonSet,
    reason: string,
    message: string,
    type: 'Normal' | 'Warning' = 'Normal',
  ): void {
    this.ctx.recorder.event(ds, type, reason, message, {
      component: 'daemonset-controller',
    });
  }
}

/**
 * `findUpdatedPodsOnNode`: the node's new (current hash) and old pod, ignoring terminating ones;
 * undefined when there are two of either (the manage step cleans that up first).
 */
function updatedOnNode(pods: readonly Pod[], hash: string): { newPod?: Pod; oldPod?: Pod } | undefined {
  let newPod: Pod | undefined;
  let oldPod: Pod | undefined;
  for (const p of pods) {
    if (p.metadata.deletionTimestamp) continue;
    if (p.metadata.labels?.[REVISION_LABEL] === hash) {
      if (newPod) return undefined;
      newPod = p;
    } else {
      if (oldPod) return undefined;
      oldPod = p;
    }
  }
  return { ...(newPod ? { newPod } : {}), ...(oldPod ? { oldPod } : {}) };
}

/**
 * With surge, a node keeps its oldest new pod, plus its oldest old pod only while the new one is not
 * ready and the old one is; every other pod goes (`podsShouldBeOnNode`).
 */
function keptWithSurge(live: readonly Pod[], hash: string): Pod[] {
  const oldest = (ps: Pod[]) =>
    ps.sort((a, b) =>
      (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''),
    )[0];
  const newest = oldest(live.filter((p) => p.metadata.labels?.[REVISION_LABEL] === hash));
  const old = oldest(live.filter((p) => p.metadata.labels?.[REVISION_LABEL] !== hash));
  if (newest && old) return !isPodReady(newest) && isPodReady(old) ? [newest, old] : [newest];
  return newest ? [newest] : old ? [old] : [];
}

function readySince(pod: Pod): number | undefined {
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'True');
  return ready?.lastTransitionTime ? parseTimestamp(ready.lastTransitionTime) : undefined;
}

/** The node a daemon pod is for: where it runs, or the one its node affinity names. */
function targetNode(pod: Pod): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  const terms =
    pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  return terms[0]?.matchFields?.find((f) => f.key === 'metadata.name')?.values?.[0];
}
