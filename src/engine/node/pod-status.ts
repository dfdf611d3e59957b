/**
 * The pod-level fields the kubelet derives from its containers (pkg/kubelet/kubelet_pods.go `getPhase`,
 * pkg/kubelet/status/generate.go): phase, and the conditions PodReadyToStartContainers, Initialized,
 * Ready, ContainersReady (PodScheduled belongs to the scheduler) with the real reasons and messages.
 * A condition's lastTransitionTime moves only when its status does.
 */
import type { ContainerStatus, PodCondition, PodSpec } from 'kubernetes-types/core/v1';
import type { Pod } from '../api/objects.ts';

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';

/** `getPhase`, for regular containers (init containers gate it through `initDone`). */
export function podPhase(
  spec: PodSpec,
  statuses: readonly ContainerStatus[],
  initDone: boolean,
  initFailed: boolean,
): PodPhase {
  const restart = spec.restartPolicy ?? 'Always';
  if (initFailed && restart === 'Never') return 'Failed';
  if (!initDone) return 'Pending';
  let waiting = 0;
  let running = 0;
  let stopped = 0;
  let succeeded = 0;
  let unknown = 0;
  for (const c of spec.containers) {
    const s = statuses.find((x) => x.name === c.name);
    if (!s) unknown++;
    else if (s.state?.running) running++;
    else if (s.state?.terminated) {
      stopped++;
      if (s.state.terminated.exitCode === 0) succeeded++;
    } else if (s.state?.waiting) {
      if (s.lastState?.terminated) stopped++;
      else waiting++;
    } else unknown++;
  }
  if (waiting > 0) return 'Pending';
  if (running > 0 && unknown === 0) return 'Running';
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (restart === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (restart === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

function names(list: string[]): string {
  return `[${list.join(' ')}]`;
}

/**
 * The four kubelet-owned conditions, in the order the kubelet writes them, keeping each previous
 * lastTransitionTime when the status did not change.
 */
export function podConditions(
  pod: Pod,
  opts: { sandboxReady: boolean; phase: PodPhase; initPending: string[]; unready: string[]; now: string },
): PodCondition[] {
  const prev = pod.status?.conditions ?? [];
  const make = (type: string, ok: boolean, reason?: string, message?: string): PodCondition => {
    const old = prev.find((c) => c.type === type);
    const status = ok ? 'True' : 'False';
    return {
      type,
      status,
      lastProbeTime: null,
      lastTransitionTime: old && old.status === status ? old.lastTransitionTime : opts.now,
      ...(reason ? { reason } : {}),
      ...(message ? { message } : {}),
    } as unknown as PodCondition;
  };
  const done = opts.phase === 'Succeeded' || opts.phase === 'Failed';
  const initOk = opts.initPending.length === 0;
  const ready = !done && initOk && opts.unready.length === 0;
  const notReady = (): [string, string | undefined] =>
    done
      ? ['PodCompleted', undefined]
      : ['ContainersNotReady', `containers with unready status: ${names(opts.unready)}`];
  const [nrReason, nrMessage] = ready ? [undefined, undefined] : notReady();
  const out: PodCondition[] = [
    make('PodReadyToStartContainers', opts.sandboxReady && !done),
    initOk
      ? make(
          'Initialized',
          true,
          done && (pod.spec?.initContainers?.length ?? 0) > 0 ? 'PodCompleted' : undefined,
        )
      : make(
          'Initialized',
          false,
          'ContainersNotInitialized',
          `containers with incomplete status: ${names(opts.initPending)}`,
        ),
    make('Ready', ready, nrReason, nrMessage),
    make('ContainersReady', ready, nrReason, nrMessage),
  ];
  const scheduled = prev.find((c) => c.type === 'PodScheduled');
  if (scheduled) out.push(scheduled);
  return out;
}
