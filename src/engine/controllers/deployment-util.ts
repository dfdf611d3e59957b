/**
 * Pure parts of the Deployment controller (pkg/controller/deployment/util/deployment_util.go):
 * pod-template-hash, maxSurge/maxUnavailable resolution, the rolling-update arithmetic
 * (`NewRSNewReplicas`, `reconcileOldReplicaSets` with `cleanupUnhealthyReplicas` and
 * `scaleDownOldReplicaSetsForRollingUpdate`) and the status conditions' reasons and messages.
 */
import type { DeploymentCondition } from 'kubernetes-types/apps/v1';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1';
import type { Deployment, ReplicaSet } from '../api/objects.ts';
import { fnv32a, safeEncodeString } from '../util/rng.ts';
import { jsonEqual } from '../util/json.ts';

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
export const TEMPLATE_HASH_LABEL = 'pod-template-hash';

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * `controller.ComputeHash`: FNV-32a over the template (plus the collision count), printed in decimal
 * and passed through SafeEncodeString. Upstream hashes Go's spew dump of the struct; we hash a
 * canonical JSON, so values differ from a real cluster's but have the same shape (`7d4c9b8d5`).
 */
export function computeHash(template: PodTemplateSpec | undefined, collisionCount?: number): string {
  const input = canonical(template ?? {}) + (collisionCount ? `#${collisionCount}` : '');
  return safeEncodeString(String(fnv32a(input)));
}

/**
 * `EqualIgnoreHash`: two pod templates are the same apart from the pod-template-hash label. Every
 * reconcile asks it of each owned ReplicaSet, so it compares in place rather than serialising both.
 */
export function equalIgnoringHash(a: PodTemplateSpec | undefined, b: PodTemplateSpec | undefined): boolean {
  return a === b || jsonEqual(withoutHashLabel(a ?? {}), withoutHashLabel(b ?? {}));
}

function withoutHashLabel(template: PodTemplateSpec): PodTemplateSpec {
  const labels = template.metadata?.labels;
  if (!labels || !Object.prototype.hasOwnProperty.call(labels, TEMPLATE_HASH_LABEL)) return template;
  const { [TEMPLATE_HASH_LABEL]: _hash, ...rest } = labels;
  return {
    ...template,
    metadata: { ...template.metadata, labels: Object.keys(rest).length > 0 ? rest : undefined },
  };
}

/** intstr percent or number, scaled against `total` (surge rounds up, unavailable down). */
function resolve(
  value: number | string | undefined,
  fallback: string,
  total: number,
  roundUp: boolean,
): number {
  const v = value ?? fallback;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (!m) return Number(v) || 0;
  const x = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

/** `ResolveFenceposts`: both zero is not allowed, so unavailable becomes 1. */
export function surgeAndUnavailable(d: Deployment): { maxSurge: number; maxUnavailable: number } {
  const replicas = d.spec?.replicas ?? 1;
  const ru = d.spec?.strategy?.rollingUpdate;
  const maxSurge = resolve(ru?.maxSurge, '25%', replicas, true);
  let maxUnavailable = resolve(ru?.maxUnavailable, '25%', replicas, false);
  if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  if (maxUnavailable > replicas) maxUnavailable = replicas;
  return { maxSurge, maxUnavailable };
}

const specReplicas = (rs: ReplicaSet) => rs.spec?.replicas ?? 0;
const available = (rs: ReplicaSet) => rs.status?.availableReplicas ?? 0;

/** `NewRSNewReplicas` for RollingUpdate: how far the new ReplicaSet may grow now. */
export function newReplicaSetReplicas(d: Deployment, all: readonly ReplicaSet[], newRS: ReplicaSet): number {
  const replicas = d.spec?.replicas ?? 1;
  const { maxSurge } = surgeAndUnavailable(d);
  const current = all.reduce((s, rs) => s + specReplicas(rs), 0);
  const maxTotal = replicas + maxSurge;
  if (current >= maxTotal) return specReplicas(newRS);
  const scaleUp = Math.min(maxTotal - current, replicas - specReplicas(newRS));
  return specReplicas(newRS) + Math.max(0, scaleUp);
}

/**
 * `reconcileOldReplicaSets`: the new sizes of the old ReplicaSets (oldest first), keeping at least
 * `replicas - maxUnavailable` pods available across all of them.
 */
export function scaleDownOld(
  d: Deployment,
  all: readonly ReplicaSet[],
  olds: readonly ReplicaSet[],
  newRS: ReplicaSet,
): Map<string, number> {
  const out = new Map<string, number>();
  const oldCount = olds.reduce((s, rs) => s + specReplicas(rs), 0);
  if (oldCount === 0) return out;
  const replicas = d.spec?.replicas ?? 1;
  const { maxUnavailable } = surgeAndUnavailable(d);
  const minAvailable = replicas - maxUnavailable;
  const allCount = all.reduce((s, rs) => s + specReplicas(rs), 0);
  const newUnavailable = specReplicas(newRS) - available(newRS);
  let maxScaledDown = allCount - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return out;
  const sorted = [...olds].sort(
    (a, b) =>
      (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') ||
      a.metadata.name.localeCompare(b.metadata.name),
  );
  const size = new Map(sorted.map((rs) => [rs.metadata.name, specReplicas(rs)]));
  // cleanupUnhealthyReplicas: unavailable old pods go first, they cost no availability.
  for (const rs of sorted) {
    if (maxScaledDown <= 0) break;
    const cur = size.get(rs.metadata.name)!;
    const unhealthy = cur - available(rs);
    if (unhealthy <= 0) continue;
    const n = Math.min(maxScaledDown, unhealthy);
    size.set(rs.metadata.name, cur - n);
    maxScaledDown -= n;
  }
  // scaleDownOldReplicaSetsForRollingUpdate: then available ones, down to minAvailable.
  const availableNow = all.reduce(
    (s, rs) =>
      s + Math.min(available(rs), rs === newRS ? specReplicas(rs) : (size.get(rs.metadata.name) ?? 0)),
    0,
  );
  let budget = availableNow - minAvailable;
  for (const rs of sorted) {
    if (budget <= 0) break;
    const cur = size.get(rs.metadata.name)!;
    if (cur === 0) continue;
    const n = Math.min(cur, budget);
    size.set(rs.metadata.name, cur - n);
    budget -= n;
  }
  for (const rs of sorted)
    if (size.get(rs.metadata.name) !== specReplicas(rs))
      out.set(rs.metadata.name, size.get(rs.metadata.name)!);
  return out;
}

/** A condition with lastUpdateTime moving on every change and lastTransitionTime only on a status flip. */
export function setCondition(
  conditions: readonly DeploymentCondition[] | undefined,
  type: string,
  status: 'True' | 'False' | 'Unknown',
  reason: string,
  message: string,
  now: string,
): DeploymentCondition[] {
  const list = [...(conditions ?? [])];
  const i = list.findIndex((c) => c.type === type);
  const old = i >= 0 ? list[i] : undefined;
  if (old && old.status === status && old.reason === reason && old.message === message) return list;
  const next: DeploymentCondition = {
    type,
    status,
    lastUpdateTime: now,
    lastTransitionTime: old && old.status === status ? old.lastTransitionTime : now,
    reason,
    message,
  };
  if (i >= 0) list[i] = next;
  else list.push(next);
  // The API lists Available before Progressing (the order the controller first sets them in).
  return list.sort(
    (a, b) =>
      ['Available', 'Progressing', 'ReplicaFailure'].indexOf(a.type) -
      ['Available', 'Progressing', 'ReplicaFailure'].indexOf(b.type),
  );
}
