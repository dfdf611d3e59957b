/**
 * The kubelet's prober (pkg/kubelet/prober): readiness, liveness and startup probes against what the
 * container really does. An httpGet or tcpSocket probe connects to the pod IP, so it passes only when
 * some container of the pod listens on that port (process-model.ts decides that from image and
 * arguments, not from declared containerPorts); an exec probe like `cat /tmp/healthy` sees the files
 * the container's script created and removed.
 *
 * Timing follows the prober worker: it ticks every periodSeconds from the container start and skips
 * ticks before initialDelaySeconds; readiness starts "failure" (not ready) and liveness "success";
 * successThreshold / failureThreshold consecutive results flip the state. Failure messages are the
 * prober's (`HTTP probe failed with statuscode: 404`, `dial tcp …: connect: connection refused`).
 */
import type { Container, ContainerStatus, Probe } from 'kubernetes-types/core/v1';
import type { Pod } from '../api/objects.ts';
import { fileExists, listeningSockets } from './container-runtime.ts';
import { httpResponse } from './responders.ts';

export type ProbeType = 'Readiness' | 'Liveness' | 'Startup';

export interface ProbeResult {
  readonly ok: boolean;
  /** The failure text the kubelet puts after `Readiness probe failed: `. */
  readonly message: string;
}

/** Runs one probe at time `at` against the pod as it is. */
export function runProbe(
  probe: Probe,
  pod: Pod,
  container: Container,
  status: ContainerStatus,
  at: number,
): ProbeResult {
  const podIP = pod.spec?.hostNetwork ? (pod.status?.hostIP ?? '') : (pod.status?.podIP ?? '');
  const resolvePort = (port: number | string | undefined): number | undefined => {
    if (typeof port === 'number') return port;
    if (port && /^\d+$/.test(port)) return Number(port);
    return container.ports?.find((p) => p.name === port)?.containerPort;
  };
  const socket = (port: number, host = podIP) =>
    listeningSockets(pod, at).find(
      (s) =>
        s.protocol === 'TCP' &&
        s.port === port &&
        (s.address !== '127.0.0.1' || host === '127.0.0.1' || host === 'localhost'),
    );
  if (probe.httpGet) {
    const port = resolvePort(probe.httpGet.port);
    const scheme = (probe.httpGet.scheme ?? 'HTTP').toLowerCase();
    const host = probe.httpGet.host ?? podIP;
    const path = probe.httpGet.path ?? '/';
    if (port === undefined)
      return { ok: false, message: `unable to find port "${String(probe.httpGet.port)}"` };
    const url = `${scheme}://${host}:${port}${path.startsWith('/') ? path : `/${path}`}`;
    const s = socket(port, host);
    if (!s)
      return { ok: false, message: `Get "${url}": dial tcp ${host}:${port}: connect: connection refused` };
    if (s.responder.kind === 'tls' && scheme === 'http')
      return { ok: false, message: 'HTTP probe failed with statuscode: 400' };
    if (s.responder.kind === 'tls') return { ok: true, message: '' };
    const res = httpResponse(s.responder, {
      method: 'GET',
      path,
      hostname: pod.metadata.name,
      clientIP: pod.status?.hostIP ?? '',
      clientPort: 0,
    });
    if (!res) {
      return {
        ok: false,
        message: `Get "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
      };
    }
    if (res.status >= 200 && res.status < 400) return { ok: true, message: '' };
    return { ok: false, message: `HTTP probe failed with statuscode: ${res.status}` };
  }
  if (probe.tcpSocket) {
    const port = resolvePort(probe.tcpSocket.port);
    const host = probe.tcpSocket.host ?? podIP;
    if (port !== undefined && socket(port, host)) return { ok: true, message: '' };
    return { ok: false, message: `dial tcp ${host}:${port ?? 0}: connect: connection refused` };
  }
  if (probe.grpc) {
    if (socket(probe.grpc.port)) return { ok: true, message: '' };
    return {
      ok: false,
      message: `timeout: failed to connect service "${podIP}:${probe.grpc.port}" within 1s: context deadline exceeded`,
    };
  }
  if (probe.exec) return execProbe(probe.exec.command ?? [], pod, status, at);
  return { ok: true, message: '' };
}

function execProbe(command: readonly string[], pod: Pod, status: ContainerStatus, at: number): ProbeResult {
  const argv =
    command[0] === 'sh' || command[0] === '/bin/sh' ? (command[2] ?? '').trim().split(/\s+/) : [...command];
  const bin = (argv[0] ?? '').slice((argv[0] ?? '').lastIndexOf('/') + 1);
  const target = argv.slice(1).find((a) => !a.startsWith('-'));
  if (['cat', 'ls', 'stat', 'test', '['].includes(bin) && target) {
    if (fileExists(pod, status, target, at)) return { ok: true, message: '' };
    return { ok: false, message: `${bin}: can't open '${target}': No such file or directory\n` };
  }
  if (bin === 'false' || (bin === 'exit' && argv[1] !== '0')) return { ok: false, message: '' };
  return { ok: true, message: '' };
}

/** Probe defaults from the API (`periodSeconds: 10`, `failureThreshold: 3`, `successThreshold: 1`). */
export function probeTiming(probe: Probe): {
  delayMs: number;
  periodMs: number;
  success: number;
  failure: number;
} {
  return {
    delayMs: (probe.initialDelaySeconds ?? 0) * 1000,
    periodMs: Math.max(1, probe.periodSeconds ?? 10) * 1000,
    success: Math.max(1, probe.successThreshold ?? 1),
    failure: Math.max(1, probe.failureThreshold ?? 3),
  };
}

/** The worker's tick times that actually probe: from the container start, every period, skipping the initial delay. */
export function firstProbeAt(probe: Probe, startedMs: number): number {
  const { delayMs, periodMs } = probeTiming(probe);
  return startedMs + Math.ceil(delayMs / periodMs) * periodMs;
}

export interface ProbeState {
  /** The state at `now`: ready (readiness/startup) or alive (liveness). */
  readonly value: boolean;
  /** Probe times ≤ now that failed, most recent last (for Unhealthy events). */
  readonly lastFailureAt?: number;
  readonly lastFailure?: ProbeResult;
  /** The time the state last flipped to its current value (undefined if never flipped). */
  readonly since?: number;
  /** The next probe time after now (undefined when no more probing matters). */
  readonly next?: number;
}

/** Walks a probe's ticks from the container start to `now` (bounded) and returns the resulting state. */
export function probeState(
  probe: Probe,
  type: ProbeType,
  startedMs: number,
  now: number,
  result: (at: number) => ProbeResult,
  settledAt = Infinity,
): ProbeState {
  const { periodMs, success, failure } = probeTiming(probe);
  let value = type !== 'Readiness' && type !== 'Startup';
  let since: number | undefined;
  let runOk = 0;
  let runFail = 0;
  let lastFailureAt: number | undefined;
  let lastFailure: ProbeResult | undefined;
  const first = firstProbeAt(probe, startedMs);
  let t = first;
  let steps = 0;
  let constant: ProbeResult | undefined;
  let constantRun = 0;
  for (; t <= now && steps < 5000; t += periodMs, steps++) {
    // Once the program has settled every tick gives the same answer; after enough of them to pass
    // any threshold the state cannot change, so jump to the last tick before now.
    if (t >= settledAt) {
      constant ??= result(t);
      if (++constantRun > success + failure) {
        const last = first + Math.floor((now - first) / periodMs) * periodMs;
        if (!constant.ok) {
          lastFailureAt = last;
          lastFailure = constant;
        }
        t = last + periodMs;
        break;
      }
    }
    const r = constant ?? result(t);
    if (r.ok) {
      runOk++;
      runFail = 0;
      if (!value && runOk >= success) {
        value = true;
        since = t;
      }
    } else {
      runFail++;
      runOk = 0;
      lastFailureAt = t;
      lastFailure = r;
      if (value && runFail >= failure) {
        value = false;
        since = t;
        if (type === 'Liveness') break;
      }
      if (type === 'Startup' && runFail >= failure) break;
    }
    if (type === 'Startup' && value) break;
  }
  const next = t > now ? t : undefined;
  return {
    value,
    ...(lastFailureAt !== undefined ? { lastFailureAt, lastFailure } : {}),
    ...(since !== undefined ? { since } : {}),
    ...(next !== undefined ? { next } : {}),
  };
}
