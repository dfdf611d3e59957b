/**
 * What a pod's status says about it, as the controllers, the kubelet and the dataplane all read it
 * (pkg/api/v1/pod/util.go `IsPodReady`, `IsPodAvailable`; pkg/controller/controller_utils.go
 * `IsPodActive`; pkg/apis/core/helper/qos `ComputePodQOS`).
 */
import type { Pod } from './objects.ts';
import { parseBytes, parseCpu } from './quantity.ts';
import { parseTimestamp } from '../util/clock.ts';
import { isPlainObject } from '../util/json.ts';

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

export type QosClass = 'BestEffort' | 'Burstable' | 'Guaranteed';

/** The resources QoS counts (`supportedQoSComputeResources`): a request for anything else changes nothing. */
const QOS_RESOURCES: readonly [string, (q: string) => number][] = [
  ['cpu', parseCpu],
  ['memory', parseBytes],
];

/**
 * `qos.ComputePodQOS` over a pod spec as the API server receives it (any JSON): BestEffort when no
 * container or init container asks for cpu or memory above zero; Guaranteed when every one of them
 * sets both cpu and memory limits and the summed requests equal the summed limits, resource by
 * resource (compared as quantities, so `1` equals `1000m`); Burstable otherwise. A pod that only
 * requests `ephemeral-storage` is BestEffort. Pod-level `spec.resources` is not modelled.
 */
export function computePodQOS(spec: unknown): QosClass {
  const s = isPlainObject(spec) ? spec : {};
  const containers = [s.containers, s.initContainers].flatMap((l) =>
    Array.isArray(l) ? l.filter(isPlainObject) : [],
  );
  const requests = new Map<string, number>();
  const limits = new Map<string, number>();
  let guaranteed = true;
  for (const c of containers) {
    const r = isPlainObject(c.resources) ? c.resources : {};
    const limitsFound = new Set<string>();
    for (const [name, parse] of QOS_RESOURCES) {
      const request = quantity(r.requests, name, parse);
      if (request > 0) requests.set(name, (requests.get(name) ?? 0) + request);
      const limit = quantity(r.limits, name, parse);
      if (limit > 0) {
        limitsFound.add(name);
        limits.set(name, (limits.get(name) ?? 0) + limit);
      }
    }
    if (limitsFound.size < QOS_RESOURCES.length) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  for (const [name, request] of requests) if (limits.get(name) !== request) guaranteed = false;
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}

function quantity(list: unknown, name: string, parse: (q: string) => number): number {
  const q = isPlainObject(list) ? list[name] : undefined;
  return typeof q === 'string' || typeof q === 'number' ? parse(String(q)) : 0;
}
