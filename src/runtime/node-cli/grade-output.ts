/**
 * How `packetpath grade` shows a cohort: an aligned table on stdout, and CSV/JSON files for a
 * gradebook (CSV as formats/csv.ts writes it: RFC 4180, formula-safe). The LMS formats are formats/gradebook.ts.
 */
import { formatMessage, type Locale } from '../../grader/index.ts';
import type { CohortEntry } from '../../grader/formats/cohort.ts';
import { csvText } from '../../grader/formats/csv.ts';

export interface GradedRow extends CohortEntry {
  readonly recordedPercent: number | undefined;
}

function pad(cells: string[][]): string {
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  return cells
    .map((row) =>
      row
        .map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function cohortTable(rows: readonly GradedRow[]): string {
  const header = ['REPORT', 'LEARNER', 'SCORE', 'PASSED', 'FAILED CHECKS', 'STATUS'];
  const body = rows.map((r) => [
    r.file,
    r.learner ?? '-',
    r.score ? `${r.score.percent}%` : '-',
    r.score ? `${r.score.passed}/${r.score.total}` : '-',
    r.results
      .filter((x) => x.status !== 'pass')
      .map((x) => x.id)
      .join(',') || '-',
    r.status === 'ok'
      ? 'ok'
      : `${r.status}: ${r.problems[0] ?? ''}${r.problems.length > 1 ? ` (+${r.problems.length - 1})` : ''}`,
  ]);
  const graded = rows.filter((r) => r.score);
  const mean = graded.length
    ? Math.round(graded.reduce((n, r) => n + r.score!.percent, 0) / graded.length)
    : 0;
  const summary = `${rows.length} reports: ${rows.filter((r) => r.status === 'ok').length} ok, ${rows.filter((r) => r.status === 'flagged').length} flagged, ${rows.filter((r) => r.status === 'invalid').length} invalid; mean score ${graded.length ? `${mean}%` : '-'}`;
  return `${pad([header, ...body])}\n\n${summary}\n`;
}

export function cohortCsv(rows: readonly GradedRow[], checkIds: readonly string[]): string {
  const header = [
    'file',
    'learner',
    'submitted_at',
    'status',
    'score_percent',
    'passed',
    'total',
    'recorded_percent',
    ...checkIds,
    'problems',
  ];
  const lines = rows.map((r) => {
    const byId = new Map(r.results.map((x) => [x.id, x.status]));
    return [
      r.file,
      r.learner,
      r.submittedAt,
      r.status,
      r.score?.percent,
      r.score?.passed,
      r.score?.total,
      r.recordedPercent,
      ...checkIds.map((id) => byId.get(id)),
      r.problems.join('; '),
    ];
  });
  return csvText([header, ...lines]);
}

export function cohortJson(
  rows: readonly GradedRow[],
  lab: { id: string; version: number; contentHash: string },
  locale: Locale,
): string {
  return `${JSON.stringify(
    {
      lab,
      reports: rows.map((r) => ({
        file: r.file,
        learner: r.learner ?? null,
        submittedAt: r.submittedAt ?? null,
        status: r.status,
        score: r.score ?? null,
        recordedPercent: r.recordedPercent ?? null,
        problems: r.problems,
        notes: r.notes,
        checks: r.results.map((x) => ({
          id: x.id,
          status: x.status,
          hidden: x.hidden,
          expected: formatMessage(locale, x.expected),
          observed: formatMessage(locale, x.observed),
          ...(x.hop ? { hop: formatMessage(locale, x.hop) } : {}),
        })),
      })),
    },
    null,
    2,
  )}\n`;
}
