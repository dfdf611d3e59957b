/**
 * `kubectl get pods` (pkg/printers/internalversion `printPod`): READY counts ready running containers
 * (plus started restartable init containers, i.e. sidecars), STATUS is derived from the phase, the
 * init containers and the last container whose state has a reason (`ContainerCreating`,
 * `CrashLoopBackOff`, `Completed`, `Init:0/1`, `Terminating` once deletionTimestamp is set), and
 * RESTARTS shows `N (5s ago)` from the newest lastState.terminated.finishedAt.
 */
import type { Pod, core } from '../../api/objects.ts';
import { parseTimestamp } from '../../util/clock.ts';
import { age, humanDuration } from './duration.ts';
import type { PrintContext, TableDef } from './table.ts';

/** The kubelet's reason for pods on an unreachable node (`node.NodeUnreachablePodReason`). */
const NODE_UNREACHABLE = 'NodeLost';

function isRestartableInit(c: core.Container | undefined): boolean {
  return c?.restartPolicy === 'Always';
}

export interface PodSummary {
  readonly ready: string;
  readonly status: string;
  readonly restarts: string;
}

export function podSummary(pod: Pod, now: number): PodSummary {
  const spec = pod.spec;
  const status = pod.status ?? {};
  let restarts = 0;
  let sidecarRestarts = 0;
  let total = spec?.containers?.length ?? 0;
  let ready = 0;
  let lastRestart = 0;
  let lastSidecarRestart = 0;
  const phase = status.phase ?? '';
  let reason: string = status.reason ? status.reason : phase;
  for (const c of status.conditions ?? []) {
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }
  const initSpecs = new Map((spec?.initContainers ?? []).map((c) => [c.name, c]));
  for (const c of spec?.initContainers ?? []) if (isRestartableInit(c)) total++;

  const finished = (s: core.ContainerStatus): number => {
    const t = s.lastState?.terminated?.finishedAt;
    return t ? parseTimestamp(t) : 0;
  };

  let initializing = false;
  const initStatuses = status.initContainerStatuses ?? [];
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i]!;
    restarts += c.restartCount ?? 0;
    lastRestart = Math.max(lastRestart, finished(c));
    const restartable = isRestartableInit(initSpecs.get(c.name));
    if (restartable) {
      sidecarRestarts += c.restartCount ?? 0;
      lastSidecarRestart = Math.max(lastSidecarRestart, finished(c));
    }
    const term = c.state?.terminated;
    const wait = c.state?.waiting;
    if (term && term.exitCode === 0) continue;
    if (restartable && c.started) {
      if (c.ready) ready++;
      continue;
    }
    if (term) {
      reason = term.reason
        ? `Init:${term.reason}`
        : term.signal
          ? `Init:Signal:${term.signal}`
          : `Init:ExitCode:${term.exitCode}`;
    } else if (wait && wait.reason && wait.reason !== 'PodInitializing') {
      reason = `Init:${wait.reason}`;
    } else {
      reason = `Init:${i}/${spec?.initContainers?.length ?? 0}`;
    }
    initializing = true;
    break;
  }

  const initializedTrue = (status.conditions ?? []).some(
    (c) => c.type === 'Initialized' && c.status === 'True',
  );
  if (!initializing || initializedTrue) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    const statuses = status.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i]!;
      restarts += c.restartCount ?? 0;
      lastRestart = Math.max(lastRestart, finished(c));
      const wait = c.state?.waiting;
      const term = c.state?.terminated;
      if (wait && wait.reason) reason = wait.reason;
      else if (term && term.reason) reason = term.reason;
      else if (term) reason = term.signal ? `Signal:${term.signal}` : `ExitCode:${term.exitCode}`;
      else if (c.ready && c.state?.running) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      const podReady = (status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
      reason = podReady ? 'Running' : 'NotReady';
    }
  }

  if (pod.metadata.deletionTimestamp && status.reason === NODE_UNREACHABLE) reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed')
    reason = 'Terminating';

  const restartsText =
    restarts !== 0 && lastRestart !== 0
      ? `${restarts} (${humanDuration(now - lastRestart)} ago)`
      : String(restarts);
  return { ready: `${ready}/${total}`, status: reason, restarts: restartsText };
}

export const podTable: TableDef<Pod> = {
  columns: [
    { name: 'Name' },
    { name: 'Ready' },
    { name: 'Status' },
    { name: 'Restarts' },
    { name: 'Age' },
    { name: 'IP', wide: true },
    { name: 'Node', wide: true },
    { name: 'Nominated Node', wide: true },
    { name: 'Readiness Gates', wide: true },
  ],
  row(pod, ctx: PrintContext) {
    const s = podSummary(pod, ctx.now);
    const gates = pod.spec?.readinessGates ?? [];
    let readinessGates = '<none>';
    if (gates.length > 0) {
      const conds = pod.status?.conditions ?? [];
      const trueCount = gates.filter(
        (g) => conds.find((c) => c.type === g.conditionType)?.status === 'True',
      ).length;
      readinessGates = `${trueCount}/${gates.length}`;
    }
    return [
      pod.metadata.name,
      s.ready,
      s.status,
      s.restarts,
      age(pod.metadata.creationTimestamp, ctx.now),
      pod.status?.podIPs?.[0]?.ip || pod.status?.podIP || '<none>',
      pod.spec?.nodeName || '<none>',
      pod.status?.nominatedNodeName || '<none>',
      readinessGates,
    ];
  },
};
