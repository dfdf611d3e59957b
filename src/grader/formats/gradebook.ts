/**
 * Gradebook files, one per LMS, from a re-graded cohort (cohort.ts). Each follows its vendor's
 * documented import format; the tests cite the documents. Points: a learner's score is the share of
 * checks passed times `points` (100 unless the instructor says otherwise), to two decimals.
 */
import type { Locale } from '../lab-schema.ts';
import { csvText, type CsvValue } from './csv.ts';
import { explanation, type Cohort, type Gradebook, type GradebookLearner } from './cohort.ts';

export interface GradebookOptions {
  readonly locale: Locale;
  /** What a learner who passes every check gets (default 100). */
  readonly points?: number;
  /** The gradebook column: Canvas's `Name (id)` as its export spells it, Moodle's grade item name. */
  readonly assignment?: string;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export function points(learner: GradebookLearner, max: number): number {
  const { passed, total } = learner.entry.score;
  return total === 0 ? 0 : round2((passed / total) * max);
}

function assignmentName(cohort: Cohort, opts: GradebookOptions): string {
  return opts.assignment ?? `${cohort.lab.id}: ${cohort.lab.title[opts.locale]}`;
}

/** The failing checks, for a feedback column: "title: why; title: why". */
export function feedback(cohort: Cohort, learner: GradebookLearner, locale: Locale): string {
  const titles = new Map(cohort.lab.checks.map((c) => [c.id, c.title[locale]]));
  return learner.entry.results
    .filter((r) => r.status !== 'pass')
    .map((r) => `${titles.get(r.id) ?? r.id}: ${explanation(r, locale)}`)
    .join('; ');
}

/**
 * Gradescope autograder results (gradescope-autograders.readthedocs.io, "Autograder Specifications",
 * results.json): `score`, `max_score`, `output`, and one test per check with `name`, `score`,
 * `max_score`, `status` (passed/failed), `output` and `visibility`; hidden checks are shown once the
 * grades are published (`after_published`).
 */
export function gradescopeResults(cohort: Cohort, learner: GradebookLearner, opts: GradebookOptions) {
  const max = opts.points ?? 100;
  const { results } = learner.entry;
  const each = results.length === 0 ? 0 : max / results.length;
  const checks = new Map(cohort.lab.checks.map((c) => [c.id, c]));
  return {
    score: points(learner, max),
    max_score: max,
    output: `${cohort.lab.id} v${cohort.lab.version}${learner.entry.variant ? ` (${learner.entry.variant})` : ''}: ${learner.entry.score.passed}/${learner.entry.score.total} checks pass`,
    tests: results.map((r) => {
      const check = checks.get(r.id);
      return {
        name: check?.title[opts.locale] ?? r.id,
        score: r.status === 'pass' ? round2(each) : 0,
        max_score: round2(each),
        status: r.status === 'pass' ? 'passed' : 'failed',
        output: r.status === 'pass' ? '' : explanation(r, opts.locale),
        tags: [r.id],
        visibility: r.hidden ? 'after_published' : 'visible',
      };
    }),
  };
}

/** A folder name for a learner: their e-mail or name, kept to safe characters, unique in the set. */
function folderName(name: string, taken: Set<string>): string {
  const base =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9@._-]+/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '')
      .slice(0, 80) || 'learner';
  let unique = base;
  for (let n = 2; taken.has(unique.toLowerCase()); n++) unique = `${base}-${n}`;
  taken.add(unique.toLowerCase());
  return unique;
}

/** Gradescope's layout for many submissions: `LEARNER/results.json`, one folder per learner. */
export function gradescopeFolders(
  cohort: Cohort,
  book: Gradebook,
  opts: GradebookOptions,
): Map<string, string> {
  const taken = new Set<string>();
  const files = new Map<string, string>();
  for (const l of book.learners) {
    const dir = folderName(l.identity.email ?? l.identity.name, taken);
    files.set(`${dir}/results.json`, `${JSON.stringify(gradescopeResults(cohort, l, opts), null, 2)}\n`);
  }
  return files;
}

/** Every learner's results.json in one JSON array, each with who it is for and which report. */
export function gradescopeArray(cohort: Cohort, book: Gradebook, opts: GradebookOptions): string {
  return `${JSON.stringify(
    book.learners.map((l) => ({
      learner: l.identity.name,
      ...(l.identity.email ? { email: l.identity.email } : {}),
      file: l.entry.file,
      results: gradescopeResults(cohort, l, opts),
    })),
    null,
    2,
  )}\n`;
}

/**
 * Canvas gradebook import (Canvas guide "How do I import grades in the Gradebook?"; the header of its
 * own export): `Student,ID,SIS User ID,SIS Login ID,Section,<Assignment>`, then a `Points Possible` row
 * under the assignment column. Canvas matches a row by ID, SIS User ID or SIS Login ID; a column named
 * `Name (id)` as in an export updates that assignment, any other name creates one.
 */
export function canvasCsv(cohort: Cohort, book: Gradebook, opts: GradebookOptions): string {
  const max = opts.points ?? 100;
  const rows: CsvValue[][] = [
    ['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section', assignmentName(cohort, opts)],
    ['    Points Possible', '', '', '', '', max],
  ];
  for (const l of book.learners) {
    const i = l.identity;
    rows.push([i.name, i.id, i.sisUserId, i.sisLoginId, i.section, points(l, max)]);
  }
  return csvText(rows);
}

/**
 * Moodle grade import (Grades > Import > CSV file, gradeimport_csv): one identifier column, chosen
 * under "Identify user by" (email address, username or ID number), then the grade item and its
 * feedback column, mapped at import. A learner with none of those identifiers cannot be matched and
 * is left out, with a warning.
 */
export function moodleCsv(
  cohort: Cohort,
  book: Gradebook,
  opts: GradebookOptions,
): { text: string; warnings: string[] } {
  const max = opts.points ?? 100;
  const item = assignmentName(cohort, opts);
  const rows: CsvValue[][] = [['email', 'username', 'idnumber', item, `${item} feedback`]];
  const warnings: string[] = [];
  for (const l of book.learners) {
    const i = l.identity;
    if (!i.email && !i.username && !i.sisUserId) {
      warnings.push(
        `learner "${i.name}" has no e-mail or username (give a --roster): left out of the moodle file`,
      );
      continue;
    }
    rows.push([i.email, i.username, i.sisUserId, points(l, max), feedback(cohort, l, opts.locale)]);
  }
  return { text: csvText(rows), warnings };
}

/**
 * Google Classroom has no grade import for coursework it did not create; instructors paste a grade
 * column from Sheets (Classroom help "Import grades"), so this is the sheet: `Email Address,Grade`, one
 * row per learner with an e-mail.
 */
export function classroomCsv(book: Gradebook, opts: GradebookOptions): { text: string; warnings: string[] } {
  const max = opts.points ?? 100;
  const rows: CsvValue[][] = [['Email Address', 'Grade']];
  const warnings: string[] = [];
  for (const l of book.learners) {
    if (!l.identity.email) {
      warnings.push(
        `learner "${l.identity.name}" has no e-mail (give a --roster): left out of the classroom file`,
      );
      continue;
    }
    rows.push([l.identity.email, points(l, max)]);
  }
  return { text: csvText(rows), warnings };
}

export interface CheckStats {
  readonly id: string;
  readonly title: string;
  readonly hidden: boolean;
  readonly variant: string | undefined;
  /** Graded reports that ran this check. */
  readonly graded: number;
  readonly passed: number;
  readonly failed: number;
  readonly errors: number;
  /** 0–100, one decimal; undefined when no report ran the check. */
  readonly passRate: number | undefined;
  /** The most common explanation among the failures, with how many failures gave it. */
  readonly topReason: { readonly text: string; readonly count: number } | undefined;
}

/** Pass counts per check over the graded reports (every report, not one per learner). */
export function checkStats(cohort: Cohort, locale: Locale): CheckStats[] {
  const graded = cohort.entries.filter((e) => e.status !== 'invalid');
  return cohort.lab.checks.map((c) => {
    let ran = 0;
    let passed = 0;
    let errors = 0;
    const reasons = new Map<string, number>();
    for (const e of graded) {
      const r = e.results.find((x) => x.id === c.id);
      if (!r) continue;
      ran++;
      if (r.status === 'pass') passed++;
      else {
        if (r.status === 'error') errors++;
        const why = explanation(r, locale);
        reasons.set(why, (reasons.get(why) ?? 0) + 1);
      }
    }
    let topReason: CheckStats['topReason'];
    for (const [text, count] of reasons)
      if (!topReason || count > topReason.count) topReason = { text, count };
    return {
      id: c.id,
      title: c.title[locale],
      hidden: c.hidden,
      variant: c.variant,
      graded: ran,
      passed,
      failed: ran - passed,
      errors,
      passRate: ran === 0 ? undefined : Math.round((passed / ran) * 1000) / 10,
      topReason,
    };
  });
}

/** The analytics feed: one row per check. */
export function checksCsv(cohort: Cohort, opts: GradebookOptions): string {
  const rows: CsvValue[][] = [
    [
      'check_id',
      'title',
      'hidden',
      'variant',
      'graded',
      'passed',
      'failed',
      'errors',
      'pass_rate',
      'top_failure',
    ],
  ];
  for (const s of checkStats(cohort, opts.locale)) {
    rows.push([
      s.id,
      s.title,
      s.hidden ? 'yes' : 'no',
      s.variant,
      s.graded,
      s.passed,
      s.failed,
      s.errors,
      s.passRate,
      s.topReason?.text,
    ]);
  }
  return csvText(rows);
}
