/**
 * Grading report files against one lab, in this thread: read, parse, re-grade by replay. Used directly
 * for small cohorts and by each worker of `grade-worker.ts` for large ones.
 *
 * Two passes: the first reads every report's journal into a `ReplayTree` (so prefixes the cohort
 * shares are replayed once), the second re-grades the reports in depth-first journal order. A report
 * that comes out flagged is re-graded once more from a fresh start without the tree, and that result
 * stands: sharing work can speed grading up, never change a verdict.
 */
import { readFileSync, statSync } from 'node:fs';
import { canonicalJson } from '../../grader/content-hash.ts';
import { loadLabFromDir } from '../../grader/node/load-lab.ts';
import { compareJournals, ReplayTree, stepKeys } from '../../grader/replay-tree.ts';
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

const isGraded = (r: GradeReport | GradedFile): r is GradedFile => 'row' in r;

/**
 * A lab with variants: each report is graded against the variant it names (rebuilt from the lab, one
 * start state per variant); a report naming no variant, an unknown one, or one its seed does not draw
 * is invalid on its own row.
 */
function gradeVariants(loaded: LoadedLab, files: readonly ReportFile[]): GradedFile[] {
  const out: GradedFile[] = new Array(files.length);
  const groups = new Map<string, { lab: LoadedLab; at: number[] }>();
  files.forEach((file, i) => {
    const r = readReport(file);
    if (isGraded(r)) {
      out[i] = r;
      return;
    }
    try {
      const lab = labForReport(loaded, r);
      const id = lab.variant?.id ?? '';
      const group = groups.get(id) ?? { lab, at: [] };
      group.at.push(i);
      groups.set(id, group);
    } catch (e) {
      out[i] = invalid(file, (e as Error).message.split('\n')[0]!);
    }
  });
  for (const { lab, at } of groups.values()) {
    const graded = gradeLoaded(
      lab,
      at.map((i) => files[i]!),
    );
    at.forEach((i, k) => (out[i] = graded[k]!));
  }
  return out;
}

/** Grades report files against a loaded lab; results come back in the order of `files`. */
export function gradeLoaded(loaded: LoadedLab, files: readonly ReportFile[]): GradedFile[] {
  if (loaded.lab.variants) return gradeVariants(loaded, files);
  const starter = createStarter(loaded, engine);
  const cache = new ReplayCache();
  const tree = new ReplayTree(engine, starter.start);
  // Pass 1: journals only (reports are parsed again in pass 2 rather than all kept in memory).
  const keys: (string[] | undefined)[] = files.map((f) => {
    const r = readReport(f);
    if (isGraded(r)) return undefined;
    tree.add(r.submission.journal as JournalStep[]);
    return stepKeys(r.submission.journal as JournalStep[]);
  });
  const order = files.map((_, i) => i).sort((a, b) => compareJournals(keys[a] ?? [], keys[b] ?? []));
  const out: GradedFile[] = new Array(files.length);
  for (const i of order) {
    const file = files[i]!;
    const report = readReport(file);
    if (isGraded(report)) {
      out[i] = report;
      continue;
    }
    try {
      const base = { engine, start: starter.start, startState: starter.startState };
      const hits = cache.hits;
      let g = regradeReport(loaded, report, { ...base, cache, replayJournal: (j) => tree.replay(j) });
      if (cache.hits > hits) tree.skip(report.submission.journal as JournalStep[]);
      if (g.flags.length > 0) g = regradeReport(loaded, report, base);
      const problems = g.flags.map(flagText);
      out[i] = {
        row: {
          file: file.label,
          learner: report.learner,
          submittedAt: report.submittedAt,
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
