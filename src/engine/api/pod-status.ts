/**
 * What a pod's status says about it, as the controllers, the kubelet and the dataplane all read it
 * (pkg/api/v1/pod/util.go `IsPodReady`, `IsPodAvailable`; pkg/controller/controller_utils.go
 * `IsPodActive`).
 */
import type { Pod } from './objects.ts';
import { parseTimestamp } from '../util/clock.ts';

export function isPodTerminal(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** Counts toward a controller's replicas: not terminal and not being deleted (`IsPodActive`). */
export function isPodActive(pod: Pod): boolean {
  return !isPodTerminal(pod) && !pod.metadata.deletionTimestamp;
}

export function isPodReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

/** Ready for at least minReadySeconds (`IsPodAvailable`). */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'True');
  if (!ready) return false;
  if (minReadySeconds <= 0) return true;
  return parseTimestamp(ready.lastTransitionTime ?? '') + minReadySeconds * 1000 <= now;
}
