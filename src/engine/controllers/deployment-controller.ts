/**
 * The Deployment controller (pkg/controller/deployment: deployment_controller.go, sync.go,
 * rolling.go, recreate.go, progress.go). Each sync:
 *  1. existing — the ReplicaSets this Deployment controls;
 *  2. desired — the "new" ReplicaSet is the one whose template equals the Deployment's (ignoring
 *     pod-template-hash); if none, create `<deployment>-<hash>` with the next revision;
 *  3. plan — RollingUpdate: grow the new ReplicaSet within maxSurge, shrink old ones keeping
 *     `replicas - maxUnavailable` available (deployment-util.ts); Recreate: old to zero, then new;
 *  4. apply — scale through the API (`ScalingReplicaSet` "Scaled up replica set … from 0 to 3"),
 *     prune history beyond revisionHistoryLimit, write status and the Available/Progressing
 *     conditions with the real reasons.
 *
 * `kubectl rollout restart` changes the template annotation `kubectl.kubernetes.io/restartedAt`, which
 * changes the hash, so a new ReplicaSet rolls out. `rollout undo` copies an old template back: that
 * ReplicaSet becomes new again and gets the next revision.
 *
 * Simplified: no proportional scaling of several active ReplicaSets (a scale mid-rollout applies to
 * the new one), no paused-rollout conditions.
 */
import type { Deployment, ManifestOf, ReplicaSet, ResourceKey } from '../api/objects.ts';
import type { WatchEvent } from '../api/store.ts';
import { objectKey } from '../api/store.ts';
import { isStatusError } from '../api/errors.ts';
import { deepClone, jsonEqual } from '../util/json.ts';
import { parseTimestamp } from '../util/clock.ts';
import { BaseController, splitKey } from './base-controller.ts';
import { controllerOf, controllerRef, isControlledBy } from './pod-util.ts';
import { POD_CONTROLLER_INDEX } from '../api/store.ts';
import { omitZero } from './replicaset-controller.ts';
import {
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  REVISION_ANNOTATION,
  TEMPLATE_HASH_LABEL,
  computeHash,
  newReplicaSetReplicas,
  scaleDownOld,
  setCondition,
  surgeAndUnavailable,
  equalIgnoringHash,
} from './deployment-util.ts';

export class DeploymentController extends BaseController {
  readonly name = 'deployment-controller';
  private readonly deadlines = new Map<string, number>();

  protected watches(): [ResourceKey, (e: WatchEvent) => readonly string[]][] {
    return [
      ['deployments.apps', (e) => [objectKey(e.object.metadata.namespace, e.object.metadata.name)]],
      [
        'replicasets.apps',
        (e) => {
          const ref =
            controllerOf(e.object as ReplicaSet) ??
            (e.oldObject ? controllerOf(e.oldObject as ReplicaSet) : undefined);
          return ref?.kind === 'Deployment' ? [objectKey(e.object.metadata.namespace, ref.name)] : [];
        },
      ],
    ];
  }

  protected initialKeys(): string[] {
    return this.ctx.api.list('deployments.apps').map((d) => objectKey(d.metadata.namespace, d.metadata.name));
  }

  nextWakeup(): number | undefined {
    const times = [...this.deadlines.values()];
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  wake(): void {
    const now = this.ctx.clock.now();
    for (const [key, t] of this.deadlines) if (t <= now) this.queue.add(key);
  }

  protected reconcile(key: string): boolean {
    this.deadlines.delete(key);
    const [ns, name] = splitKey(key);
    const d = this.ctx.api.get('deployments.apps', ns, name);
    if (!d || d.metadata.deletionTimestamp) return false;
    const owned = this.ownedReplicaSets(d);
    let wrote = false;
    let newRS = owned.find((rs) => equalIgnoringHash(rs.spec?.template, d.spec?.template));
    let created = false;
    if (!newRS && !d.spec?.paused) {
      const made = this.createReplicaSet(d, owned);
      if (!made) return this.bumpCollision(d);
      newRS = made;
      created = true;
      wrote = true;
    } else if (newRS) {
      wrote = this.syncRevision(newRS, owned) || wrote;
    }
    const olds = owned.filter((rs) => rs !== newRS);
    if (newRS && !d.spec?.paused) {
      wrote = this.rollout(d, newRS, olds) || wrote;
    }
    wrote = this.cleanup(d, olds) || wrote;
    return this.writeStatus(d, created) || wrote;
  }

  /** The ReplicaSets the Deployment controls, in list order (through the store's controller index). */
  private ownedReplicaSets(d: Deployment): ReplicaSet[] {
    return this.ctx.api
      .byIndex('replicasets.apps', POD_CONTROLLER_INDEX, d.metadata.uid)
      .filter((rs) => rs.metadata.namespace === d.metadata.namespace);
  }

  private createReplicaSet(d: Deployment, owned: readonly ReplicaSet[]): ReplicaSet | undefined {
    try {
      const rs = this.ctx.api.createFromTemplate(newReplicaSet(d, owned));
      const initial = rs.spec?.replicas ?? 0;
      if (initial > 0) this.scaled(d, rs, 0, initial);
      return rs;
    } catch (e) {
      if (isStatusError(e) && e.reason === 'AlreadyExists') return undefined;
      throw e;
    }
  }

  /** A hash collision (a foreign ReplicaSet took the name): count it, so the next hash differs. */
  private bumpCollision(d: Deployment): boolean {
    const status = { ...d.status, collisionCount: (d.status?.collisionCount ?? 0) + 1 };
    this.ctx.api.updateStatus({ ...d, status });
    return true;
  }

  /** A ReplicaSet that becomes new again (rollout undo) takes the next revision. */
  private syncRevision(newRS: ReplicaSet, owned: readonly ReplicaSet[]): boolean {
    const max = maxRevision(owned);
    const current = Number(newRS.metadata.annotations?.[REVISION_ANNOTATION] ?? 0);
    if (current >= max && max > 0) return false;
    const next = deepClone(newRS);
    next.metadata.annotations = { ...next.metadata.annotations, [REVISION_ANNOTATION]: String(max + 1) };
    this.ctx.api.updateMetadata(next);
    return true;
  }

  private rollout(d: Deployment, newRS: ReplicaSet, olds: readonly ReplicaSet[]): boolean {
    const replicas = d.spec?.replicas ?? 1;
    const all = [newRS, ...olds];
    let wrote = false;
    if (d.spec?.strategy?.type === 'Recreate') {
      for (const rs of olds) if ((rs.spec?.replicas ?? 0) > 0) wrote = this.scale(d, rs, 0) || wrote;
      const oldPods = this.ctx.api
        .list('pods', d.metadata.namespace)
        .filter((p) => olds.some((rs) => isControlledBy(p, rs)));
      if (oldPods.length === 0 && (newRS.spec?.replicas ?? 0) !== replicas)
        wrote = this.scale(d, newRS, replicas) || wrote;
      return wrote;
    }
    const current = newRS.spec?.replicas ?? 0;
    if (current > replicas) wrote = this.scale(d, newRS, replicas) || wrote;
    else {
      const target = newReplicaSetReplicas(d, all, newRS);
      if (target !== current) wrote = this.scale(d, newRS, target) || wrote;
    }
    const fresh =
      this.ctx.api.get('replicasets.apps', newRS.metadata.namespace, newRS.metadata.name) ?? newRS;
    for (const [name, size] of scaleDownOld(d, [fresh, ...olds], olds, fresh)) {
      const rs = olds.find((r) => r.metadata.name === name);
      if (rs) wrote = this.scale(d, rs, size) || wrote;
    }
    return wrote;
  }

  private scale(d: Deployment, rs: ReplicaSet, size: number): boolean {
    const from = rs.spec?.replicas ?? 0;
    const replicas = d.spec?.replicas ?? 1;
    const { maxSurge } = surgeAndUnavailable(d);
    const annotations = {
      ...rs.metadata.annotations,
      [DESIRED_REPLICAS_ANNOTATION]: String(replicas),
      [MAX_REPLICAS_ANNOTATION]: String(replicas + maxSurge),
    };
    if (from === size && jsonEqual(annotations, rs.metadata.annotations)) return false;
    const next = deepClone(rs);
    next.metadata.annotations = annotations;
    this.ctx.api.update({ ...next, spec: { ...next.spec!, replicas: size } });
    if (from !== size) this.scaled(d, rs, from, size);
    return true;
  }

  private scaled(d: Deployment, rs: ReplicaSet, from: number, to: number): void {
    const op = from < to ? 'up' : 'down';
    this.ctx.recorder.event(
      d,
      'Normal',
      'ScalingReplicaSet',
      `Scaled ${op} replica set ${rs.metadata.name} from ${from} to ${to}`,
      { component: 'deployment-controller' },
    );
  }

  /** `cleanupDeployment`: old ReplicaSets at zero beyond revisionHistoryLimit go, oldest first. */
  private cleanup(d: Deployment, olds: readonly ReplicaSet[]): boolean {
    const limit = d.spec?.revisionHistoryLimit ?? 10;
    const idle = olds
      .map((rs) => this.ctx.api.get('replicasets.apps', rs.metadata.namespace, rs.metadata.name))
      .filter(
        (rs): rs is ReplicaSet => !!rs && (rs.spec?.replicas ?? 0) === 0 && (rs.status?.replicas ?? 0) === 0,
      )
      .sort(
        (a, b) =>
          Number(a.metadata.annotations?.[REVISION_ANNOTATION] ?? 0) -
          Number(b.metadata.annotations?.[REVISION_ANNOTATION] ?? 0),
      );
    const excess = idle.length - limit;
    for (let i = 0; i < excess; i++)
      this.ctx.api.delete('replicasets.apps', idle[i]!.metadata.namespace, idle[i]!.metadata.name);
    return excess > 0;
  }

  private writeStatus(d: Deployment, created: boolean): boolean {
    const { api, clock } = this.ctx;
    const owned = this.ownedReplicaSets(d);
    const newRS = owned.find((rs) => equalIgnoringHash(rs.spec?.template, d.spec?.template));
    const replicas = d.spec?.replicas ?? 1;
    const sum = (f: (rs: ReplicaSet) => number) => owned.reduce((s, rs) => s + f(rs), 0);
    const available = sum((rs) => rs.status?.availableReplicas ?? 0);
    const counts = omitZero(
      {
        observedGeneration: d.metadata.generation ?? 1,
        replicas: sum((rs) => rs.status?.replicas ?? 0),
        updatedReplicas: newRS?.status?.replicas ?? 0,
        readyReplicas: sum((rs) => rs.status?.readyReplicas ?? 0),
        availableReplicas: available,
        unavailableReplicas: Math.max(replicas - available, 0),
        ...(d.status?.collisionCount ? { collisionCount: d.status.collisionCount } : {}),
      },
      ['observedGeneration'],
    );
    const now = clock.rfc3339();
    const { maxUnavailable } = surgeAndUnavailable(d);
    let conditions =
      available >= replicas - maxUnavailable
        ? setCondition(
            d.status?.conditions,
            'Available',
            'True',
            'MinimumReplicasAvailable',
            'Deployment has minimum availability.',
            now,
          )
        : setCondition(
            d.status?.conditions,
            'Available',
            'False',
            'MinimumReplicasUnavailable',
            'Deployment does not have minimum availability.',
            now,
          );
    const rsName = newRS?.metadata.name ?? '';
    const progressing = conditions.find((c) => c.type === 'Progressing');
    const complete =
      newRS !== undefined &&
      (counts.updatedReplicas ?? 0) === replicas &&
      (counts.replicas ?? 0) === replicas &&
      available === replicas;
    const deadline = (d.spec?.progressDeadlineSeconds ?? 600) * 1000;
    if (created) {
      conditions = setCondition(
        conditions,
        'Progressing',
        'True',
        'NewReplicaSetCreated',
        `Created new replica set "${rsName}"`,
        now,
      );
    } else if (newRS && !progressing) {
      conditions = setCondition(
        conditions,
        'Progressing',
        'True',
        'FoundNewReplicaSet',
        `Found new replica set "${rsName}"`,
        now,
      );
    } else if (complete) {
      conditions = setCondition(
        conditions,
        'Progressing',
        'True',
        'NewReplicaSetAvailable',
        `ReplicaSet "${rsName}" has successfully progressed.`,
        now,
      );
    } else if (newRS && progressing?.reason !== 'ProgressDeadlineExceeded') {
      const moved =
        (counts.updatedReplicas ?? 0) > (d.status?.updatedReplicas ?? 0) ||
        (counts.replicas ?? 0) < (d.status?.replicas ?? 0) ||
        (counts.readyReplicas ?? 0) > (d.status?.readyReplicas ?? 0) ||
        available > (d.status?.availableReplicas ?? 0);
      const since = parseTimestamp(progressing?.lastUpdateTime ?? now);
      if (moved || progressing?.reason === 'NewReplicaSetAvailable') {
        conditions = setCondition(
          conditions,
          'Progressing',
          'True',
          'ReplicaSetUpdated',
          `ReplicaSet "${rsName}" is progressing.`,
          now,
        );
        if (moved && progressing?.reason === 'ReplicaSetUpdated')
          conditions = touch(conditions, 'Progressing', now);
      } else if (since + deadline <= clock.now()) {
        conditions = setCondition(
          conditions,
          'Progressing',
          'False',
          'ProgressDeadlineExceeded',
          `ReplicaSet "${rsName}" has timed out progressing.`,
          now,
        );
      }
      const upd = conditions.find((c) => c.type === 'Progressing');
      if (
        upd?.reason === 'ReplicaSetUpdated' ||
        upd?.reason === 'NewReplicaSetCreated' ||
        upd?.reason === 'FoundNewReplicaSet'
      ) {
        this.deadlines.set(
          objectKey(d.metadata.namespace, d.metadata.name),
          parseTimestamp(upd.lastUpdateTime ?? now) + deadline,
        );
      }
    }
    const status = { ...counts, conditions };
    const changed = !jsonEqual(status, d.status);
    const revision = newRS?.metadata.annotations?.[REVISION_ANNOTATION];
    if (revision && d.metadata.annotations?.[REVISION_ANNOTATION] !== revision) {
      const next = deepClone(d);
      next.metadata.annotations = { ...next.metadata.annotations, [REVISION_ANNOTATION]: revision };
      api.updateMetadata(next);
    }
    if (changed) {
      const latest = api.get('deployments.apps', d.metadata.namespace, d.metadata.name) ?? d;
      api.updateStatus({ ...latest, status });
    }
    return changed || (!!revision && d.metadata.annotations?.[REVISION_ANNOTATION] !== revision);
  }
}

function maxRevision(sets: readonly ReplicaSet[]): number {
  return sets.reduce((m, rs) => Math.max(m, Number(rs.metadata.annotations?.[REVISION_ANNOTATION] ?? 0)), 0);
}

function touch(
  conditions: ReturnType<typeof setCondition>,
  type: string,
  now: string,
): ReturnType<typeof setCondition> {
  return conditions.map((c) => (c.type === type ? { ...c, lastUpdateTime: now } : c));
}

/**
 * The ReplicaSet a Deployment's current template needs (`getNewReplicaSet`): named and labelled with
 * the template's hash, revision after the owned ones, starting at full size when nothing else runs.
 */
export function newReplicaSet(d: Deployment, owned: readonly ReplicaSet[]): ManifestOf<'ReplicaSet'> {
  const hash = computeHash(d.spec?.template, d.status?.collisionCount);
  const template = d.spec?.template ?? {};
  const labels = { ...template.metadata?.labels, [TEMPLATE_HASH_LABEL]: hash };
  const revision = maxRevision(owned) + 1;
  const replicas = d.spec?.replicas ?? 1;
  const { maxSurge } = surgeAndUnavailable(d);
  const startReplicas =
    d.spec?.strategy?.type === 'Recreate' || owned.every((rs) => (rs.spec?.replicas ?? 0) === 0)
      ? replicas
      : 0;
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${d.metadata.name}-${hash}`,
      namespace: d.metadata.namespace,
      labels,
      annotations: {
        [DESIRED_REPLICAS_ANNOTATION]: String(replicas),
        [MAX_REPLICAS_ANNOTATION]: String(replicas + maxSurge),
        [REVISION_ANNOTATION]: String(revision),
      },
      ownerReferences: [controllerRef(d)],
    },
    spec: {
      replicas: d.spec?.strategy?.type === 'Recreate' ? 0 : startReplicas,
      minReadySeconds: d.spec?.minReadySeconds ?? 0,
      selector: {
        ...d.spec?.selector,
        matchLabels: { ...d.spec?.selector?.matchLabels, [TEMPLATE_HASH_LABEL]: hash },
      },
      // The API server copies the template: the Deployment's own is never handed on.
      template: { ...template, metadata: { ...template.metadata, labels } },
    },
  };
}
