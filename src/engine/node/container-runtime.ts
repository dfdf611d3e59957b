/**
 * containerd in miniature: plays each container's program (process-model.ts) against the simulated
 * clock. Nothing is stored here: what a container printed, whether it has exited and which sockets it
 * holds are recomputed from the pod's status (startedAt, finishedAt, restartCount) and the image
 * catalogue, so a snapshot of the API objects is the whole state and replays identically.
 *
 * Public surface for other parts of the engine: `containerLogs` (kubectl logs), `listeningSockets`
 * (the dataplane: who answers on a pod port), `containerProgram` (in-pod tools: shell, libc, tools).
 */
import type { Container, ContainerStatus } from 'kubernetes-types/core/v1';
import type { Pod } from '../api/objects.ts';
import { parseTimestamp } from '../util/clock.ts';
import { imageVersion, resolveImage, type ImageProfile } from './images.ts';
import {
  buildProgram,
  type Dest,
  type Listener,
  type LogText,
  type Program,
  type Step,
  type ToolOutcome,
  type ToolOutcomes,
} from './process-model.ts';
import type { NodeLocalStore } from '../controllers/runtime.ts';
import type { Responder } from './responders.ts';
import type { Json } from '../util/json.ts';

export interface LogLine {
  /** Simulated time the line was written (ms). */
  readonly time: number;
  readonly text: string;
}

export interface ContainerRun {
  readonly logs: LogLine[];
  /** Set when the program ends by itself before `until`. */
  readonly exit?: { readonly at: number; readonly code: number };
  readonly listeners: Listener[];
  readonly files: ReadonlyMap<string, boolean>;
}

/** At most this many lines are kept per container run (the kubelet rotates logs too). */
const MAX_LINES = 2000;
/** A loop that never sleeps is cut after this many rounds, then treated as spinning forever. */
const MAX_TIGHT_ITERATIONS = 200;
/** Rounds of a `while` on a run-time condition before it is taken as running until stopped. */
const MAX_WHILE_ROUNDS = 1000;

export interface ContainerProgram {
  readonly container: Container;
  readonly profile: ImageProfile;
  readonly program: Program;
}

/** Runs a network tool in a pod's container against the dataplane as it is now. */
export type ToolRunner = (pod: Pod, container: string, argv: readonly string[]) => ToolOutcome | undefined;

/**
 * Where the network tools of containers get their outcomes: the node's copy of what each instance
 * printed (its container log, in the node-local state so snapshots keep it) and, to run a tool not run
 * yet, the cluster's runner.
 */
export interface ContainerTools {
  readonly state: NodeLocalStore;
  readonly run?: ToolRunner;
}

/** Instances kept per container (the kubelet keeps the current and the last exited one). */
const KEPT_INSTANCES = 2;
/** Tool outcomes kept per instance; a looping script's later rounds repeat the newest one. */
const KEPT_OUTCOMES = 40;
/** Tools run afresh per instance and reader: a long loop read for the first time costs a bounded number of runs. */
const FRESH_RUNS = 20;

/** Outcomes by instance start, then by offset into the instance; `cmd` is the tool's command line. */
type Recorded = Record<string, Record<string, ToolOutcome & { readonly cmd: string }>>;

function toolOutcomes(pod: Pod, container: string, tools: ContainerTools): ToolOutcomes {
  const node = pod.spec?.nodeName ?? '';
  const key = `container-tools/${pod.metadata.uid ?? pod.metadata.name}/${container}`;
  const runs = new Map<number, number>();
  return (argv, startMs, offsetMs) => {
    const cmd = argv.join(' ');
    const recorded = (tools.state.get(node, key) ?? {}) as unknown as Recorded;
    const instance = recorded[startMs] ?? {};
    const hit = instance[offsetMs];
    if (hit?.cmd === cmd) return hit;
    const used = runs.get(startMs) ?? 0;
    const run = used < FRESH_RUNS ? tools.run?.(pod, container, argv) : undefined;
    if (!run) {
      // Past the budget, a loop's later rounds print what the newest run of the same command printed.
      const same = Object.keys(instance)
        .map(Number)
        .sort((a, b) => b - a)
        .find((o) => o < offsetMs && instance[o]!.cmd === cmd);
      return same === undefined ? undefined : instance[same];
    }
    runs.set(startMs, used + 1);
    const offsets = Object.keys(instance)
      .map(Number)
      .sort((a, b) => a - b)
      .slice(-(KEPT_OUTCOMES - 1));
    const kept: Recorded[string] = { [offsetMs]: { ...run, cmd } };
    for (const o of offsets) kept[o] = instance[o]!;
    const starts = Object.keys(recorded)
      .map(Number)
      .filter((t) => t !== startMs)
      .sort((a, b) => a - b)
      .slice(-(KEPT_INSTANCES - 1));
    const next: Recorded = { [startMs]: kept };
    for (const t of starts) next[t] = recorded[t]!;
    tools.state.set(node, key, next as unknown as Json);
    return run;
  };
}

const sessionKey = (pod: Pod, container: string) =>
  `container-session/${pod.metadata.uid ?? pod.metadata.name}/${container}`;

/** Session ends by instance start (ms): when the attached shell left and with which status. */
type SessionEnds = Record<string, { readonly at: number; readonly code: number }>;

function sessionEnd(state: NodeLocalStore, pod: Pod, container: string, startMs: number) {
  const ends = state.get(pod.spec?.nodeName ?? '', sessionKey(pod, container)) as SessionEnds | undefined;
  return ends?.[startMs];
}

/**
 * The node's container runtime as the kubelets and kubectl see it: the tools it runs in containers
 * (through the cluster, which owns the dataplane) and the exits only it sees, which each kubelet's
 * relist (its PLEG) hears of. Owned by the cluster and handed to its parts; what it records (tool
 * outcomes, attached sessions' ends) lives in the node-local state, so the snapshot keeps it. The
 * relist subscriptions are the kubelets' own and are made again when they start after a restore.
 */
export class ContainerRuntime {
  /** Where the kubelet's container programs get their tools' outcomes. */
  readonly tools: ContainerTools;
  private readonly relists = new Set<(pod: Pod) => void>();
  /**
   * podPrograms per stored pod spec: a status write shares the stored spec, so a pod's programs are
   * built once per spec, pod IP and name rather than on every sync. Programs are read, never changed.
   * Per runtime, since the programs run their tools in this cluster (a restored copy shares the spec).
   */
  private readonly programCache = new WeakMap<
    object,
    { ip: string; name: string; held: string; programs: Map<string, ContainerProgram> }
  >();

  private readonly state: NodeLocalStore;

  constructor(state: NodeLocalStore, run: ToolRunner) {
    this.state = state;
    this.tools = { state, run };
  }

  /** The programs of a pod the kubelet runs, playing their tools against this cluster. */
  programsOf(pod: Pod): Map<string, ContainerProgram> {
    const spec = pod.spec;
    if (!spec) return podPrograms(pod, this.tools);
    const ip = pod.status?.podIP ?? '';
    // The host ports other pods held when a hostNetwork pod started change its programs' binds.
    const held = hostPortsHeld(this.state, pod).join(',');
    const hit = this.programCache.get(spec);
    if (hit && hit.ip === ip && hit.name === pod.metadata.name && hit.held === held) return hit.programs;
    const programs = podPrograms(pod, this.tools);
    this.programCache.set(spec, { ip, name: pod.metadata.name, held, programs });
    return programs;
  }

  /** A kubelet subscribes to exits of its containers that only the runtime sees (an attached shell closed). */
  watchContainerExits(relist: (pod: Pod) => void): () => void {
    this.relists.add(relist);
    return () => {
      this.relists.delete(relist);
    };
  }

  /**
   * The terminal attached to a container's interactive shell (PID 1) closed: `exit N` ends the process,
   * so the container exits with N at `atMs`, and the kubelet then applies the restart policy. Returns
   * false when no kubelet runs the container (nothing changes).
   */
  endAttachedSession(pod: Pod, container: string, code: number, atMs: number): boolean {
    const startedAt = pod.status?.containerStatuses?.find((s) => s.name === container)?.state?.running
      ?.startedAt;
    if (this.relists.size === 0 || !startedAt) return false;
    const node = pod.spec?.nodeName ?? '';
    const key = sessionKey(pod, container);
    const start = parseTimestamp(startedAt);
    this.state.updateRecord(node, key, (ends) => {
      // Only the current instance can still be attached: older instances' records are dropped.
      for (const k of Object.keys(ends)) if (Number(k) !== start) delete ends[k];
      ends[start] = { at: Math.max(atMs, start), code: code & 255 };
    });
    for (const relist of this.relists) relist(pod);
    return true;
  }
}

/** The node-local key under which the kubelet keeps the host ports other pods held when a hostNetwork pod started. */
function heldKey(pod: Pod): string {
  return `host-ports-held/${pod.metadata.uid}`;
}

/** `TCP/9100`… that other hostNetwork pods on the node held when this hostNetwork pod's containers started. */
export function hostPortsHeld(state: NodeLocalStore, pod: Pod): string[] {
  const node = pod.spec?.nodeName;
  if (!pod.spec?.hostNetwork || !node) return [];
  const held = state.get(node, heldKey(pod));
  return Array.isArray(held) ? held.filter((p): p is string => typeof p === 'string') : [];
}

/**
 * Records the host ports held on the node by `others` (the node's other live pods) for a hostNetwork
 * pod about to (re)start its containers: a second process binding a taken port fails with the bind
 * error, as on a real node (the scheduler only knows declared hostPorts). Returns whether it changed.
 */
export function recordHostPortsHeld(
  state: NodeLocalStore,
  pod: Pod,
  others: Iterable<Pod>,
  now: number,
): boolean {
  const node = pod.spec?.nodeName;
  if (!pod.spec?.hostNetwork || !node) return false;
  const held = new Set<string>();
  for (const other of others) {
    if (other.metadata.uid === pod.metadata.uid || !other.spec?.hostNetwork) continue;
    for (const s of listeningSockets(other, now)) held.add(`${s.protocol}/${s.port}`);
  }
  const next = [...held].sort();
  const before = hostPortsHeld(state, pod);
  if (next.length === before.length && next.every((p, i) => p === before[i])) return false;
  state.set(node, heldKey(pod), next);
  return true;
}

/**
 * The programs of a pod's containers, in start order. Init containers come first; each regular
 * container sees the ports the lower-indexed ones hold (one network namespace per pod). Containers
 * whose image cannot be resolved have no program.
 */
export function podPrograms(pod: Pod, tools?: ContainerTools): Map<string, ContainerProgram> {
  const out = new Map<string, ContainerProgram>();
  // A hostNetwork pod shares the node's ports: those other pods held when the kubelet started it are taken.
  const bound = new Set<string>(tools ? hostPortsHeld(tools.state, pod) : []);
  const podIP = pod.status?.podIP ?? '';
  const all = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  const initCount = pod.spec?.initContainers?.length ?? 0;
  all.forEach((container, i) => {
    const resolved = resolveImage(container.image ?? '');
    if (resolved.kind !== 'ok') return;
    const env: Record<string, string> = {
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      HOSTNAME: pod.metadata.name,
    };
    for (const e of container.env ?? []) if (e.value !== undefined) env[e.name] = e.value;
    const program = buildProgram({
      container,
      profile: resolved.profile,
      version: imageVersion(resolved),
      podName: pod.metadata.name,
      podIP,
      env,
      // Init containers run alone, one after the other: they never compete for ports.
      boundPorts: i < initCount ? new Set() : bound,
    });
    if (i >= initCount)
      for (const s of program.steps)
        if (s.op === 'listen') bound.add(`${s.listener.protocol}/${s.listener.port}`);
    out.set(container.name, {
      container,
      profile: resolved.profile,
      program: tools
        ? {
            ...program,
            tools: toolOutcomes(pod, container.name, tools),
            session: (startMs) => sessionEnd(tools.state, pod, container.name, startMs),
          }
        : program,
    });
  });
  return out;
}

/** Plays a program from `startMs` up to `untilMs`. */
export function runProgram(program: Program, startMs: number, untilMs: number): ContainerRun {
  const logs: LogLine[] = [];
  const listeners: Listener[] = [];
  const files = new Map<string, boolean>();
  let t = startMs;
  let status = 0;
  let done = false;
  let exit: { at: number; code: number } | undefined;
  const push = (line: LogLine) => {
    logs.push(line);
    if (logs.length > MAX_LINES * 2) logs.splice(0, logs.length - MAX_LINES);
  };
  // Output without a final newline (a server's bare `hostname` body) continues on the next write.
  let partial = '';
  const write = (text: string) => {
    const lines = (partial + text).split('\n');
    partial = lines.pop()!;
    for (const line of lines) push({ time: t, text: line });
  };
  // Both streams end in the container log (the CRI log file records them in write order); a
  // redirection or a pipe swaps this for the span of its command.
  let emit: (stream: 'out' | 'err', text: string) => void = (_stream, text) => {
    if (t <= untilMs) write(text);
  };
  const textAt = (text: LogText) => (typeof text === 'string' ? text : text(t));
  let whileRounds = 0;
  const play = (steps: readonly Step[]): void => {
    for (const s of steps) {
      if (done) return;
      switch (s.op) {
        case 'log':
          emit(s.stream ?? 'out', `${textAt(s.text)}\n`);
          break;
        case 'write':
          emit(s.stream, textAt(s.text));
          break;
        case 'sleep':
          t += s.ms;
          if (t > untilMs) done = true;
          break;
        case 'status':
          status = s.code;
          break;
        case 'exit':
          exit = { at: t, code: s.code ?? status };
          done = true;
          break;
        case 'file':
          files.set(s.path, s.exists);
          break;
        case 'listen':
          listeners.push(s.listener);
          break;
        case 'trap':
          break;
        case 'block':
          done = true;
          break;
        case 'stdin': {
          const end = program.session?.(startMs);
          if (end && end.at <= untilMs) {
            t = Math.max(t, end.at);
            exit = { at: t, code: end.code };
          }
          done = true;
          break;
        }
        case 'loop':
          playLoop(s.body);
          break;
        case 'if':
          if ((status === 0) === (s.when === 'ok')) play(s.body);
          break;
        case 'branch':
          play(status === 0 ? s.then : s.else);
          break;
        case 'while':
          for (let round = 0; ; round++) {
            // Asked when the program ends (the kubelet), a wait on a tool (`until nslookup db`) that
            // has not ended within its fresh runs is taken as over: the outcomes of later rounds are
            // not known yet, and waiting forever on a guess would leave an init container stuck.
            if (untilMs === Number.MAX_SAFE_INTEGER && round >= FRESH_RUNS) break;
            // A condition that keeps failing without time passing, or that has run this long, is
            // taken as running until stopped.
            if (++whileRounds > MAX_WHILE_ROUNDS) done = true;
            if (done) break;
            const before = t;
            play(s.cond);
            if (done || (status === 0) === s.until) break;
            play(s.body);
            if (t === before && whileRounds > MAX_TIGHT_ITERATIONS) done = true;
          }
          if (!done) status = 0;
          break;
        case 'not':
          status = status === 0 ? 1 : 0;
          break;
        case 'late':
          play(s.build(status));
          break;
        case 'io': {
          const outer = emit;
          let piped = '';
          const to = (d: Dest) => (text: string) => {
            if (d === 'pipe') piped += text;
            else if (d !== 'null') outer(d, text);
          };
          const out = to(s.out);
          const err = to(s.err);
          emit = (stream, text) => (stream === 'out' ? out : err)(text);
          try {
            play(s.body);
          } finally {
            emit = outer;
          }
          // The pipe's later stages finish when the first one has (they read until its end of file).
          if (s.then && !done) play(s.then(piped));
          break;
        }
        case 'tool': {
          const r = program.tools?.(s.argv, startMs, t - startMs);
          if (!r) {
            status = 0;
            break;
          }
          // What the tool printed is written as it ends (an answer, or an error after its timeout).
          t += r.elapsedMs;
          status = r.exitCode;
          if (t > untilMs) {
            done = true;
            break;
          }
          const chunks = r.output ?? [
            { stream: 'stdout', text: r.stdout },
            { stream: 'stderr', text: r.stderr },
          ];
          for (const c of chunks) if (c.text) emit(c.stream === 'stdout' ? 'out' : 'err', c.text);
          if (r.stderr && !r.stderr.endsWith('\n')) emit('err', '\n');
          break;
        }
      }
    }
  };
  const playLoop = (body: readonly Step[]): void => {
    const period = sleepMs(body);
    if (period === 0) {
      for (let i = 0; i < MAX_TIGHT_ITERATIONS && !done; i++) play(body);
      done = true;
      return;
    }
    // Rounds that end before the last MAX_LINES lines are skipped (only their file changes matter).
    const perRound = Math.max(1, body.filter((s) => s.op === 'log' || s.op === 'write').length);
    const rounds = untilMs === Number.MAX_SAFE_INTEGER ? 0 : Math.ceil((untilMs - t) / period);
    const skip = Math.max(0, rounds - Math.ceil(MAX_LINES / perRound) - 1);
    if (skip > 0) {
      const kept = logs.length;
      play(body);
      logs.length = kept;
      t += (skip - 1) * period;
    }
    if (untilMs === Number.MAX_SAFE_INTEGER && !body.some((s) => s.op === 'exit')) {
      done = true;
      return;
    }
    while (!done) play(body);
  };
  play(program.steps);
  if (partial) push({ time: t, text: partial });
  if (!done && exit === undefined) exit = { at: t, code: status };
  if (logs.length > MAX_LINES) logs.splice(0, logs.length - MAX_LINES);
  return { logs, listeners, files, ...(exit && exit.at <= untilMs ? { exit } : {}) };
}

/** A loop round's length; a conditional sleep counts as taken (`wget … || sleep 5` waits when it fails). */
function sleepMs(steps: readonly Step[]): number {
  return steps.reduce((sum, s) => {
    if (s.op === 'sleep') return sum + s.ms;
    if (s.op === 'if' || s.op === 'io') return sum + sleepMs(s.body);
    if (s.op === 'branch') return sum + Math.max(sleepMs(s.then), sleepMs(s.else));
    if (s.op === 'while') return sum + sleepMs(s.cond) + sleepMs(s.body);
    return sum;
  }, 0);
}

/**
 * How long after its start a program stops changing (it reached a blocking call with its sockets and
 * files in place); Infinity for programs that loop forever or exit.
 */
export function programSettleMs(program: Program): number {
  let t = 0;
  for (const s of program.steps) {
    if (s.op === 'sleep') t += s.ms;
    else if (s.op === 'block' || s.op === 'stdin') return t;
    else if (['loop', 'exit', 'if', 'branch', 'while', 'late'].includes(s.op)) return Infinity;
  }
  return Infinity;
}

/**
 * When and how a program started at `startMs` ends by itself, or undefined if it runs until stopped.
 * The start matters to network tools: they run against the dataplane of that moment.
 */
export function programExit(program: Program, startMs = 0): { afterMs: number; code: number } | undefined {
  const fixed = fixedCourseExit(program.steps);
  if (fixed !== NOT_FIXED) return fixed;
  const run = runProgram(program, startMs, Number.MAX_SAFE_INTEGER);
  return run.exit ? { afterMs: run.exit.at - startMs, code: run.exit.code } : undefined;
}

const NOT_FIXED = Symbol('not fixed');

/**
 * How a program ends when its steps neither branch nor ask anything outside it (a tool's outcome, a
 * session): read off the steps, as runProgram would play them, without building its log lines. The
 * kubelet asks this of every container it starts (a web server's start-up prints a dozen lines).
 */
function fixedCourseExit(
  steps: readonly Step[],
): { afterMs: number; code: number } | undefined | typeof NOT_FIXED {
  let afterMs = 0;
  let status = 0;
  for (const s of steps) {
    switch (s.op) {
      case 'sleep':
        afterMs += s.ms;
        break;
      case 'status':
        status = s.code;
        break;
      case 'exit':
        return { afterMs, code: s.code ?? status };
      case 'block':
        return undefined;
      case 'log':
      case 'write':
      case 'file':
      case 'listen':
      case 'trap':
        break;
      default:
        return NOT_FIXED;
    }
  }
  return { afterMs, code: status };
}

export type LogsResult =
  | { readonly ok: true; readonly lines: LogLine[] }
  | { readonly ok: false; readonly error: string };

/**
 * What `kubectl logs` shows for a container (`previous` for the last terminated instance), with the
 * time each line was written, as the kubelet serves it from the container's log file. Errors carry the
 * API server's wording (`container "x" in pod "y" is waiting to start: ContainerCreating`).
 */
export function containerLogs(
  pod: Pod,
  containerName: string,
  opts: { previous?: boolean; now: number; tools?: ContainerTools },
): LogsResult {
  const status = [
    ...(pod.status?.initContainerStatuses ?? []),
    ...(pod.status?.containerStatuses ?? []),
  ].find((s) => s.name === containerName);
  // An instance that has ended keeps what it printed; only a running one may still run its tools.
  const recordedOnly = opts.tools ? { state: opts.tools.state } : undefined;
  const prog = podPrograms(pod, recordedOnly).get(containerName);
  const podRef = `pod "${pod.metadata.name}"`;
  if (opts.previous) {
    const last = status?.lastState?.terminated;
    if (!last?.startedAt || !prog) {
      return { ok: false, error: `previous terminated container "${containerName}" in ${podRef} not found` };
    }
    return { ok: true, lines: instanceLogs(prog.program, last.startedAt, last.finishedAt) };
  }
  // A container waiting to restart (CrashLoopBackOff) still has its last instance on the node: the
  // kubelet serves the newest container's log, which is that exited one (kuberuntime GetContainerLogs).
  const lastRun = status?.lastState?.terminated;
  if (status?.state?.waiting && lastRun?.startedAt && prog) {
    return { ok: true, lines: instanceLogs(prog.program, lastRun.startedAt, lastRun.finishedAt) };
  }
  if (!status || (!status.state?.running && !status.state?.terminated)) {
    const reason = status?.state?.waiting?.reason ?? 'ContainerCreating';
    const why =
      reason === 'ImagePullBackOff' || reason === 'ErrImagePull'
        ? 'trying and failing to pull image'
        : reason;
    return { ok: false, error: `container "${containerName}" in ${podRef} is waiting to start: ${why}` };
  }
  if (!prog) return { ok: true, lines: [] };
  const running = status.state.running;
  if (running?.startedAt) {
    const live = opts.tools?.run ? podPrograms(pod, opts.tools).get(containerName)! : prog;
    return { ok: true, lines: runProgram(live.program, parseTimestamp(running.startedAt), opts.now).logs };
  }
  const term = status.state.terminated;
  return {
    ok: true,
    lines: term?.startedAt ? instanceLogs(prog.program, term.startedAt, term.finishedAt) : [],
  };
}

function instanceLogs(program: Program, startedAt: string, finishedAt: string | undefined): LogLine[] {
  const start = parseTimestamp(startedAt);
  const end = finishedAt ? parseTimestamp(finishedAt) : start;
  const run = runProgram(program, start, end);
  // Stopped before it ended by itself: the program printed its shutdown lines.
  if (!run.exit && program.handlesStopSignal) {
    for (const text of program.stopLogs)
      run.logs.push({ time: end, text: typeof text === 'string' ? text : text(end) });
  }
  return run.logs;
}

export interface ListeningSocket {
  readonly container: string;
  readonly port: number;
  readonly protocol: 'TCP' | 'UDP';
  readonly process: string;
  readonly responder: Responder;
  /** `0.0.0.0` (all pod addresses) or `127.0.0.1` (loopback only). On hostNetwork pods these are the node's. */
  readonly address: string;
}

/**
 * What actually listens in a pod now: the sockets of its running containers, derived from image and
 * arguments (declared containerPorts play no part, as on a real node).
 */
export function listeningSockets(pod: Pod, now: number = Number.MAX_SAFE_INTEGER): ListeningSocket[] {
  if (pod.metadata.deletionTimestamp && pod.status?.phase !== 'Running') return [];
  const programs = podPrograms(pod);
  const out: ListeningSocket[] = [];
  for (const cs of pod.status?.containerStatuses ?? []) {
    const startedAt = cs.state?.running?.startedAt;
    const prog = programs.get(cs.name);
    if (!startedAt || !prog) continue;
    for (const l of runProgram(prog.program, parseTimestamp(startedAt), now).listeners) {
      out.push({ container: cs.name, ...l });
    }
  }
  return out.sort((a, b) => a.port - b.port || a.protocol.localeCompare(b.protocol));
}

/** The program and image profile of one container (shell, libc and tools for in-pod commands). */
export function containerProgram(pod: Pod, containerName: string): ContainerProgram | undefined {
  return podPrograms(pod).get(containerName);
}

/** Whether `path` exists in a running container's filesystem at `now` (exec probes like `cat /tmp/healthy`). */
export function fileExists(pod: Pod, status: ContainerStatus, path: string, now: number): boolean {
  const startedAt = status.state?.running?.startedAt;
  const prog = podPrograms(pod).get(status.name);
  if (!startedAt || !prog) return false;
  return runProgram(prog.program, parseTimestamp(startedAt), now).files.get(path) === true;
}
