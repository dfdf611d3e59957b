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
import { Kubelet, NodePodWatch } from '../node/kubelet.ts';
import { KubeProxy, type KubeProxySnapshot } from '../dataplane/proxy/kube-proxy.ts';
import { cniDataplane } from '../dataplane/network/cni-dataplane.ts';
import { cniDeviceAddresses } from '../node/cni/device-addresses.ts';
import { NodeLocalState, type NodeLocalSnapshot } from '../node/node-local-state.ts';
import { bootstrapCluster } from './bootstrap.ts';
import { EventRecorder } from '../controllers/event-recorder.ts';
import { Shell, type Completion, type ShellState } from '../shell/shell.ts';
import { Sightings, type SeenOutput } from '../shell/sightings.ts';
import { createClusterCommands, type ClusterCommands, type LogRead } from './commands.ts';
import type { CommandHandler, ExecResult, SessionContext } from '../shell/types.ts';
import { MAX_SLEEP_SECONDS } from '../shell/limits.ts';
import { ContainerRuntime } from '../node/container-runtime.ts';
import { HostForwards, type PortForward } from '../dataplane/network/host-forwards.ts';
import { DnsState, type DnsStateSnapshot } from '../dataplane/network/dns-client.ts';
import { CorefileHistory, type CorefileVersion } from '../dataplane/dns/reload-log.ts';
import { DetachedWaits } from '../dataplane/tools/tool-context.ts';
import type { ConfigMap, Pod } from '../api/objects.ts';
import { parseSnapshot, SnapshotError, SNAPSHOT_FORMAT, SNAPSHOT_VERSION } from './snapshot-schema.ts';
import { clusterView, type ClusterView } from './view.ts';

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

/** The API server's verbs a host serving the Kubernetes API over HTTP answers requests with. */
export type ServedApi = Pick<
  ApiServer,
  'get' | 'list' | 'create' | 'update' | 'updateStatus' | 'delete' | 'watch'
>;

/**
 * What a host that serves the Kubernetes API itself (`packetpath serve`, for a real kubectl or client
 * library) drives beyond a ClusterHandle: the API server's verbs and watches, the simulated clock, the
 * controllers settling after a write, and the kubelet's pods/log and pods/exec subresources.
 */
export interface ServedCluster extends ClusterHandle {
  readonly api: ServedApi;
  /** Simulated time, in milliseconds since the epoch. */
  now(): number;
  /** Lets the controllers finish the work a write queued (see Cluster.settle). */
  settle(): number;
  /** What the kubelet serves for a container's log, as `kubectl logs` reads it here. */
  containerLog(pod: Pod, container: string, previous: boolean): LogRead;
  /**
   * Runs a command in a pod's container as `kubectl exec` does here (the image's tools, the shell's
   * builtins behind a shell), or undefined when the image has no such command.
   */
  execInContainer(
    context: Extract<SessionContext, { kind: 'pod' }>,
    argv: readonly string[],
    stdin: string,
  ): ReturnType<CommandHandler> | undefined;
}

export { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, SnapshotError } from './snapshot-schema.ts';

/**
 * Everything a cluster is: restoring it gives a cluster that answers every later command exactly as
 * this one would. What is not here is rebuilt from it (watches, caches, the controllers' queues).
 */
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
  /** The `kubectl port-forward` processes running on the learner's machine. */
  readonly hostForwards: readonly PortForward[];
  /** The CoreDNS replicas' running configuration, caches and `log` plugin lines. */
  readonly dns: DnsStateSnapshot;
  /** The versions of the `coredns` ConfigMap's Corefile and when each was written (the reload plugin's input). */
  readonly corefileHistory: readonly CorefileVersion[];
  /** kube-proxy and the kernel on every node: rules, counters, conntrack, IPVS connections, logs. */
  readonly kubeProxy?: KubeProxySnapshot;
  /** The objects the learner's terminal showed, line by line (what observation checks read). */
  readonly seen: readonly SeenOutput[];
}

/**
 * What a host does with a cluster: run the learner's lines, move time, save it, follow its changes and
 * its files, and hand a read-only `ClusterView` to whoever only looks (the grader, the network views).
 */
export interface ClusterHandle {
  /** Runs one line as the learner typed it. Never throws: failures come back as stderr and an exit code. */
  exec(line: string, opts?: { interactive?: boolean }): Promise<ExecResult>;
  execSync(line: string, opts?: { interactive?: boolean }): ExecResult;
  /** Advances simulated time by `ms`, letting the controllers work as they would meanwhile. */
  tick(ms: number): void;
  snapshot(): ClusterSnapshot;
  readonly changes: Pick<Emitter<{ change: ClusterChange }>, 'on'>;
  readonly files: LabFiles;
  view(): ClusterView;
  /** The shell's prompt as it stands (user, host, working directory, last exit status). */
  prompt(): string;
  /** Tab completion for `line` with the cursor at `cursor`, as the shell would offer it. */
  complete(line: string, cursor: number): Completion;
  /** The store's resourceVersion: moves with every object write, so a host can tell the cluster changed. */
  readonly resourceVersion: number;
  /** What the learner's terminal has shown: the objects each typed line displayed (observation checks). */
  readonly sightings: { list(): readonly SeenOutput[] };
  /** The terminal's size, for `$COLUMNS`, `stty size` and `tput` (the terminal sends it again after a restore). */
  resize(cols: number, rows: number): void;
}

export class Cluster implements ServedCluster {
  readonly store: ApiStore;
  readonly api: ApiServer;
  readonly files: LabFiles;
  readonly shell: Shell;
  readonly changes = new Emitter<{ change: ClusterChange }>();
  readonly recorder: EventRecorder;
  readonly nodeState = new NodeLocalState();
  readonly hostForwards = new HostForwards();
  readonly dns = new DnsState();
  readonly corefileHistory = new CorefileHistory();
  /** What the learner's terminal has shown: the objects each typed line displayed. */
  readonly sightings = new Sightings();
  /** Tool waits inside a container's process run (empty between commands). */
  readonly detachedWaits = new DetachedWaits();
  readonly runtime: ContainerRuntime;
  /** The cluster's programs (its shell's resolver, the container runtime's tools, logs and exec for hosts). */
  readonly commands: ClusterCommands;
  private readonly controllers: Controller[];
  /** kube-proxy on every node; the node tools (iptables-save, ipvsadm, nft, conntrack) read it. */
  readonly kubeProxy: KubeProxy;
  readonly config: ClusterConfig;
  readonly clock: SimClock;
  readonly rng: Rng;
  private readonlyView: ClusterView | undefined;

  constructor(config: ClusterConfig, clock: SimClock, rng: Rng, files: Record<string, string> | LabFiles) {
    this.config = config;
    this.clock = clock;
    this.rng = rng;
    this.store = new ApiStore(clock, rng);
    this.api = new ApiServer(this.store, { clock, rng, config });
    this.recorder = new EventRecorder(this.api, clock);
    // The runtime runs container tools through the commands, which are made once the shell's parts are.
    this.runtime = new ContainerRuntime(this.nodeState, (pod, container, argv) =>
      this.commands.runTool(pod, container, argv),
    );
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
    // One pods watch for all the kubelets, routed by node.
    const podWatch = new NodePodWatch(this.api);
    this.controllers = [
      ...createControllers(
        ctx,
        ctx.config.nodes.map((n) => new Kubelet(ctx, n.name, podWatch, this.runtime)),
      ),
      this.kubeProxy,
    ];
    this.files = files instanceof LabFiles ? files : new LabFiles(files);
    this.files.changes.on('change', () => this.emitChange('files'));
    this.watchHostState();
    this.commands = createClusterCommands(this);
    this.shell = new Shell({
      resolve: this.commands.resolve,
      files: this.files,
      tick: (ms) => this.tick(ms),
      onSight: (line, sightings) => this.sightings.record(line, sightings),
    });
  }

  /**
   * Keeps the state outside the API objects in step with them: the Corefile's versions as the
   * `coredns` ConfigMap changes, and the port-forwards whose pod went away (deleted, or its
   * containers stopped), which end as the real ones do (`error: lost connection to pod`).
   */
  private watchHostState(): void {
    this.api.watch('configmaps', (e) => {
      const cm = e.object as ConfigMap;
      if (e.type === 'DELETED' || cm.metadata.namespace !== 'kube-system' || cm.metadata.name !== 'coredns')
        return;
      this.corefileHistory.record(this.clock.now(), cm.data?.Corefile ?? '');
    });
    this.api.watch('pods', (e) => {
      const pod = e.object as Pod;
      const phase = pod.status?.phase;
      if (e.type === 'DELETED' || phase === 'Succeeded' || phase === 'Failed')
        this.hostForwards.lostPod(pod.metadata.namespace ?? 'default', pod.metadata.name);
    });
  }

  prompt(): string {
    return this.shell.prompt();
  }

  complete(line: string, cursor: number): Completion {
    return this.shell.completions(line, cursor);
  }

  get resourceVersion(): number {
    return this.store.resourceVersion;
  }

  now(): number {
    return this.clock.now();
  }

  resize(cols: number, rows: number): void {
    this.shell.setTerminalSize({ cols, rows });
  }

  containerLog(pod: Pod, container: string, previous: boolean): LogRead {
    return this.commands.readLog(pod, container, previous);
  }

  execInContainer(
    context: Extract<SessionContext, { kind: 'pod' }>,
    argv: readonly string[],
    stdin: string,
  ): ReturnType<CommandHandler> | undefined {
    const handler = this.commands.execCommand(argv[0] ?? '', context);
    return handler?.(argv, { stdin, env: {}, context, interactive: false });
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
      hostForwards: this.hostForwards.snapshot(),
      dns: this.dns.snapshot(),
      corefileHistory: this.corefileHistory.snapshot(),
      kubeProxy: this.kubeProxy.snapshot(),
      seen: this.sightings.snapshot(),
    };
  }

  view(): ClusterView {
    return (this.readonlyView ??= clusterView(this));
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

/**
 * Rebuilds a cluster from `snapshot()` output (an object or its JSON text). What it loads is checked
 * first: a snapshot that is not one, of a version this engine does not read, or with a part missing
 * or of the wrong shape is refused with a SnapshotError saying what is wrong, before any of it
 * reaches the engine. Older versions are migrated.
 */
export function restoreCluster(
  input: ClusterSnapshot | string,
  opts: { readonly files?: LabFiles } = {},
): Cluster {
  const snap = parseSnapshot(input);
  let cluster: Cluster;
  try {
    cluster = new Cluster(
      snap.config,
      new SimClock(snap.clock),
      Rng.fromState(snap.rng),
      opts.files ?? snap.files,
    );
    cluster.store.restore(snap.store);
    cluster.nodeState.restore(snap.nodeState);
    cluster.hostForwards.restore(snap.hostForwards);
    cluster.dns.restore(snap.dns);
    cluster.corefileHistory.restore(snap.corefileHistory);
    if (snap.kubeProxy) cluster.kubeProxy.restore(snap.kubeProxy);
    cluster.sightings.restore(snap.seen);
    cluster.shell.restore(snap.shell);
    cluster.start();
  } catch (e) {
    // The shape was right but the content is not one a cluster can run from (objects no API server wrote).
    throw new SnapshotError(`invalid snapshot: ${e instanceof Error ? e.message : String(e)}`);
  }
  return cluster;
}
