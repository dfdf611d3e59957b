/**
 * Grades (issue 9 item 5): a report edited by hand is caught by `packetpath grade`'s grading path
 * (gradeLoaded: read, parse, replay, compare) — every field, one row each. Fields that only describe
 * the submission (learner, times, locale) cannot be checked by replay and are listed as such; the
 * about-labs page says so.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSession, type GradeReport } from '../../src/grader/index.ts';
import { loadLabFromDir } from '../../src/grader/node/load-lab.ts';
import { gradeLoaded } from '../../src/runtime/node-cli/grade-files.ts';

const LAB = join(import.meta.dirname, '../../labs/00-sandbox');
const loaded = loadLabFromDir(LAB);
const dir = mkdtempSync(join(tmpdir(), 'pp-tamper-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function solved(): GradeReport {
  const s = openSession(loaded);
  s.solve();
  return s.report({
    locale: 'en',
    learner: 'Ana',
    startedAt: '2026-11-29T10:00:00Z',
    submittedAt: '2026-11-29T10:30:00Z',
  });
}

function unsolved(): GradeReport {
  const s = openSession(loaded);
  s.exec('kubectl apply -f web.yaml');
  return s.report({
    locale: 'en',
    learner: 'Bea',
    startedAt: '2026-11-29T10:00:00Z',
    submittedAt: '2026-11-29T10:30:00Z',
  });
}

const honest = solved();
const failing = unsolved();
const clone = (r: GradeReport): GradeReport => JSON.parse(JSON.stringify(r)) as GradeReport;

function grade(name: string, r: GradeReport | string) {
  const path = join(dir, `${name.replace(/\W+/g, '-')}.json`);
  writeFileSync(path, typeof r === 'string' ? r : JSON.stringify(r));
  const [graded] = gradeLoaded(loaded, [{ path, label: name }]);
  return graded!.row;
}

type Edit = (r: GradeReport) => void;

const FLAGGED: [string, GradeReport, Edit, RegExp][] = [
  [
    'score.percent raised',
    failing,
    (r) => void (r.score.percent = 100),
    /^recorded score 100% does not match/,
  ],
  ['score.passed raised', failing, (r) => void (r.score.passed = r.score.total), /^recorded score/],
  ['score.total lowered', failing, (r) => void (r.score.total = r.score.passed), /^recorded score/],
  [
    'a failed check marked pass',
    failing,
    (r) => void r.results.filter((x) => x.status !== 'pass').forEach((x) => (x.status = 'pass')),
    /^recorded results differ from the replay for /,
  ],
  [
    'a passed check marked fail',
    honest,
    (r) => void (r.results[0]!.status = 'fail'),
    /^recorded results differ from the replay for deployment-exists/,
  ],
  [
    'a check added',
    honest,
    (r) => void r.results.push({ ...r.results[0]!, id: 'bonus' }),
    /^recorded results differ from the replay for bonus/,
  ],
  [
    'a submission file edited',
    honest,
    (r) => void (r.submission.files['web.yaml'] = 'kind: Deployment\n'),
    /^recorded files differ from the replay: web\.yaml/,
  ],
  [
    'a submission file added',
    honest,
    (r) => void (r.submission.files['extra.yaml'] = 'x'),
    /^recorded files differ from the replay: extra\.yaml/,
  ],
  [
    'a submission file removed',
    honest,
    (r) => void delete r.submission.files['web.yaml'],
    /^recorded files differ from the replay: web\.yaml/,
  ],
  [
    'the snapshot edited (replicas)',
    honest,
    (r) => {
      const s = JSON.stringify(r.submission.snapshot).replace('"replicas":3', '"replicas":4');
      r.submission.snapshot = JSON.parse(s) as Record<string, unknown>;
    },
    /^recorded cluster snapshot differs from the replayed state/,
  ],
  [
    'the snapshot replaced by a solved one on an unsolved journal',
    failing,
    (r) => void (r.submission.snapshot = clone(honest).submission.snapshot),
    /snapshot differs|files differ|results differ|score/,
  ],
  [
    'the history (journal) edited: a command removed, evidence kept',
    honest,
    (r) => void r.submission.journal.splice(1, 1),
    /^recorded (score|results|files|cluster snapshot)/,
  ],
  [
    'the history (journal) extended with a command never run',
    failing,
    (r) => void r.submission.journal.push({ run: 'kubectl scale deployment web --replicas=3' }),
    /^recorded (score|results|files|cluster snapshot)/,
  ],
];

describe('packetpath grade flags a report edited by hand', { timeout: 120_000 }, () => {
  it('an honest report is ok', () => {
    const row = grade('honest', honest);
    expect(row.status).toBe('ok');
    expect(row.problems).toEqual([]);
  });

  it.each(FLAGGED)('%s', (name, base, edit, problem) => {
    const r = clone(base);
    edit(r);
    const row = grade(name, r);
    expect(row.status).toBe('flagged');
    expect(
      row.problems.some((p) => problem.test(p)),
      row.problems.join('; '),
    ).toBe(true);
    // The grade is always the recomputed one, never the recorded one.
    if (!name.includes('journal')) expect(row.score?.percent).toBe(base.score.percent);
  });

  it.each([
    ['lab.id', (r: GradeReport) => void (r.lab.id = '01-pod-to-pod'), /^report is for lab 01-pod-to-pod/],
    ['lab.version', (r: GradeReport) => void (r.lab.version = 99), /^lab version 99 does not match/],
    [
      'lab.contentHash',
      (r: GradeReport) => void (r.lab.contentHash = `sha256:${'0'.repeat(64)}`),
      /^content hash mismatch/,
    ],
    [
      'format',
      (r: GradeReport) => void ((r as { format: string }).format = 'x'),
      /^not a Packet Path grade report/,
    ],
    [
      'a score that is not a number',
      (r: GradeReport) => void ((r.score as { percent: unknown }).percent = '100'),
      /^malformed grade report: score\.percent/,
    ],
    [
      'an unknown field',
      (r: GradeReport) => void ((r as Record<string, unknown>).signature = 'x'),
      /^malformed grade report/,
    ],
  ])('%s edited: the report is invalid, with one line', (_n, edit, problem) => {
    const r = clone(honest);
    edit(r);
    const row = grade(`invalid-${_n}`, r);
    expect(row.status).toBe('invalid');
    expect(row.problems).toHaveLength(1);
    expect(row.problems[0]).toMatch(problem);
  });

  it.each([
    ['learner', (r: GradeReport) => void (r.learner = 'Someone Else')],
    ['submittedAt', (r: GradeReport) => void (r.submittedAt = '2026-11-28T09:00:00Z')],
    ['locale', (r: GradeReport) => void (r.locale = 'pt-BR')],
  ])(
    '%s edited: not detectable by replay (descriptive only; see "What the client-side grade can and cannot prove")',
    (_n, edit) => {
      const r = clone(honest);
      edit(r);
      expect(grade(`meta-${_n}`, r).status).toBe('ok');
    },
  );
});
