/**
 * The cluster behind `packetpath serve`, and how time moves in it. Between requests the controllers
 * settle after every write, as they do after every shell line. The clock either follows the wall
 * clock (`wall`: a learner's kubectl sees pods start and AGE grow as they would on a real cluster)
 * or stands still between requests (`frozen`: the differential test compares both kubectls on one
 * instant); in both, a watch that is waiting lets simulated time run, as `kubectl wait` does in the shell.
 *
 * With a state file the cluster is shared with `packetpath exec`: every request runs under the
 * file's lock, reloads the cluster when another process saved it, and saves it after a write.
 */
import { readFileSync, statSync } from 'node:fs';
import { restoreCluster, type LabFiles, type ServedCluster } from '../../../engine/index.ts';
import { EventLog } from './event-log.ts';
import { saveState, withStateLock } from './state-file.ts';

export type ClockMode = 'wall' | 'frozen';

/** A waiting watch moves simulated time this much per step (the shell's `kubectl wait` polls at 500 ms). */
export const WATCH_STEP_MS = 500;
/** Simulated time a wall-clock step may cover at once (a server idle for an hour catches up in bounded work). */
const MAX_WALL_STEP_MS = 60_000;

export interface HostOptions {
  readonly clock: ClockMode;
  readonly stateFile?: string;
  readonly files?: LabFiles;
}

export class ClusterHost {
  private clusterNow: ServedCluster;
  readonly log: EventLog;
  private lastWall = Date.now();
  private savedStamp: string | undefined;
  private savedRv: number;
  private savedClock: number;
  private readonly opts: HostOptions;

  constructor(cluster: ServedCluster, opts: HostOptions) {
    this.opts = opts;
    this.clusterNow = cluster;
    this.log = new EventLog(cluster);
    this.savedRv = cluster.resourceVersion;
    this.savedClock = cluster.now();
    if (opts.stateFile) this.save(true);
  }

  get cluster(): ServedCluster {
    return this.clusterNow;
  }

  /** Serves another cluster from now on (watches see the differences as events). */
  replace(next: ServedCluster): void {
    const before = this.clusterNow;
    this.clusterNow = next;
    this.log.replaced(before, next);
  }

  /** Runs `fn` on the current cluster: under the state file's lock, reloaded first, saved after. */
  run<T>(fn: (cluster: ServedCluster) => T): T {
    const body = () => {
      this.reloadIfChanged();
      this.advanceWall();
      const out = fn(this.clusterNow);
      this.clusterNow.settle();
      this.save(false);
      return out;
    };
    return this.opts.stateFile ? withStateLock(this.opts.stateFile, body) : body();
  }

  /** One step of simulated time for a waiting watch (frozen mode) or a catch-up (wall mode). */
  step(): void {
    this.run((cluster) => {
      if (this.opts.clock === 'frozen') cluster.tick(WATCH_STEP_MS);
    });
  }

  private advanceWall(): void {
    if (this.opts.clock !== 'wall') return;
    const now = Date.now();
    const elapsed = Math.min(now - this.lastWall, MAX_WALL_STEP_MS);
    this.lastWall = now;
    if (elapsed > 0) this.clusterNow.tick(elapsed);
  }

  private stamp(): string | undefined {
    try {
      const s = statSync(this.opts.stateFile!);
      return `${s.mtimeMs}:${s.size}:${s.ino}`;
    } catch {
      return undefined;
    }
  }

  private reloadIfChanged(): void {
    if (!this.opts.stateFile) return;
    const stamp = this.stamp();
    if (stamp === undefined || stamp === this.savedStamp) return;
    const next = restoreCluster(readFileSync(this.opts.stateFile, 'utf8'), {
      ...(this.opts.files ? { files: this.opts.files } : {}),
    });
    this.replace(next);
    this.savedStamp = stamp;
    this.savedRv = next.resourceVersion;
    this.savedClock = next.now();
  }

  /** Saves after a write, and after simulated time moved by more than a command's step. */
  private save(force: boolean): void {
    if (!this.opts.stateFile) return;
    const c = this.clusterNow;
    const moved = c.resourceVersion !== this.savedRv || c.now() - this.savedClock >= 2000;
    if (!force && !moved) return;
    saveState(this.opts.stateFile, c.snapshot());
    this.savedStamp = this.stamp();
    this.savedRv = c.resourceVersion;
    this.savedClock = c.now();
  }
}
