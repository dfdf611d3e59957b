/**
 * The controller runtime: the contract every control loop implements (controllers, the kubelet,
 * kube-proxy), its work queue and the context it runs in. Each controller mirrors one real Kubernetes
 * component: it watches the API, keeps its queue of keys to look at, and in sync() compares desired
 * with actual state and acts through the API. The cluster calls sync() on every controller until none
 * has work left ("settled").
 *
 * It sits below controllers/, node/ and dataplane/, so it names what it needs as interfaces (EventSink,
 * NodeLocalStore) rather than importing the classes that implement them.
 */
import type { ApiServer } from '../apiserver/apiserver.ts';
import type { AnyObject } from '../api/objects.ts';
import type { ClusterConfig } from '../api/cluster-config.ts';
import type { SimClock } from '../util/clock.ts';
import type { Rng } from '../util/rng.ts';
import type { Json } from '../util/json.ts';

export type EventType = 'Normal' | 'Warning';

export interface EventSource {
  readonly component: string;
  readonly host?: string;
}

/** Where components record core/v1 Events (client-go's EventRecorder; controllers/event-recorder.ts). */
export interface EventSink {
  /** Records an event about `involved`; `fieldPath` names a container (`spec.containers{nginx}`). */
  event(
    involved: AnyObject,
    type: EventType,
    reason: string,
    message: string,
    source?: EventSource,
    fieldPath?: string,
  ): void;
  /** Whether an event with this reason (and message prefix) about `involved` was recorded at or after `sinceMs`. */
  recordedSince(
    involved: AnyObject,
    reason: string,
    sinceMs: number,
    fieldPath?: string,
    messagePrefix?: string,
  ): boolean;
}

/** Per-node state outside the API (node/node-local-state.ts): files on the node's disk, kernel tables. */
export interface NodeLocalStore {
  get(node: string, key: string): Json | undefined;
  set(node: string, key: string, value: Json): void;
  updateRecord(node: string, key: string, change: (record: Record<string, Json>) => void): void;
}

export interface ControllerContext {
  readonly api: ApiServer;
  readonly clock: SimClock;
  readonly rng: Rng;
  readonly config: ClusterConfig;
  readonly recorder: EventSink;
  /** Per-node state outside the API (IPAM files, kernel tables), carried in snapshots. */
  readonly nodeState: NodeLocalStore;
}

export interface Controller {
  /** The real component's name, e.g. `replicaset-controller`, `kube-scheduler`, `kubelet`. */
  readonly name: string;
  /** Subscribes to watches and queues every existing object; called at start and after a restore. */
  start(): void;
  /** Works through the queue; returns true when it wrote anything through the API. */
  sync(): boolean;
  /**
   * The simulated time at which this controller next has something to do on its own (a container
   * finishing start-up, a grace period ending), or undefined. The cluster advances the clock to each
   * such moment in turn, so time-driven transitions happen in order without timers in the snapshot.
   */
  nextWakeup?(): number | undefined;
  /** Called when the clock reaches a wake-up time: queue whatever became due. */
  wake?(): void;
  /**
   * Called when a settle round found every controller idle: finish work that only the last round's
   * state decides (kube-proxy renders its rules here once rather than every round). Returns true
   * when it wrote anything through the API, which starts another round.
   */
  settled?(): boolean;
}

/**
 * A de-duplicating FIFO of object keys, like client-go's workqueue, with its delaying side (AddAfter):
 * a key can also be due at a simulated time, and stays due until its owner forgets it.
 */
export class WorkQueue {
  private readonly items = new Set<string>();
  private readonly dueAt = new Map<string, number>();

  add(key: string): void {
    this.items.add(key);
  }

  /** Queue `key` again once the clock reaches `at` (client-go's AddAfter, on the simulated clock). */
  addAfter(key: string, at: number): void {
    this.dueAt.set(key, at);
  }

  /** Drop a delayed key (its object was reconciled, or is gone). */
  forget(key: string): void {
    this.dueAt.delete(key);
  }

  forgetAll(): void {
    this.dueAt.clear();
  }

  /** The earliest time a delayed key is due, for Controller.nextWakeup. */
  nextDue(): number | undefined {
    let next: number | undefined;
    for (const t of this.dueAt.values()) if (next === undefined || t < next) next = t;
    return next;
  }

  /** Queue every delayed key due by `now`, for Controller.wake. */
  addDue(now: number): void {
    for (const [key, t] of this.dueAt) if (t <= now) this.items.add(key);
  }

  get size(): number {
    return this.items.size;
  }

  /** Takes every queued key, leaving the queue empty (keys added while processing wait for the next round). */
  drain(): string[] {
    const keys = [...this.items];
    this.items.clear();
    return keys;
  }
}
