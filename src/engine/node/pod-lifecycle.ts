/**
 * The kubelet's container work for one pod whose sandbox exists, as a pure plan: from the pod's
 * current status, its programs and the time, compute the new container statuses, the events the
 * transitions produce and the next time something is due (pkg/kubelet/kuberuntime/kuberuntime_manager.go
 * `SyncPod`). The kubelet (kubelet.ts) applies the plan.
 *
 * Order of work, as in SyncPod: init containers one after another, each to completion; then the
 * regular containers in spec order, each pulled (EnsureImageExists), created and started before the
 * next one's pull begins. Crashed containers are restarted only once every container has been started
 * once (a SyncPod busy pulling does not restart anything), with the CrashLoopBackOff delay.
 */
import type { Container, ContainerStatus, PodStatus } from 'kubernetes-types/core/v1';
import type { Pod } from '../api/objects.ts';
import { parseTimestamp } from '../util/clock.ts';
import { fnv32a } from '../util/rng.ts';
import { formatImageRef } from '../api/image-ref.ts';
import { resolveImage } from './images.ts';
import { containerArgv } from './process-model.ts';
import { programExit, programSettleMs, type ContainerProgram } from './container-runtime.ts';
import {
  PULL_FAIL_MS,
  backOffStatus,
  containerId,
  everStarted,
  goDuration,
  lastFinish,
  pullBackoffMs,
  pullPolicy,
  restartDelayMs,
  runningStatus,
  sec,
  shouldRestart,
  terminatedStatus,
  waitingStatus,
} from './container-lifecycle.ts';
import { probeState, runProbe, type ProbeType } from './probes.ts';
import { podConditions, podPhase } from './pod-status.ts';

export interface PlannedEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
  readonly fieldPath?: string;
  /** Periodic events: skip if one with this reason (and message prefix) was recorded at or after this time. */
  readonly once?: number;
  readonly prefix?: string;
}

export interface PlanEnv {
  readonly pod: Pod;
  readonly now: number;
  readonly rfc3339: (ms: number) => string;
  readonly programs: ReadonlyMap<string, ContainerProgram>;
  /** Whether the node already holds an image (by normalised name). */
  readonly imagePresent: (image: string) => boolean;
  /** When a pull of `image` started at `start` completes (shared with concurrent pulls on the node). */
  readonly pullDoneAt: (image: string, start: number, pullMs: number) => number;
}

export interface PodPlan {
  readonly status: PodStatus;
  readonly events: PlannedEvent[];
  readonly wakeAt?: number;
  /** Images whose pull completed in this plan (the kubelet adds them to node.status.images). */
  readonly pulled: string[];
}

interface Entry {
  readonly c: Container;
  readonly init: boolean;
  readonly sidecar: boolean;
}

const EPOCH = '1970-01-01T00:00:00Z';

export function planContainers(env: PlanEnv): PodPlan {
  const { pod, now } = env;
  const spec = pod.spec!;
  const uid = pod.metadata.uid;
  const podRef = `${pod.metadata.name}_${pod.metadata.namespace ?? 'default'}(${uid})`;
  const events: PlannedEvent[] = [];
  const pulled = new Set<string>();
  let wake: number | undefined;
  const wakeAt = (t: number) => {
    if (t > now && (wake === undefined || t < wake)) wake = t;
  };
  const entries: Entry[] = [
    ...(spec.initContainers ?? []).map((c) => ({ c, init: true, sidecar: c.restartPolicy === 'Always' })),
    ...spec.containers.map((c) => ({ c, init: false, sidecar: false })),
  ];
  const hasInit = entries.some((e) => e.init);
  const prev = new Map<string, ContainerStatus>();
  for (const s of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])])
    prev.set(s.name, s);
  const statuses = new Map<string, ContainerStatus>();
  for (const e of entries) {
    statuses.set(
      e.c.name,
      prev.get(e.c.name) ?? waitingStatus(e.c, e.init || hasInit ? 'PodInitializing' : 'ContainerCreating'),
    );
  }
  /** The pod as this plan has it so far: probes must see containers started within the plan. */
  const currentPod = (): Pod =>
    ({
      ...pod,
      status: {
        ...pod.status,
        initContainerStatuses: entries.filter((e) => e.init).map((e) => statuses.get(e.c.name)!),
        containerStatuses: entries.filter((e) => !e.init).map((e) => statuses.get(e.c.name)!),
      },
    }) as Pod;
  const fieldPath = (e: Entry) => `${e.init ? 'spec.initContainers' : 'spec.containers'}{${e.c.name}}`;
  const ev = (
    e: Entry,
    type: PlannedEvent['type'],
    reason: string,
    message: string,
    once?: number,
    prefix?: string,
  ) =>
    events.push({
      type,
      reason,
      message,
      fieldPath: fieldPath(e),
      ...(once !== undefined ? { once, prefix: prefix ?? '' } : {}),
    });
  const policyOf = (e: Entry) =>
    e.sidecar
      ? 'Always'
      : e.init
        ? spec.restartPolicy === 'Never'
          ? 'Never'
          : 'OnFailure'
        : (spec.restartPolicy ?? 'Always');
  const sandboxAt = conditionTime(pod, 'PodReadyToStartContainers') ?? now;

  /** Pulls (or finds) the image and starts the container at the earliest at `gate`; true once started. */
  const start = (e: Entry, gate: number, previous?: ContainerStatus): boolean => {
    const image = e.c.image ?? '';
    const resolved = resolveImage(image);
    const cur = statuses.get(e.c.name)!;
    const keep = (reason: string, message?: string) => {
      if (!previous)
        statuses.set(e.c.name, { ...cur, state: { waiting: { reason, ...(message ? { message } : {}) } } });
    };
    if (resolved.kind === 'invalid') {
      const msg = `Failed to apply default image tag "${image}": ${resolved.message}`;
      keep('InvalidImageName', msg);
      ev(e, 'Warning', 'InspectFailed', msg, gate);
      ev(e, 'Warning', 'Failed', 'Error: InvalidImageName', gate);
      return false;
    }
    if (resolved.kind === 'not-found') {
      failingPull(e, gate, image, formatImageRef(resolved.ref), keep);
      return false;
    }
    const name = formatImageRef(resolved.ref);
    const policy = pullPolicy(e.c);
    const present = env.imagePresent(name);
    const prog = env.programs.get(e.c.name);
    const size = prog?.profile.sizeBytes ?? resolved.profile.sizeBytes;
    let ready: number;
    let pulledMsg: string;
    if (policy === 'Never' && !present) {
      const msg = `Container image "${image}" is not present with pull policy of Never`;
      keep('ErrImageNeverPull', msg);
      ev(e, 'Warning', 'ErrImageNeverPull', msg, gate);
      return false;
    }
    if (present && policy !== 'Always') {
      ready = gate;
      pulledMsg = `Container image "${image}" already present on machine and can be accessed by the pod`;
    } else {
      // A cached image still costs a manifest round trip; a missing one is downloaded (once per node).
      // A restart re-checks the cached image within the kubelet's sync, on the back-off boundary.
      const done =
        previous && present
          ? gate
          : present
            ? gate + 300 + (fnv32a(`${uid}/${e.c.name}/${gate}`) % 600)
            : env.pullDoneAt(name, gate, resolved.profile.pullMs);
      ready = sec(done);
      const d = goDuration(done - gate);
      pulledMsg = `Successfully pulled image "${image}" in ${d} (${d} including waiting). Image size: ${size} bytes.`;
      if (gate <= now) ev(e, 'Normal', 'Pulling', `Pulling image "${image}"`, gate);
    }
    // A pull that waited on another pod's download of the same image is processed when that one
    // finishes (now): the container starts now, however early its own pull began.
    if (ready < now && ready > gate) {
      ready = now;
      const d = goDuration(now - gate);
      if (!pulledMsg.startsWith('Container image'))
        pulledMsg = `Successfully pulled image "${image}" in ${d} (${d} including waiting). Image size: ${size} bytes.`;
    } else if (ready < now) ready = now;
    if (ready > now) {
      wakeAt(ready);
      keep(e.init || hasInit ? 'PodInitializing' : 'ContainerCreating');
      return false;
    }
    pulled.add(name);
    ev(e, 'Normal', 'Pulled', pulledMsg);
    // Neither the pod nor the image names a program (a distroless image without `command`):
    // containerd cannot build the OCI spec, so the container is never created and the kubelet
    // retries on each sync (containerd's CRI WithProcessArgs: "no command specified").
    if (containerArgv(e.c, resolved.profile).length === 0) {
      const id = containerId(uid, e.c.name, previous ? previous.restartCount + 1 : 0).slice(
        'containerd://'.length,
      );
      const err = `failed to generate container "${id}" spec: failed to generate spec: no command specified`;
      keep('CreateContainerError', err);
      ev(e, 'Warning', 'Failed', `Error: ${err}`);
      return false;
    }
    ev(e, 'Normal', 'Created', 'Container created');
    const at = env.rfc3339(ready);
    const running = runningStatus(e.c, uid, at, previous);
    if (prog?.program.startError) {
      const failed = terminatedStatus(
        { ...running, state: { running: { startedAt: EPOCH } } },
        at,
        128,
        'StartError',
        prog.program.startError,
      );
      statuses.set(e.c.name, failed);
      ev(e, 'Warning', 'Failed', `Error: ${prog.program.startError}`);
      return true;
    }
    statuses.set(e.c.name, running);
    ev(e, 'Normal', 'Started', 'Container started');
    return true;
  };

  const failingPull = (
    e: Entry,
    gate: number,
    image: string,
    full: string,
    keep: (r: string, m?: string) => void,
  ) => {
    const err = `rpc error: code = NotFound desc = failed to pull and unpack image "${full}": failed to resolve image: ${full}: not found`;
    let attempt = 0;
    let at = gate;
    for (;;) {
      const next = sec(sec(at + PULL_FAIL_MS) + pullBackoffMs(attempt + 1));
      if (next > now || attempt > 500) break;
      at = next;
      attempt++;
    }
    const failAt = sec(at + PULL_FAIL_MS);
    const backAt = failAt + 1000;
    const nextAttempt = sec(failAt + pullBackoffMs(attempt + 1));
    ev(e, 'Normal', 'Pulling', `Pulling image "${image}"`, at);
    if (now < failAt) {
      if (attempt > 0) keep('ImagePullBackOff', `Back-off pulling image "${image}": ErrImagePull: ${err}`);
      wakeAt(failAt);
      return;
    }
    ev(e, 'Warning', 'Failed', `Failed to pull image "${image}": ${err}`, failAt, 'Failed to pull');
    ev(e, 'Warning', 'Failed', 'Error: ErrImagePull', failAt, 'Error: ErrImagePull');
    if (now < backAt) {
      keep('ErrImagePull', err);
      wakeAt(backAt);
      return;
    }
    keep('ImagePullBackOff', `Back-off pulling image "${image}": ErrImagePull: ${err}`);
    ev(e, 'Normal', 'BackOff', `Back-off pulling image "${image}"`, backAt);
    ev(e, 'Warning', 'Failed', 'Error: ImagePullBackOff', backAt, 'Error: ImagePullBackOff');
    wakeAt(nextAttempt);
  };

  /** Advances a started container through exits, back-off and restarts up to now. */
  const steady = (e: Entry, allowRestart: boolean) => {
    for (let guard = 0; guard < 64; guard++) {
      const s = statuses.get(e.c.name)!;
      const startedAt = s.state?.running?.startedAt;
      if (startedAt) {
        const end = runEnd(e, s, parseTimestamp(startedAt));
        if (end && end.at <= now) {
          statuses.set(e.c.name, terminatedStatus(s, env.rfc3339(end.at), end.code));
          continue;
        }
        if (end) wakeAt(end.at);
        return;
      }
      const fin = lastFinish(s);
      if (!fin || !shouldRestart(policyOf(e), fin.exitCode) || !allowRestart) return;
      const delay = restartDelayMs(s.restartCount, fin.at - fin.startedAt);
      const restartAt = sec(fin.at + Math.max(delay, 1000));
      const crashAt = sec(fin.at + 1000);
      if (restartAt <= now) {
        if (!start(e, restartAt, s)) return;
        continue;
      }
      if (delay > 1000 && crashAt <= now && s.state?.waiting?.reason !== 'CrashLoopBackOff') {
        statuses.set(e.c.name, backOffStatus(s, delay, podRef));
        ev(e, 'Warning', 'BackOff', `Back-off restarting failed container ${e.c.name} in pod ${podRef}`);
      }
      wakeAt(crashAt);
      wakeAt(restartAt);
      return;
    }
  };

  /** When a running container ends: its program exits, or a failing liveness probe has it killed. */
  const runEnd = (
    e: Entry,
    s: ContainerStatus,
    startedMs: number,
  ): { at: number; code: number } | undefined => {
    const prog = env.programs.get(e.c.name);
    if (!prog) return undefined;
    const natural = programExit(prog.program, startedMs);
    let end = natural ? { at: sec(startedMs + natural.afterMs), code: natural.code } : undefined;
    const probe = e.c.livenessProbe;
    if (probe) {
      const view = currentPod();
      const settled = startedMs + programSettleMs(prog.program);
      const st = probeState(
        probe,
        'Liveness',
        startedMs,
        now,
        (t) => runProbe(probe, view, e.c, s, t),
        settled,
      );
      probeEvents(e, 'Liveness', st);
      if (!st.value && st.since !== undefined) {
        ev(
          e,
          'Normal',
          'Killing',
          `Container ${e.c.name} failed liveness probe, will be restarted`,
          st.since,
        );
        const grace =
          (probe.terminationGracePeriodSeconds ?? spec.terminationGracePeriodSeconds ?? 30) * 1000;
        const killed = prog.program.handlesStopSignal
          ? { at: st.since, code: 0 }
          : { at: st.since + grace, code: 137 };
        if (!end || killed.at < end.at) end = killed;
      } else if (st.next !== undefined && (now < settled || st.lastFailureAt !== undefined)) {
        wakeAt(st.next);
      }
    }
    return end;
  };

  const probeEvents = (e: Entry, type: ProbeType, st: ReturnType<typeof probeState>) => {
    if (st.lastFailureAt !== undefined && st.lastFailure) {
      ev(
        e,
        'Warning',
        'Unhealthy',
        `${type} probe failed: ${st.lastFailure.message}`,
        st.lastFailureAt,
        `${type} probe failed`,
      );
    }
  };

  // 1. The start-up pass: init containers to completion, then regular containers one after another.
  let gate = sandboxAt;
  let initialDone = true;
  let initDone = true;
  for (const e of entries) {
    let s = statuses.get(e.c.name)!;
    if (!everStarted(s)) {
      if (!e.init && !initDone) break;
      if (!start(e, gate)) {
        initialDone = false;
        if (e.init) initDone = false;
        break;
      }
      s = statuses.get(e.c.name)!;
    }
    if (e.init && !e.sidecar) {
      steady(e, true);
      const t = statuses.get(e.c.name)!.state?.terminated;
      if (t && t.exitCode === 0) {
        gate = parseTimestamp(t.finishedAt ?? '') || gate;
        continue;
      }
      initialDone = false;
      initDone = false;
      break;
    }
    const first = s.state?.running?.startedAt ?? s.state?.terminated?.startedAt;
    gate = first && first !== EPOCH ? parseTimestamp(first) : gate;
  }
  // 2. Steady state of the regular containers: exits everywhere, restarts once all have started.
  if (initDone)
    for (const e of entries)
      if (!e.init || e.sidecar) if (everStarted(statuses.get(e.c.name))) steady(e, initialDone);

  // 3. Readiness and start-up probes decide `ready` and `started` of running containers.
  const view = currentPod();
  for (const e of entries) {
    const s = statuses.get(e.c.name)!;
    const startedAt = s.state?.running?.startedAt;
    if (!startedAt) continue;
    const startedMs = parseTimestamp(startedAt);
    const prog = env.programs.get(e.c.name);
    const settled = startedMs + (prog ? programSettleMs(prog.program) : 0);
    let started = true;
    let from = startedMs;
    if (e.c.startupProbe) {
      const probe = e.c.startupProbe;
      const st = probeState(
        probe,
        'Startup',
        startedMs,
        now,
        (t) => runProbe(probe, view, e.c, s, t),
        settled,
      );
      probeEvents(e, 'Startup', st);
      started = st.value;
      if (st.since !== undefined) from = st.since;
      if (!started && st.next !== undefined) wakeAt(st.next);
    }
    let ready = started;
    if (started && e.c.readinessProbe && !e.init) {
      const probe = e.c.readinessProbe;
      const st = probeState(probe, 'Readiness', from, now, (t) => runProbe(probe, view, e.c, s, t), settled);
      probeEvents(e, 'Readiness', st);
      ready = st.value;
      if (st.next !== undefined && (!ready || now < settled || st.lastFailureAt !== undefined))
        wakeAt(st.next);
    }
    statuses.set(e.c.name, { ...s, started, ready: e.init && !e.sidecar ? false : ready });
  }

  const initStatuses = entries.filter((e) => e.init).map((e) => statuses.get(e.c.name)!);
  const mainStatuses = entries.filter((e) => !e.init).map((e) => statuses.get(e.c.name)!);
  const initPending = entries
    .filter((e) => e.init && !e.sidecar)
    .filter((e) => statuses.get(e.c.name)!.state?.terminated?.exitCode !== 0)
    .map((e) => e.c.name);
  const initFailed = entries.some(
    (e) =>
      e.init &&
      !e.sidecar &&
      (statuses.get(e.c.name)!.state?.terminated?.exitCode ?? 0) !== 0 &&
      policyOf(e) === 'Never',
  );
  const phase = podPhase(spec, mainStatuses, initPending.length === 0, initFailed);
  const unready = mainStatuses.filter((s) => !s.ready).map((s) => s.name);
  const status: PodStatus = {
    ...pod.status,
    phase,
    conditions: podConditions(pod, {
      sandboxReady: true,
      phase,
      initPending,
      unready,
      now: env.rfc3339(now),
    }),
    ...(initStatuses.length > 0 ? { initContainerStatuses: initStatuses } : {}),
    containerStatuses: mainStatuses,
  };
  return { status, events, ...(wake !== undefined ? { wakeAt: wake } : {}), pulled: [...pulled] };
}

export function conditionTime(pod: Pod, type: string): number | undefined {
  const c = pod.status?.conditions?.find((x) => x.type === type && x.status === 'True');
  return c?.lastTransitionTime ? parseTimestamp(c.lastTransitionTime) : undefined;
}

/**
 * The pull a pod is busy with, if any: the first container of the start-up pass that has not started,
 * with the time its pull began. Concurrent pulls of one image on a node share a single download
 * (containerd deduplicates them), so the kubelet needs every pod's current pull.
 */
export function currentPull(pod: Pod): { image: string; start: number } | undefined {
  const sandboxAt = conditionTime(pod, 'PodReadyToStartContainers');
  if (sandboxAt === undefined || !pod.spec) return undefined;
  const byName = new Map<string, ContainerStatus>();
  for (const s of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])])
    byName.set(s.name, s);
  let gate = sandboxAt;
  const entries = [
    ...(pod.spec.initContainers ?? []).map((c) => ({ c, init: c.restartPolicy !== 'Always' })),
    ...pod.spec.containers.map((c) => ({ c, init: false })),
  ];
  for (const { c, init } of entries) {
    const s = byName.get(c.name);
    if (!everStarted(s)) {
      const r = resolveImage(c.image ?? '');
      return r.kind === 'ok' ? { image: formatImageRef(r.ref), start: gate } : undefined;
    }
    const t = s!.state?.terminated;
    if (init) {
      if (!t || t.exitCode !== 0) return undefined;
      gate = parseTimestamp(t.finishedAt ?? '') || gate;
    } else {
      const first = s!.state?.running?.startedAt ?? t?.startedAt;
      if (first && first !== EPOCH) gate = parseTimestamp(first);
    }
  }
  return undefined;
}
