/**
 * What `packetpath grade` writes, all of it computed before any of it is written, each file whole
 * (atomic-write.ts): a failed write leaves no half a gradebook behind, and the formats themselves are
 * the grader's (src/grader/formats/), shared with the instructor page.
 */
import { resolve } from 'node:path';
import { gradebook, type Cohort } from '../../grader/formats/cohort.ts';
import {
  canvasCsv,
  checksCsv,
  classroomCsv,
  gradescopeArray,
  gradescopeFolders,
  moodleCsv,
  type GradebookOptions,
} from '../../grader/formats/gradebook.ts';
import { cohortHtml } from '../../grader/formats/report-html.ts';
import type { Roster } from '../../grader/formats/roster.ts';
import { writeFileAtomic, writeFolderAtomic } from './atomic-write.ts';
import type { Format } from './grade.ts';

export interface Outputs {
  readonly format?: Format;
  readonly out?: string;
  readonly html?: string;
  readonly csv?: string;
  readonly json?: string;
}

type Planned =
  | { readonly path: string; readonly text: string }
  | { readonly folder: string; readonly files: Map<string, string> };

/**
 * Plans every file; returns the warnings (learners left out) and the plan. The CSV/JSON of the
 * whole cohort are given in as text (grade-output.ts makes them).
 */
export function planOutputs(
  cwd: string,
  cohort: Cohort,
  roster: Roster | undefined,
  outputs: Outputs,
  opts: GradebookOptions,
  cohortCsvText: () => string,
  cohortJsonText: () => string,
): { plan: Planned[]; warnings: string[] } {
  const plan: Planned[] = [];
  const warnings: string[] = [];
  if (outputs.csv) plan.push({ path: resolve(cwd, outputs.csv), text: cohortCsvText() });
  if (outputs.json) plan.push({ path: resolve(cwd, outputs.json), text: cohortJsonText() });
  if (outputs.html) plan.push({ path: resolve(cwd, outputs.html), text: cohortHtml(cohort, opts.locale) });
  if (outputs.format && outputs.out) {
    const path = resolve(cwd, outputs.out);
    const needsBook = !['checks', 'csv', 'json'].includes(outputs.format);
    const book = needsBook ? gradebook(cohort, roster) : undefined;
    if (book) warnings.push(...book.warnings);
    switch (outputs.format) {
      case 'csv':
        plan.push({ path, text: cohortCsvText() });
        break;
      case 'json':
        plan.push({ path, text: cohortJsonText() });
        break;
      case 'checks':
        plan.push({ path, text: checksCsv(cohort, opts) });
        break;
      case 'canvas':
        plan.push({ path, text: canvasCsv(cohort, book!, opts) });
        break;
      case 'moodle':
      case 'classroom': {
        const r = outputs.format === 'moodle' ? moodleCsv(cohort, book!, opts) : classroomCsv(book!, opts);
        warnings.push(...r.warnings);
        plan.push({ path, text: r.text });
        break;
      }
      case 'gradescope': {
        if (outputs.out.endsWith('.json')) {
          plan.push({ path, text: gradescopeArray(cohort, book!, opts) });
          break;
        }
        const files = gradescopeFolders(cohort, book!, opts);
        plan.push({ folder: path, files });
        break;
      }
    }
  }
  return { plan, warnings };
}

/** A file of the plan could not be written: which one, and the fs error. */
export class WriteError extends Error {
  readonly target: string;
  constructor(target: string, cause: unknown) {
    super(`cannot write ${target}`, { cause });
    this.target = target;
  }
}

export function writePlan(plan: readonly Planned[]): void {
  for (const p of plan) {
    const target = 'folder' in p ? p.folder : p.path;
    try {
      if ('folder' in p) writeFolderAtomic(p.folder, p.files);
      else writeFileAtomic(p.path, p.text);
    } catch (e) {
      throw new WriteError(target, e);
    }
  }
}
