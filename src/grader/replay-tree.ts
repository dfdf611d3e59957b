/**
 * Sharing replay work across a cohort. Learners follow the same steps, so their journals share
 * prefixes (`kubectl apply -f web.yaml`, `kubectl get pods`, …). The tree counts, for every prefix, how
 * many journals go through it; at a branch point — a prefix two or more journals share, after which
 * they part — it keeps a snapshot, and later journals restore it instead of replaying the prefix again.
 * A snapshot is dropped once every journal through it has been replayed.
 *
 * This trusts `restoreCluster` to continue exactly as the original would. The engine promises that
 * (saved progress relies on it) and `createStarter` checks it for the start state; the instructor CLI
 * also re-grades from scratch any report that comes out flagged, so a restore that diverged can never
 * be what flags a report.
 */
import { canonicalJson } from './content-hash.ts';
import type { ClusterSnapshot, GradableCluster, LabEngine } from './engine-api.ts';
import { applyStep, type JournalStep } from './lab-runtime.ts';

interface TreeNode {
  readonly children: Map<string, TreeNode>;
  /** Journals added through this prefix and not yet replayed. */
  pending: number;
  /** Journals added through this prefix in all. */
  total: number;
  snapshot?: ClusterSnapshot;
}

const node = (): TreeNode => ({ children: new Map(), pending: 0, total: 0 });

export function stepKeys(journal: readonly JournalStep[]): string[] {
  return journal.map((s) => canonicalJson(s));
}

export class ReplayTree {
  private readonly root = node();
  private readonly engine: LabEngine;
  private readonly start: () => GradableCluster;
  /** Steps replayed, and steps a snapshot saved (for the benchmark's record). */
  readonly stats = { replayed: 0, skipped: 0, snapshots: 0 };

  constructor(engine: LabEngine, start: () => GradableCluster) {
    this.engine = engine;
    this.start = start;
  }

  add(journal: readonly JournalStep[]): void {
    let n = this.root;
    n.pending++;
    n.total++;
    for (const key of stepKeys(journal)) {
      let child = n.children.get(key);
      if (!child) n.children.set(key, (child = node()));
      child.pending++;
      child.total++;
      n = child;
    }
  }

  /** A branch point: shared by two or more journals, and not all of them take the same next step. */
  private isBranchPoint(n: TreeNode): boolean {
    if (n.total < 2) return false;
    for (const c of n.children.values()) if (c.total === n.total) return false;
    return true;
  }

  /** The cluster after the whole journal: restored from the deepest saved prefix, then replayed. */
  replay(journal: readonly JournalStep[]): GradableCluster {
    const keys = stepKeys(journal);
    const path: TreeNode[] = [this.root];
    for (const key of keys) {
      const next = path[path.length - 1]!.children.get(key);
      if (!next) break;
      path.push(next);
    }
    let from = 0;
    for (let i = path.length - 1; i > 0; i--) {
      if (path[i]!.snapshot) {
        from = i;
        break;
      }
    }
    const cluster = from === 0 ? this.start() : this.engine.restoreCluster(path[from]!.snapshot!);
    this.stats.skipped += from;
    for (let i = from; i < journal.length; i++) {
      applyStep(cluster, journal[i]!);
      this.stats.replayed++;
      const n = path[i + 1];
      if (n && !n.snapshot && n.pending > 1 && this.isBranchPoint(n)) {
        n.snapshot = cluster.snapshot();
        this.stats.snapshots++;
      }
    }
    this.release(path);
    return cluster;
  }

  /** Marks a journal done without replaying it (its result came from elsewhere, e.g. a replay cache). */
  skip(journal: readonly JournalStep[]): void {
    const path: TreeNode[] = [this.root];
    for (const key of stepKeys(journal)) {
      const next = path[path.length - 1]!.children.get(key);
      if (!next) break;
      path.push(next);
    }
    this.release(path);
  }

  private release(path: readonly TreeNode[]): void {
    for (const n of path) {
      n.pending--;
      if (n.pending <= 0) delete n.snapshot;
    }
  }
}

/** Sorts journals so that those sharing prefixes are replayed one after another (depth-first order). */
export function compareJournals(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return a.length - b.length;
}
