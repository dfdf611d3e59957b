/**
 * Re-grading a report without trusting it: start the lab in a fresh engine, replay the learner's
 * journal step by step, evaluate every check, then compare with what the report claims. The recorded
 * score, results, files and snapshot are only evidence: any difference is flagged, and the grade is
 * always the recomputed one. Only a journal that really solves the lab passes.
 */
import { canonicalJson } from './content-hash.ts';
import { jsonEqual, type GradableCluster, type LabEngine } from './engine-api.ts';
import { evaluateChecks } from './evaluate.ts';
import { applyStep, historyOf, solutionJournal, startLab, type JournalStep } from './lab-runtime.ts';
import type { LoadedLab } from './lab-schema.ts';
import type { TrafficProbes } from './probes.ts';
import { assertReportForLab, labForReport, ReportError, startStateHash, type GradeReport } from './report.ts';
import { score, type CheckResult, type Score } from './result.ts';
import { snapshotDigest, type Sha256 } from './snapshot-digest.ts';

export type RegradeFlag =
  | { readonly kind: 'score'; readonly recorded: number; readonly recomputed: number }
  | { readonly kind: 'results'; readonly checks: readonly string[] }
  | { readonly kind: 'files'; readonly paths: readonly string[] }
  | { readonly kind: 'snapshot' }
  /** The report began from another start cluster than this lab's on this engine. */
  | { readonly kind: 'start-state'; readonly recorded: string; readonly expected: string };

export interface Regrade {
  readonly results: CheckResult[];
  readonly score: Score;
  readonly flags: RegradeFlag[];
  /** Worth knowing, not evidence of tampering (e.g. a report made before reports recorded their start state). */
  readonly notes: string[];
}

export interface RegradeOptions {
  readonly engine: LabEngine;
  readonly probes?: TrafficProbes;
  /** A fresh cluster in the lab's start state; `createStarter` makes a fast one. */
  readonly start?: () => GradableCluster;
  /** `startStateHash` of this engine's start state for the lab (computed when left out). */
  readonly startState?: string;
  /** Replays a whole journal (e.g. through a `ReplayTree`); by default `start()` then every step. */
  readonly replayJournal?: (journal: readonly JournalStep[]) => GradableCluster;
  /** sha256 for snapshot digests (`snapshotDigest`); the Node CLI passes its native one. */
  readonly sha256?: () => Sha256;
}

/** One line per flag, for the CLI (instructor-facing, English). */
export function flagText(flag: RegradeFlag): string {
  switch (flag.kind) {
    case 'score':
      return `recorded score ${flag.recorded}% does not match recomputed ${flag.recomputed}%`;
    case 'results':
      return `recorded results differ from the replay for ${flag.checks.join(', ')}`;
    case 'files':
      return `recorded files differ from the replay: ${flag.paths.join(', ')}`;
    case 'snapshot':
      return 'recorded cluster snapshot differs from the replayed state';
    case 'start-state':
      return `report began from start state ${short(flag.recorded)}, but this lab starts from ${short(flag.expected)} (another simulator build or a modified copy of the lab): snapshot not compared`;
  }
}

/** `sha256:` and 12 hex digits: enough to tell two start states apart in a message. */
const short = (hash: string) => (hash.length > 19 ? `${hash.slice(0, 19)}…` : hash);

function replay(cluster: GradableCluster, journal: readonly JournalStep[]): void {
  journal.forEach((step, i) => {
    try {
      applyStep(cluster, step);
    } catch (e) {
      throw new ReportError(`replay failed at step ${i + 1}: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
}

function compareResults(recorded: GradeReport['results'], recomputed: readonly CheckResult[]): string[] {
  const byId = new Map(recorded.map((r) => [r.id, r]));
  const differing = recomputed.filter((r) => byId.get(r.id)?.status !== r.status).map((r) => r.id);
  const known = new Set(recomputed.map((r) => r.id));
  const extra = recorded.filter((r) => !known.has(r.id)).map((r) => r.id);
  return [...differing, ...extra];
}

function compareFiles(
  recorded: Readonly<Record<string, string>>,
  actual: Readonly<Record<string, string>>,
): string[] {
  const paths = new Set([...Object.keys(recorded), ...Object.keys(actual)]);
  return [...paths].filter((p) => recorded[p] !== actual[p]).sort();
}

/** What replaying a journal yields: a deterministic function of (lab, engine, journal, quiz answers). */
interface Replayed {
  readonly results: CheckResult[];
  readonly files: Record<string, string>;
  readonly snapshot: unknown;
  /** `snapshotDigest` of `snapshot`, once a recorded digest needed it. */
  digest?: string;
}

/**
 * Replays shared by reports with the same journal and answers (a cohort re-submitting the solution, a
 * learner's several downloads). Replay is deterministic, so a hit is the replay itself, not a guess.
 */
export class ReplayCache {
  private readonly entries = new Map<string, Replayed>();
  private readonly limit: number;
  hits = 0;

  constructor(limit = 256) {
    this.limit = limit;
  }

  get(key: string): Replayed | undefined {
    const hit = this.entries.get(key);
    if (hit) this.hits++;
    return hit;
  }

  set(key: string, value: Replayed): void {
    if (this.entries.size < this.limit) this.entries.set(key, value);
  }
}

function replayReport(loaded: LoadedLab, report: GradeReport, opts: RegradeOptions): Replayed {
  const journal = report.submission.journal as readonly JournalStep[];
  let cluster: GradableCluster;
  if (opts.replayJournal) {
    try {
      cluster = opts.replayJournal(journal);
    } catch (e) {
      throw new ReportError(`replay failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  } else {
    cluster = opts.start ? opts.start() : startLab(loaded, opts.engine);
    replay(cluster, journal);
  }
  const results = evaluateChecks(
    loaded,
    cluster,
    { history: historyOf(journal), quizAnswers: report.submission.quizAnswers },
    { engine: opts.engine, revealHidden: true, ...(opts.probes ? { probes: opts.probes } : {}) },
  );
  return { results, files: cluster.files.toJSON(), snapshot: cluster.snapshot() };
}

/** The recorded snapshot as evidence: the snapshot itself, or its digest taken when the report was read. */
function snapshotDiffers(report: GradeReport, replayed: Replayed, opts: RegradeOptions & RecordedDigest) {
  if (opts.recordedSnapshot === undefined) return !jsonEqual(report.submission.snapshot, replayed.snapshot);
  // The replayed snapshot shares the engine's stored objects, whose texts the digest may remember.
  replayed.digest ??= snapshotDigest(replayed.snapshot, {
    remember: true,
    ...(opts.sha256 ? { sha256: opts.sha256 } : {}),
  });
  return replayed.digest !== opts.recordedSnapshot;
}

interface RecordedDigest {
  /**
   * `snapshotDigest` of the report's recorded snapshot, taken when it was read (the CLI then drops the
   * snapshot itself). Digests compare JSON text, so a mere reordering of keys differs too: the caller
   * re-checks a report flagged this way against its full snapshot.
   */
  readonly recordedSnapshot?: string;
}

export function regradeReport(
  lab: LoadedLab,
  report: GradeReport,
  opts: RegradeOptions & RecordedDigest & { cache?: ReplayCache },
): Regrade {
  // A lab with variants is re-graded as the variant the report names (rebuilt from scratch here).
  const loaded = labForReport(lab, report);
  assertReportForLab(report, loaded);
  const key = opts.cache ? canonicalJson([report.submission.journal, report.submission.quizAnswers]) : '';
  let replayed = opts.cache?.get(key);
  if (!replayed) {
    replayed = replayReport(loaded, report, opts);
    opts.cache?.set(key, replayed);
  }
  const startState = opts.startState ?? startStateHash(startLab(loaded, opts.engine));
  const notes: string[] = [];
  const flags: RegradeFlag[] = [];
  const recordedStart = report.engine?.startState;
  // Another start state (another simulator build, a modified local copy of the lab) replays differently:
  // the report is flagged, and its snapshot cannot be compared with ours.
  const sameStart = recordedStart === undefined || recordedStart === startState;
  if (!sameStart) flags.push({ kind: 'start-state', recorded: recordedStart, expected: startState });
  if (recordedStart === undefined) notes.push('report does not record the start state it began from');
  const { results } = replayed;
  const s = score(results);
  if (
    report.score.percent !== s.percent ||
    report.score.passed !== s.passed ||
    report.score.total !== s.total
  ) {
    flags.push({ kind: 'score', recorded: report.score.percent, recomputed: s.percent });
  }
  const differing = compareResults(report.results, results);
  if (differing.length > 0) flags.push({ kind: 'results', checks: differing });
  const files = compareFiles(report.submission.files, replayed.files);
  if (files.length > 0) flags.push({ kind: 'files', paths: files });
  if (sameStart && snapshotDiffers(report, replayed, opts)) flags.push({ kind: 'snapshot' });
  return { results, score: s, flags, notes };
}

/**
 * A factory of start-state clusters. Booting a cluster costs more than restoring one, so when restoring
 * the start snapshot is proven equivalent for this lab — the solution replayed on a restored copy
 * leaves exactly the snapshot it leaves on a freshly started one — copies are restored; otherwise
 * every call starts the lab from scratch.
 */
export function createStarter(
  loaded: LoadedLab,
  engine: LabEngine,
): { start: () => GradableCluster; restores: boolean; startState: string } {
  const fresh = (): GradableCluster => startLab(loaded, engine);
  const first = fresh();
  const startState = startStateHash(first);
  try {
    const startSnapshot = first.snapshot();
    const a = first;
    const b = engine.restoreCluster(startSnapshot);
    const steps = solutionJournal(loaded);
    replay(a, steps);
    replay(b, steps);
    if (canonicalJson(a.snapshot()) === canonicalJson(b.snapshot())) {
      return { start: () => engine.restoreCluster(startSnapshot), restores: true, startState };
    }
  } catch {
    // Fall back to fresh starts; the replay itself reports any failure per report.
  }
  return { start: fresh, restores: false, startState };
}
