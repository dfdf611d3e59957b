/**
 * Grading report files against one lab, in this thread: read, parse, re-grade by replay. Used directly
 * for small cohorts and by each worker of `grade-worker.ts` for large ones.
 *
 * Two passes: the first reads and validates every report once, adds its journal to a `ReplayTree` (so
 * prefixes the cohort shares are replayed once) and keeps the report without its recorded snapshot,
 * only the snapshot's digest (a cohort's snapshots would not fit in memory); the second re-grades the
 * reports in depth-first journal order. A report that comes out flagged is read again and re-graded
 * from a fresh start without the tree, its snapshot compared structurally, and that result stands:
 * sharing work and digests can speed grading up, never change a verdict.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { canonicalJson } from '../../grader/content-hash.ts';
import { loadLabFromDir } from '../../grader/node/load-lab.ts';
import { compareJournals, ReplayTree, stepKeys } from '../../grader/replay-tree.ts';
import { snapshotDigest } from '../../grader/snapshot-digest.ts';
import type { JournalStep } from '../../grader/lab-runtime.ts';
import {
  createStarter,
  engine,
  labForReport,
  flagText,
  parseReport,
  regradeReport,
  ReplayCache,
  type GradeReport,
  type LoadedLab,
} from './grade-deps.ts';
import type { GradedRow } from './grade-output.ts';

/** Reports bigger than this are refused unread: a real one is a few hundred KB. */
const MAX_REPORT_BYTES = 50 * 1024 * 1024;

export interface ReportFile {
  readonly path: string;
  /** As the instructor named it (relative), for messages. */
  readonly label: string;
}

export interface GradedFile {
  readonly row: GradedRow;
  /** Canonical JSON of the journal, to spot identical submissions across the cohort. */
  readonly journal?: string;
}

function invalid(file: ReportFile, problem: string): GradedFile {
  return {
    row: {
      file: file.label,
      learner: undefined,
      submittedAt: undefined,
      status: 'invalid',
      score: undefined,
      recordedPercent: undefined,
      results: [],
      problems: [problem],
      notes: [],
    },
  };
}

function readReport(file: ReportFile): GradeReport | GradedFile {
  let text: string;
  try {
    if (statSync(file.path).size > MAX_REPORT_BYTES)
      return invalid(file, 'file too large to be a grade report');
    text = readFileSync(file.path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return invalid(
      file,
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (e as Error).message,
    );
  }
  try {
    return parseReport(text);
  } catch (e) {
    return invalid(file, (e as Error).message.split('\n')[0]!);
  }
}

const isGraded = (r: object): r is GradedFile => 'row' in r;

/** node:crypto's sha256: several times faster than the grader's portable one on ~200 KB snapshots. */
const sha256 = () => createHash('sha256');

/** A report read and validated, its recorded snapshot replaced by that snapshot's digest. */
interface ReadReport {
  readonly report: GradeReport;
  readonly snapshotDigest: string;
}

function readOnce(file: ReportFile): ReadReport | GradedFile {
  const r = readReport(file);
  if (isGraded(r)) return r;
  const digest = snapshotDigest(r.submission.snapshot, { sha256 });
  return { report: { ...r, submission: { ...r.submission, snapshot: {} } }, snapshotDigest: digest };
}

/**
 * A lab with variants: each report is graded against the variant it names (rebuilt from the lab, one
 * start state per variant); a report naming no variant, an unknown one, or one its seed does not draw
 * is invalid on its own row.
 */
function gradeVariants(loaded: LoadedLab, files: readonly ReportFile[]): GradedFile[] {
  const out: GradedFile[] = new Array(files.length);
  const groups = new Map<string, { lab: LoadedLab; at: number[] }>();
  const read = files.map(readOnce);
  files.forEach((file, i) => {
    const r = read[i]!;
    if (isGraded(r)) {
      out[i] = r;
      return;
    }
    try {
      const lab = labForReport(loaded, r.report);
      const id = lab.variant?.id ?? '';
      const group = groups.get(id) ?? { lab, at: [] };
      group.at.push(i);
      groups.set(id, group);
    } catch (e) {
      out[i] = invalid(file, (e as Error).message.split('\n')[0]!);
    }
  });
  for (const { lab, at } of groups.values()) {
    const graded = gradeRead(
      lab,
      at.map((i) => files[i]!),
      at.map((i) => read[i]!),
    );
    at.forEach((i, k) => (out[i] = graded[k]!));
  }
  return out;
}

/** Grades report files against a loaded lab; results come back in the order of `files`. */
export function gradeLoaded(loaded: LoadedLab, files: readonly ReportFile[]): GradedFile[] {
  if (loaded.lab.variants) return gradeVariants(loaded, files);
  return gradeRead(loaded, files, files.map(readOnce));
}

/** Grades reports already read (pass 1 done) against one lab without variants. */
function gradeRead(
  loaded: LoadedLab,
  files: readonly ReportFile[],
  read: readonly (ReadReport | GradedFile)[],
): GradedFile[] {
  const starter = createStarter(loaded, engine);
  const cache = new ReplayCache();
  const tree = new ReplayTree(engine, starter.start);
  const keys = read.map((r) => {
    if (isGraded(r)) return undefined;
    tree.add(r.report.submission.journal as JournalStep[]);
    return stepKeys(r.report.submission.journal as JournalStep[]);
  });
  const order = files.map((_, i) => i).sort((a, b) => compareJournals(keys[a] ?? [], keys[b] ?? []));
  const out: GradedFile[] = new Array(files.length);
  for (const i of order) {
    const file = files[i]!;
    const r = read[i]!;
    if (isGraded(r)) {
      out[i] = r;
      continue;
    }
    const { report } = r;
    try {
      const base = { engine, start: starter.start, startState: starter.startState, sha256 };
      const hits = cache.hits;
      let g = regradeReport(loaded, report, {
        ...base,
        cache,
        replayJournal: (j) => tree.replay(j),
        recordedSnapshot: r.snapshotDigest,
      });
      if (cache.hits > hits) tree.skip(report.submission.journal as JournalStep[]);
      if (g.flags.length > 0) {
        // From scratch, against the whole recorded snapshot (a digest also differs on reordered keys).
        const full = readReport(file);
        if (isGraded(full)) {
          out[i] = full;
          continue;
        }
        g = regradeReport(loaded, full, base);
      }
      const problems = g.flags.map(flagText);
      out[i] = {
        row: {
          file: file.label,
          learner: report.learner,
          submittedAt: report.submittedAt,
          ...(report.lab.variant !== undefined ? { variant: report.lab.variant } : {}),
          status: problems.length > 0 ? 'flagged' : 'ok',
          score: g.score,
          recordedPercent: report.score.percent,
          results: g.results,
          problems,
          notes: g.notes,
        },
        journal: canonicalJson(report.submission.journal),
      };
    } catch (e) {
      out[i] = invalid(file, (e as Error).message.split('\n')[0]!);
    }
  }
  return out;
}

/** Loads the lab and grades the files (a worker's whole job). */
export function gradeFiles(labDir: string, files: readonly ReportFile[]): GradedFile[] {
  return gradeLoaded(loadLabFromDir(labDir), files);
}
