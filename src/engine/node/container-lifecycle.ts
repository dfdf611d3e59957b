/**
 * One container's life on the kubelet's clock, after pkg/kubelet/kuberuntime (`SyncPod`,
 * `computePodActions`, `doBackOff`) and pkg/kubelet/images (`EnsureImageExists`): pull, create, start,
 * exit, back-off, restart. Pure functions of the container's status, its program and the time; the
 * pod planner (pod-lifecycle.ts) strings them together.
 *
 * Every transition lands on a whole second (the kubelet's status timestamps have second precision),
 * so recomputing from the stored timestamps gives the same answers as the run that wrote them.
 */
import type { Container, ContainerStatus } from 'kubernetes-types/core/v1';
import { parseTimestamp } from '../util/clock.ts';
import { fnv32a } from '../util/rng.ts';
import { formatImageRef } from '../api/image-ref.ts';
import { imageIdOf, resolveImage } from './images.ts';

/** Rounds a time up to the next whole second. */
export const sec = (ms: number): number => Math.ceil(ms / 1000) * 1000;

/** Go's time.Duration.String() for the durations the kubelet prints (`512ms`, `4.8s`, `1m20s`). */
export function goDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${+(ms / 1000).toFixed(3)}s`;
  const m = Math.floor(ms / 60_000);
  const s = +((ms - m * 60_000) / 1000).toFixed(3);
  if (m < 60) return `${m}m${s}s`;
  return `${Math.floor(m / 60)}h${m % 60}m${s}s`;
}

/** The kubelet's container restart back-off: none for the first restart, then 10s doubling to 5m. */
export function restartDelayMs(restartCount: number, ranForMs: number): number {
  // The back-off entry expires when the container ran longer than twice the maximum (10 minutes).
  if (restartCount === 0 || ranForMs >= 600_000) return 0;
  return Math.min(10_000 * 2 ** (restartCount - 1), 300_000);
}

/** The image pull back-off after a failed pull: 10s doubling to 5m. */
export function pullBackoffMs(attempt: number): number {
  return Math.min(10_000 * 2 ** Math.max(0, attempt - 1), 300_000);
}

/** Time a failing pull takes before the registry's answer comes back. */
export const PULL_FAIL_MS = 1_500;

/** `imagePullPolicy` as the API server defaults it (Always for `:latest` or no tag). */
export function pullPolicy(container: Container): 'Always' | 'IfNotPresent' | 'Never' {
  const p = container.imagePullPolicy;
  if (p === 'Always' || p === 'IfNotPresent' || p === 'Never') return p;
  const image = container.image ?? '';
  const tag = image.includes('@')
    ? 'digest'
    : /:([\w.-]+)$/.exec(image.slice(image.lastIndexOf('/') + 1))?.[1];
  return tag === undefined || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

/** The id containerd gives a container instance; stable per pod, container and restart. */
export function containerId(podUid: string, name: string, restartCount: number): string {
  // FNV-1a reads its input in order, so the common prefix is hashed once and each block goes on
  // from there: the same words as hashing `<prefix><i>` eight times over.
  const prefix = fnv32a(`${podUid}/${name}/${restartCount}/`);
  let hex = '';
  for (let i = 0; i < 8; i++) hex += fnv32a(String(i), prefix).toString(16).padStart(8, '0');
  return `containerd://${hex}`;
}

/** A fresh status for a container that has not started yet. */
export function waitingStatus(container: Container, reason: string, message?: string): ContainerStatus {
  return {
    name: container.name,
    image: container.image ?? '',
    imageID: '',
    ready: false,
    started: false,
    restartCount: 0,
    state: { waiting: { reason, ...(message ? { message } : {}) } },
    lastState: {},
  };
}

/** The status of a container that started at `at` (after `previous`, when restarting). */
export function runningStatus(
  container: Container,
  podUid: string,
  at: string,
  previous?: ContainerStatus,
): ContainerStatus {
  const resolved = resolveImage(container.image ?? '');
  const ref = resolved.kind === 'ok' ? resolved.ref : undefined;
  const restartCount = previous ? previous.restartCount + (previous.state?.running ? 0 : 1) : 0;
  const lastTerminated = previous?.state?.terminated ?? previous?.lastState?.terminated;
  return {
    name: container.name,
    image: ref ? formatImageRef(ref) : (container.image ?? ''),
    imageID: ref ? imageIdOf(ref) : '',
    containerID: containerId(podUid, container.name, restartCount),
    ready: false,
    started: true,
    restartCount,
    state: { running: { startedAt: at } },
    lastState: previous && lastTerminated ? { terminated: lastTerminated } : {},
  };
}

/** The status after the container's process ended. */
export function terminatedStatus(
  status: ContainerStatus,
  finishedAt: string,
  exitCode: number,
  reason?: string,
  message?: string,
): ContainerStatus {
  return {
    ...status,
    ready: false,
    started: false,
    state: {
      terminated: {
        exitCode,
        reason: reason ?? (exitCode === 0 ? 'Completed' : 'Error'),
        ...(message ? { message } : {}),
        startedAt: status.state?.running?.startedAt ?? finishedAt,
        finishedAt,
        ...(status.containerID ? { containerID: status.containerID } : {}),
      },
    },
  };
}

/** CrashLoopBackOff: waiting out the restart delay with the last run in lastState. */
export function backOffStatus(status: ContainerStatus, delayMs: number, podRef: string): ContainerStatus {
  const term = status.state?.terminated ?? status.lastState?.terminated;
  return {
    ...status,
    ready: false,
    started: false,
    state: {
      waiting: {
        reason: 'CrashLoopBackOff',
        message: `back-off ${goDuration(delayMs)} restarting failed container=${status.name} pod=${podRef}`,
      },
    },
    lastState: term ? { terminated: term } : {},
  };
}

/** When the last run of a container ended, if it has ended. */
export function lastFinish(
  status: ContainerStatus,
): { at: number; startedAt: number; exitCode: number } | undefined {
  const t = status.state?.terminated ?? (status.state?.waiting ? status.lastState?.terminated : undefined);
  if (!t?.finishedAt) return undefined;
  // A StartError's startedAt is the zero time (the process never ran): it ran for no time at all,
  // so the crash-loop back-off grows as for any container that dies at once.
  const started = t.startedAt && parseTimestamp(t.startedAt) > 0 ? t.startedAt : t.finishedAt;
  return {
    at: parseTimestamp(t.finishedAt),
    startedAt: parseTimestamp(started),
    exitCode: t.exitCode,
  };
}

/** Whether the container ever ran (a waiting status with a last termination counts). */
export function everStarted(status: ContainerStatus | undefined): boolean {
  if (!status) return false;
  return !!(
    status.state?.running ||
    status.state?.terminated ||
    status.lastState?.terminated ||
    status.restartCount > 0
  );
}

/** Whether the restart policy wants an exited container back. */
export function shouldRestart(policy: string | undefined, exitCode: number): boolean {
  if (policy === 'Never') return false;
  if (policy === 'OnFailure') return exitCode !== 0;
  return true;
}
