/**
 * Re-grading a cohort from report texts, for hosts without a filesystem (the instructor page's
 * worker): the grader's own parseReport, labForReport and regradeReport, as the CLI uses them (the
 * CLI adds file reading, threads and replay sharing for speed; the verdicts are the same).
 */
import { canonicalJson } from '../content-hash.ts';
import type { LabEngine } from '../engine-api.ts';
import type { LoadedLab } from '../lab-schema.ts';
import { createStarter, flagText, regradeReport, ReplayCache } from '../regrade.ts';
import { labForReport, parseReport } from '../report.ts';
import type { CohortEntry } from './cohort.ts';

export interface ReportText {
  readonly name: string;
  readonly text: string;
}

const invalid = (file: string, problem: string): CohortEntry => ({
  file,
  learner: undefined,
  submittedAt: undefined,
  status: 'invalid',
  score: undefined,
  results: [],
  problems: [problem],
  notes: [],
});

const firstLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0]!;

export function gradeReportTexts(
  loaded: LoadedLab,
  files: readonly ReportText[],
  engine: LabEngine,
  /** Called after each report (for a progress bar). */
  progress: (done: number) => void = () => {},
): CohortEntry[] {
  const starters = new Map<string, ReturnType<typeof createStarter>>();
  const cache = new ReplayCache();
  const firstByJournal = new Map<string, string>();
  return files.map((file, i) => {
    try {
      const report = parseReport(file.text);
      const lab = labForReport(loaded, report);
      const key = lab.variant?.id ?? '';
      let starter = starters.get(key);
      if (!starter) {
        starter = createStarter(lab, engine);
        starters.set(key, starter);
      }
      const g = regradeReport(loaded, report, {
        engine,
        start: starter.start,
        startState: starter.startState,
        cache,
      });
      const problems = g.flags.map(flagText);
      const journal = canonicalJson(report.submission.journal);
      const first = firstByJournal.get(journal);
      if (first === undefined) firstByJournal.set(journal, file.name);
      return {
        file: file.name,
        learner: report.learner,
        submittedAt: report.submittedAt,
        status: problems.length > 0 ? 'flagged' : 'ok',
        score: g.score,
        ...(report.lab.variant !== undefined ? { variant: report.lab.variant } : {}),
        results: g.results,
        problems,
        notes: first === undefined ? g.notes : [...g.notes, `same journal as ${first}`],
      } satisfies CohortEntry;
    } catch (e) {
      return invalid(file.name, firstLine(e));
    } finally {
      progress(i + 1);
    }
  });
}
