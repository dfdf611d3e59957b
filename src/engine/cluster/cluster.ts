/**
 * The composition root: one simulated cluster = the API store and server, the controllers that
 * reconcile it, the lab's files and the learner's shell. `exec` is the only way a learner acts on it;
 * after every line the controllers settle and the simulated clock moves on, so pods start, AGE grows
 * and EndpointSlices follow, deterministically from the seed.
 */
import { ApiStore, type StoreSnapshot } from '../api/store.ts';
import { ApiServer } from '../apiserver/apiserver.ts';
import { SimClock } from '../util/clock.ts';
import { Rng } from '../util/rng.ts';
import { Emitter } from '../util/emitter.ts';
import { defaultClusterConfig, parseClusterConfig, type ClusterConfig } from '../api/cluster-config.ts';
import type { Controller, ControllerContext } from '../controllers/runtime.ts';
import { LabFiles } from '../shell/lab-files.ts';
import { createControllers } from '../controllers/index.ts';
import { Kubelet } from '../node/kubelet.ts';
import { KubeProxy } from '../dataplane/proxy/kube-proxy.ts';
import { cniDataplane } from '../dataplane/network/cni-dataplane.ts';
import { cniDeviceAddresses } from '../node/cni/device-addresses.ts';
import { NodeLocalState, type NodeLocalSnapshot } from '../node/node-local-state.ts';
import { bootstrapCluster } from './bootstrap.ts';
import { EventRecorder } from '../controllers/event-recorder.ts';
import { Shell, type ShellState } from '../shell/shell.ts';
import { createCommandResolver } from './commands.ts';
import type { ExecResult } from '../shell/types.ts';
import { isPlainObject } from '../util/json.ts';
import { MAX_SLEEP_SECONDS } from '../shell/limits.ts';

/** Simulated seconds that pass after each command line (a person takes at least that long to type). */
export const COMMAND_STEP_MS = 2000;
/** A settle loop that has not converged after this many rounds has a controller fighting another. */
const MAX_SETTLE_ROUNDS = 1000;
/**
 * Objects the controllers may write in one settle, and per COMMAND_STEP_MS of a tick, before the rest
 * is left queued for later ticks. A real cluster keeps working after kubectl returns: `--replicas=100000`
 * has the ReplicaSet controller create BurstReplicas (500) pods per sync, each written with its event,
 * bound and started over later syncs, while the commands go on answering. Lab-sized work never comes
 * near it (a 3-replica Deployment settles in well under 100 writes); it bounds what one line costs.
 */
export const SETTLE_WRITE_BUDGET = 5000;

export interface ClusterOptions {
  readonly seed?: number | string;
  /** The lab's start files, or a LabFiles the host provides (the Node CLI's view of its working directory). */
  readonly files?: Record<string, string> | LabFiles;
}

export interface ClusterChange {
  /** What moved: API objects, lab files, or the shell (history, session). */
  readonly kind: 'objects' | 'files' | 'shell';
  readonly resourceVersion: number;
}

export const SNAPSHOT_FORMAT = 'packetpath-cluster';
export const SNAPSHOT_VERSION = 1;

export interface ClusterSnapshot {
  readonly format: typeof SNAPSHOT_FORMAT;
  readonly version: typeof SNAPSHOT_VERSION;
  readonly config: ClusterConfig;
  readonly clock: number;
  readonly rng: readonly [number, number, number, number];
  readonly store: StoreSnapshot;
  readonly files: Record<string, string>;
  readonly shell: ShellState;
  readonly nodeState: NodeLocalSnapshot;
}

export class SnapshotError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotError';
  }
}

export class Cluster {
  readonly store: ApiStore;
  readonly api: ApiServer;
  readonly files: LabFiles;
  readonly shell: Shell;
  readonly changes = new Emitter<{ change: ClusterChange }>();
  readonly recorder: EventRecorder;
  readonly nodeState = new NodeLocalState();
  private readonly controllers: Controller[];
  /** kube-proxy on every node; the node tools (iptables-save, ipvsadm, nft, conntrack) read it. */
  readonly kubeProxy: KubeProxy;
  readonly config: ClusterConfig;
  readonly clock: SimClock;
  readonly rng: Rng;

  constructor(config: ClusterConfig, clock: SimClock, rng: Rng, files: Record<string, string> | LabFiles) {
    this.config = config;
    this.clock = clock;
    this.rng = rng;
    this.store = new ApiStore(clock, rng);
    this.api = new ApiServer(this.store, { clock, rng, config });
    this.recorder = new EventRecorder(this.api, clock);
    const ctx: ControllerContext = {
      api: this.api,
      clock,
      rng,
      config,
      recorder: this.recorder,
      nodeState: this.nodeState,
    };
    this.kubeProxy = new KubeProxy({
      api: this.api,
      clock,
      config,
      recorder: this.recorder,
      nodeState: this.nodeState,
      nodeLocalAddresses: (node) =>
        cniDeviceAddresses(cniDataplane(this, node.metadata.name), node.spec?.podCIDR ?? '').map(
          (a) => a.address,
        ),
    });
    this.controllers = [
      ...createControllers(
        ctx,
        ctx.config.nodes.map((n) => new Kubelet(ctx, n.name)),
      ),
      this.kubeProxy,
    ];
    this.files = files instanceof LabFiles ? files : new LabFiles(files);
    this.files.changes.on('change', () => this.emitChange('files'));
    this.shell = new Shell({
      resolve: createCommandResolver(this),
      files: this.files,
      tick: (ms) => this.tick(ms),
    });
  }

  /** Runs one line as the learner typed it. Never throws: failures come back as stderr and an exit code. */
  async exec(line: string, opts: { interactive?: boolean } = {}): Promise<ExecResult> {
    return this.execSync(line, opts);
  }

  execSync(line: string, opts: { interactive?: boolean } = {}): ExecResult {
    const before = this.store.resourceVersion;
    const result = this.shell.run(line, { interactive: opts.interactive ?? false });
    this.settle();
    this.tick(COMMAND_STEP_MS);
    this.emitChange('shell');
    if (this.store.resourceVersion !== before) this.emitChange('objects');
    return result;
  }

  /**
   * Lets every controller work until none has anything left to do, or until the store's resourceVersion
   * reaches `budgetEnd` (default: SETTLE_WRITE_BUDGET writes from now); returns the number of rounds.
   * Stopping early leaves the remaining keys in the controllers' queues for the next settle, the way
   * work waits in a real controller's workqueue.
   */
  settle(budgetEnd = this.store.resourceVersion + SETTLE_WRITE_BUDGET): number {
    for (let round = 1; round <= MAX_SETTLE_ROUNDS; round++) {
      let busy = false;
      for (const c of this.controllers) {
        // Checked between controllers so that one burst cannot be followed by a whole round of others.
        if (this.store.resourceVersion >= budgetEnd) return round;
        busy = c.sync() || busy;
      }
      if (!busy) for (const c of this.controllers) busy = (c.settled?.() ?? false) || busy;
      if (!busy) return round;
    }
    throw new Error(`controllers did not settle after ${MAX_SETTLE_ROUNDS} rounds`);
  }

  /**
   * Advances simulated time by `ms`, stopping at every controller wake-up on the way. Wake-ups must lie
   * in the future; what is due "now" is handled by the settle loop itself.
   */
  tick(ms: number): void {
    const target = this.clock.now() + Math.max(0, ms);
    // One write budget for the whole tick, growing with the time it covers: the wake-ups on the way
    // share it, so a tick costs bounded work however many pods fall due. Once it is spent, the clock
    // still moves and wake() still queues what is due; the next settle picks that up.
    const budgetEnd =
      this.store.resourceVersion + SETTLE_WRITE_BUDGET * Math.max(1, Math.ceil(ms / COMMAND_STEP_MS));
    // What the line wrote so far is seen before time moves, as real controllers react within
    // milliseconds: `kubectl run x; sleep 90` schedules and pulls during the sleep, not after it.
    this.settle(budgetEnd);
    for (;;) {
      const now = this.clock.now();
      let next: number | undefined;
      for (const c of this.controllers) {
        const t = c.nextWakeup?.();
        if (t !== undefined && t > now && t <= target && (next === undefined || t < next)) next = t;
      }
      if (next === undefined) break;
      this.wakeAt(next, budgetEnd);
    }
    this.wakeAt(target, budgetEnd);
  }

  private wakeAt(ms: number, budgetEnd: number): void {
    this.clock.set(ms);
    for (const c of this.controllers) c.wake?.();
    this.settle(budgetEnd);
  }

  /**
   * Advances time until `done()` holds or `timeoutMs` passes; returns whether it held (for `kubectl wait`,
   * `rollout status`). Simulated waiting is capped like `sleep` (MAX_SLEEP_SECONDS): the learner cannot
   * press Ctrl+C, and `--timeout=1000h` would otherwise cost minutes of real CPU in steps.
   */
  waitFor(done: () => boolean, timeoutMs: number, stepMs = 500): boolean {
    const deadline = this.clock.now() + Math.min(timeoutMs, MAX_SLEEP_SECONDS * 1000);
    while (!done()) {
      if (this.clock.now() >= deadline) return false;
      this.tick(Math.min(stepMs, deadline - this.clock.now()));
    }
    return true;
  }

  snapshot(): ClusterSnapshot {
    return {
      format: SNAPSHOT_FORMAT,
      version: SNAPSHOT_VERSION,
      config: this.config,
      clock: this.clock.now(),
      rng: this.rng.state(),
      store: this.store.snapshot(),
      files: this.files.toJSON(),
      shell: this.shell.state(),
      nodeState: this.nodeState.snapshot(),
    };
  }

  /** Starts every controller (subscribes watches, queues existing objects) and lets them settle. */
  start(): void {
    for (const c of this.controllers) c.start();
    this.settle();
  }

  private emitChange(kind: ClusterChange['kind']): void {
    this.changes.emit('change', { kind, resourceVersion: this.store.resourceVersion });
  }
}

/** Builds and boots a cluster: nodes, system pods and add-ons of the chosen distribution, all running. */
export function createCluster(config?: ClusterConfig | string, opts: ClusterOptions = {}): Cluster {
  const resolved =
    typeof config === 'string' ? parseClusterConfig(config) : (config ?? defaultClusterConfig());
  const clock = new SimClock();
  const cluster = new Cluster(resolved, clock, new Rng(opts.seed ?? 1), opts.files ?? {});
  cluster.start();
  bootstrapCluster(cluster);
  return cluster;
}

/** Rebuilds a cluster from `snapshot()` output (an object or its JSON text). */
export function restoreCluster(
  input: ClusterSnapshot | string,
  opts: { readonly files?: LabFiles } = {},
): Cluster {
  let data: unknown = input;
  if (typeof input === 'string') {
    try {
      data = JSON.parse(input);
    } catch (e) {
      throw new SnapshotError(`invalid snapshot: ${(e as Error).message}`);
    }
  }
  if (!isPlainObject(data) || data.format !== SNAPSHOT_FORMAT)
    throw new SnapshotError('invalid snapshot: not a Packet Path cluster snapshot');
  if (data.version !== SNAPSHOT_VERSION) {
    throw new SnapshotError(
      `unsupported snapshot version ${String(data.version)} (this engine reads version ${SNAPSHOT_VERSION})`,
    );
  }
  const snap = data as unknown as ClusterSnapshot;
  if (!isPlainObject(snap.store) || !Array.isArray(snap.store.objects) || !Array.isArray(snap.rng)) {
    throw new SnapshotError('invalid snapshot: missing store or rng state');
  }
  const cluster = new Cluster(
    snap.config,
    new SimClock(snap.clock),
    Rng.fromState(snap.rng),
    opts.files ?? snap.files ?? {},
  );
  cluster.store.restore(snap.store);
  cluster.nodeState.restore(snap.nodeState);
  cluster.shell.restore(snap.shell);
  cluster.start();
  return cluster;
}
