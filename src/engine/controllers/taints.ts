/**
 * Taints and tolerations (k8s.io/api/core/v1 `Toleration.ToleratesTaint`,
 * component-helpers/scheduling/corev1 `FindMatchingUntoleratedTaint`): a toleration with an empty key
 * and operator Exists tolerates everything; an empty effect matches every effect.
 */
import type { Taint, Toleration } from 'kubernetes-types/core/v1';

export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  const op = t.operator ?? 'Equal';
  if (op === 'Exists') return true;
  return (t.value ?? '') === (taint.value ?? '');
}

/** The first NoSchedule/NoExecute taint no toleration covers, if any. */
export function untoleratedTaint(
  taints: readonly Taint[] | undefined,
  tolerations: readonly Toleration[] | undefined,
): Taint | undefined {
  // The scheduler asks this of every node for every pod; most nodes have no taints.
  if (!taints || taints.length === 0) return undefined;
  return taints.find(
    (taint) =>
      (taint.effect === 'NoSchedule' || taint.effect === 'NoExecute') &&
      !(tolerations ?? []).some((t) => toleratesTaint(t, taint)),
  );
}
