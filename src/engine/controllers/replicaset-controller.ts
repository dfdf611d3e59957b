/**
 * The ReplicaSet controller (pkg/controller/replicaset/replica_set.go): keeps `spec.replicas` active
 * pods matching the selector, creating them from the template (`<rs>-<5 chars>`, controller
 * ownerReference, `SuccessfulCreate` "Created pod: …") or deleting the least valuable ones first
 * (`getPodsToDelete`: unscheduled, then pending, then not ready, then the newest — `SuccessfulDelete`),
 * adopting matching orphans and releasing pods whose labels stop matching; then writes status
 * (replicas, fullyLabeledReplicas, readyReplicas, availableReplicas, observedGeneration).
 *
 * Like upstream, one sync creates or deletes at most `BurstReplicas` (500) pods, creations in slow-start
 * batches (1, 2, 4, … `slowStartBatch`): `--replicas=100000` costs a bounded amount of work per sync
 * and the rest follows at later syncs, as the cluster settles and time passes.
 *
 * Simplified: no expectations cache. Upstream skips a sync until its informer has observed the pods
 * the last one created or deleted; our store is read synchronously, so by the next sync it always has.
 */
import type { ManifestOf, Pod, ReplicaSet, ResourceKey } from '../api/objects.ts';
import type { WatchEvent } from '../api/store.ts';
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import { objectKey, POD_CONTROLLER_INDEX, POD_ORPHAN_INDEX } from '../api/store.ts';
import { compareObjects } from '../api/table.ts';
import { fromLabelSelector, matches, type Selector } from '../api/labels.ts';
import { deepClone, jsonEqual } from '../util/json.ts';
import { BaseController, splitKey } from './base-controller.ts';
import { controllerOf, controllerRef, createControlledPod } from './pod-util.ts';
import { isPodActive, isPodAvailable, isPodReady } from '../api/pod-status.ts';

/**
 * `BurstReplicas` (pkg/controller/replicaset/replica_set.go): the most pods one sync of a ReplicaSet
 * creates or deletes ("realistic value … based off performance requirements for kubernetes 1.0").
 */
export const BURST_REPLICAS = 500;
/** `controller.SlowStartInitialBatchSize`: the first batch of creations is a single pod. */
const SLOW_START_INITIAL_BATCH_SIZE = 1;

export interface ReplicaPlan {
  readonly create: number;
  readonly remove: readonly Pod[];
}

/**
 * The pure part: how many pods to create, which to delete (`manageReplicas`), at most `burst` either
 * way; the next sync sees the remaining difference.
 */
export function planReplicas(desired: number, active: readonly Pod[], burst = BURST_REPLICAS): ReplicaPlan {
  const diff = active.length - desired;
  if (diff < 0) return { create: Math.min(-diff, burst), remove: [] };
  if (diff === 0) return { create: 0, remove: [] };
  return { create: 0, remove: [...active].sort(deletionRank).slice(0, Math.min(diff, burst)) };
}

/**
 * `slowStartBatch`: calls `fn` up to `count` times in batches of `initial`, 2×, 4×, …; once a batch has
 * a failure the remaining batches are skipped (a project out of quota does not spam the API with
 * hundreds of doomed creates, nor the events with their failures). Returns the successful calls.
 * Upstream runs each batch concurrently; here the calls of a batch run one after another.
 */
export function slowStartBatch(count: number, initial: number, fn: () => boolean): number {
  let remaining = count;
  let successes = 0;
  for (let batch = Math.min(remaining, initial); batch > 0; batch = Math.min(2 * batch, remaining)) {
    let failed = false;
    for (let i = 0; i < batch; i++) {
      if (fn()) successes++;
      else failed = true;
    }
    if (failed) return successes;
    remaining -= batch;
  }
  return successes;
}

/** `ActivePodsWithRanks`: pods to delete first sort first. */
function deletionRank(a: Pod, b: Pod): number {
  const scheduled = (p: Pod) => (p.spec?.nodeName ? 1 : 0);
  const phase = (p: Pod) => ({ Pending: 0, Unknown: 1, Running: 2 })[p.status?.phase ?? 'Pending'] ?? 0;
  const ready = (p: Pod) => (isPodReady(p) ? 1 : 0);
  const restarts = (p: Pod) => (p.status?.containerStatuses ?? []).reduce((s, c) => s + c.restartCount, 0);
  return (
    scheduled(a) - scheduled(b) ||
    phase(a) - phase(b) ||
    ready(a) - ready(b) ||
    restarts(b) - restarts(a) ||
    (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '') ||
    b.metadata.name.localeCompare(a.metadata.name)
  );
}

export class ReplicaSetController extends BaseController {
  readonly name = 'replicaset-controller';

  protected watches(): [ResourceKey, (e: WatchEvent) => readonly string[]][] {
    return [
      ['replicasets.apps', (e) => [objectKey(e.object.metadata.namespace, e.object.metadata.name)]],
      [
        'pods',
        (e) => {
          const owners = [e.object, e.oldObject].map((o) => (o ? controllerOf(o as Pod) : undefined));
          const keys = owners
            .filter((r) => r?.kind === 'ReplicaSet')
            .map((r) => objectKey(e.object.metadata.namespace, r!.name));
          // An orphan may be adopted by any ReplicaSet of its namespace whose selector matches it.
          if (!controllerOf(e.object as Pod)) {
            for (const rs of this.ctx.api.list('replicasets.apps', e.object.metadata.namespace)) {
              keys.push(objectKey(rs.metadata.namespace, rs.metadata.name));
            }
          }
          return keys;
        },
      ],
    ];
  }

  protected initialKeys(): string[] {
    return this.ctx.api
      .list('replicasets.apps')
      .map((rs) => objectKey(rs.metadata.namespace, rs.metadata.name));
  }

  protected reconcile(key: string): boolean {
    const [ns, name] = splitKey(key);
    const rs = this.ctx.api.get('replicasets.apps', ns, name);
    if (!rs || rs.metadata.deletionTimestamp) return false;
    let wrote = this.claimPods(rs);
    const pods = this.ownedPods(rs);
    const active = pods.filter(isPodActive);
    const plan = planReplicas(rs.spec?.replicas ?? 1, active);
    if (slowStartBatch(plan.create, SLOW_START_INITIAL_BATCH_SIZE, () => this.createPod(rs)) > 0)
      wrote = true;
    for (const pod of plan.remove) {
      this.ctx.api.delete('pods', ns, pod.metadata.name);
      this.record(rs, 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
      wrote = true;
    }
    return this.writeStatus(rs) || wrote;
  }

  /** Adopts orphans that match the selector; releases owned pods that no longer do (`ClaimPods`). */
  private claimPods(rs: ReplicaSet): boolean {
    const owner = rs;
    let wrote = false;
    // Only the pods it controls and the namespace's orphans can change hands, in the API's list order.
    const candidates = [
      ...this.ownedPods(rs),
      ...this.ctx.api.byIndex('pods', POD_ORPHAN_INDEX, rs.metadata.namespace ?? ''),
    ].sort((a, b) => compareObjects(a, b));
    for (const pod of candidates) {
      const matches = safeMatch(rs, pod);
      const ref = controllerOf(pod);
      if (ref?.uid === rs.metadata.uid && !matches) {
        const next = deepClone(pod);
        next.metadata.ownerReferences = (next.metadata.ownerReferences ?? []).filter(
          (r) => r.uid !== rs.metadata.uid,
        );
        this.ctx.api.updateMetadata(next);
        wrote = true;
      } else if (!ref && matches && isPodActive(pod)) {
        const next = deepClone(pod);
        next.metadata.ownerReferences = [...(next.metadata.ownerReferences ?? []), controllerRef(owner)];
        this.ctx.api.updateMetadata(next);
        wrote = true;
      }
    }
    return wrote;
  }

  /** The pods of the ReplicaSet's namespace that it controls, in list order. */
  private ownedPods(rs: ReplicaSet): Pod[] {
    return this.ctx.api
      .byIndex('pods', POD_CONTROLLER_INDEX, rs.metadata.uid)
      .filter((p) => p.metadata.namespace === rs.metadata.namespace);
  }

  private createPod(rs: ReplicaSet): boolean {
    return createControlledPod(
      this.ctx,
      rs,
      'replicaset-controller',
      podFromTemplate(rs),
      `${rs.metadata.name}-`,
      (pod) => this.ctx.api.createFromTemplate(pod),
    );
  }

  private writeStatus(rs: ReplicaSet): boolean {
    const now = this.ctx.clock.now();
    const pods = this.ownedPods(rs).filter(isPodActive);
    const templateLabels = rs.spec?.template?.metadata?.labels ?? {};
    const minReady = rs.spec?.minReadySeconds ?? 0;
    // Zero counts are omitted, as the API serialises them (`omitempty`); replicas always appears.
    const status = omitZero(
      {
        replicas: pods.length,
        fullyLabeledReplicas: pods.filter((p) =>
          Object.entries(templateLabels).every(([k, v]) => p.metadata.labels?.[k] === v),
        ).length,
        readyReplicas: pods.filter(isPodReady).length,
        availableReplicas: pods.filter((p) => isPodAvailable(p, minReady, now)).length,
        observedGeneration: rs.metadata.generation ?? 1,
      },
      ['replicas'],
    );
    if (jsonEqual(status, rs.status)) return false;
    this.ctx.api.updateStatus({ ...rs, status });
    return true;
  }

  private record(
    rs: ReplicaSet,
    reason: string,
    message: string,
    type: 'Normal' | 'Warning' = 'Normal',
  ): void {
    this.ctx.recorder.event(rs, type, reason, message, {
      component: 'replicaset-controller',
    });
  }
}

/** controller_utils `GetPodFromTemplate`: the pod a ReplicaSet creates, before it is named. */
export function podFromTemplate(rs: ReplicaSet): ManifestOf<'Pod'> {
  const template = rs.spec?.template;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      namespace: rs.metadata.namespace,
      labels: { ...template?.metadata?.labels },
      ...(template?.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
      ownerReferences: [controllerRef(rs)],
    },
    // The API server copies it: the template itself is never handed on.
    spec: template?.spec ?? { containers: [] },
  };
}

export function omitZero<T extends Record<string, unknown>>(obj: T, keep: readonly string[] = []): T {
  return Object.fromEntries(
    Object.entries(obj).filter(([k, v]) => keep.includes(k) || (v !== 0 && v !== undefined)),
  ) as T;
}

function safeMatch(rs: ReplicaSet, pod: Pod): boolean {
  const selector = selectorOf(rs.spec?.selector);
  return selector !== undefined && matches(selector, pod.metadata.labels);
}

/**
 * A ReplicaSet's parsed selector per stored selector object (never changed in place), undefined when
 * it is empty or invalid: every claim checked each pod against a selector parsed anew.
 */
const selectors = new WeakMap<object, Selector | undefined>();

function selectorOf(ls: LabelSelector | undefined): Selector | undefined {
  if (!ls || Object.keys(ls).length === 0) return undefined;
  if (selectors.has(ls)) return selectors.get(ls);
  let parsed: Selector | undefined;
  try {
    parsed = fromLabelSelector(ls);
  } catch {
    parsed = undefined;
  }
  selectors.set(ls, parsed);
  return parsed;
}
