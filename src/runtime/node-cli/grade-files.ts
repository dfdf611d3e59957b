/**
 * Grading report files against one lab, in this thread: read, parse, re-grade by replay. Used directly
 * for small cohorts and by each worker of `grade-worker.ts` for large ones.
 */
import { readFileSync, statSync } from 'node:fs';
import { canonicalJson } from '../../grader/content-hash.ts';
import { loadLabFromDir } from '../../grader/node/load-lab.ts';
import {
  createStarter,
  engine,
  flagText,
  parseReport,
  regradeReport,
  ReplayCache,
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

export interface Grader {
  grade(file: ReportFile): GradedFile;
}

export function createGrader(loaded: LoadedLab): Grader {
  const starter = createStarter(loaded, engine);
  const cache = new ReplayCache();
  return { grade: (file) => gradeOne(loaded, file, starter, cache) };
}

/** Loads the lab and grades the files (the worker's whole job). */
export function gradeFiles(labDir: string, files: readonly ReportFile[]): GradedFile[] {
  const grader = createGrader(loadLabFromDir(labDir));
  return files.map((f) => grader.grade(f));
}

function gradeOne(
  loaded: LoadedLab,
  file: { path: string; label: string },
  starter: ReturnType<typeof createStarter>,
  cache: ReplayCache,
): GradedFile {
  const invalid = (problem: string): GradedFile => ({
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
  });
  let text: string;
  try {
    if (statSync(file.path).size > MAX_REPORT_BYTES) return invalid('file too large to be a grade report');
    text = readFileSync(file.path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return invalid(
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (e as Error).message,
    );
  }
  try {
    const report = parseReport(text);
    const g = regradeReport(loaded, report, {
      engine,
      start: starter.start,
      startState: starter.startState,
      cache,
    });
    const problems = g.flags.map(flagText);
    const row: GradedRow = {
      file: file.label,
      learner: report.learner,
      submittedAt: report.submittedAt,
      status: problems.length > 0 ? 'flagged' : 'ok',
      score: g.score,
      recordedPercent: report.score.percent,
      results: g.results,
      problems,
      notes: g.notes,
    };
    return { row, journal: canonicalJson(report.submission.journal) };
  } catch (e) {
    return invalid((e as Error).message.split('\n')[0]!);
  }
}
