// `packetpath grade --format F --out FILE`, `--roster` and `--html`: each gradebook file against its
// vendor's documented import format (cited per test), on a cohort re-graded by the real grader.
// Expected files are written out by hand from those documents, never pasted from our own output.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { correctAnswers, openSession, type GradeReport } from '../../src/grader/index.ts';
import { csvText, parseCsv, CsvError } from '../../src/grader/formats/csv.ts';
import { parseRoster } from '../../src/grader/formats/roster.ts';
import { loadLabFromDir } from '../../src/grader/node/load-lab.ts';
import { runGrade } from '../../src/runtime/node-cli/grade.ts';

const LABS = join(import.meta.dirname, '../../labs');
let dir: string;

const meta = (learner: string, submittedAt: string) => ({
  locale: 'en' as const,
  learner,
  startedAt: '2026-03-01T10:00:00Z',
  submittedAt,
});

async function grade(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runGrade([join(LABS, '04-empty-endpoints'), 'reports', ...argv], {
    cwd: dir,
    out: (t) => out.push(t),
    err: (t) => err.push(t),
  });
  return { code, out: out.join(''), err: err.join('') };
}

const read = (name: string) => readFileSync(join(dir, name), 'utf8');

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'packetpath-formats-'));
  mkdirSync(join(dir, 'reports'));
  const loaded = loadLabFromDir(join(LABS, '04-empty-endpoints'));
  const write = (name: string, r: GradeReport) =>
    writeFileSync(join(dir, 'reports', name), JSON.stringify(r));

  // Ana solves it (and answers the quiz); an earlier report of hers has nothing done.
  const ana = openSession(loaded);
  ana.solve();
  for (const [id, choices] of Object.entries(correctAnswers(loaded.lab.checks))) ana.answer(id, choices);
  write('ana-2.json', ana.report(meta('Ana Souza', '2026-03-01T11:00:00Z')));
  write('ana-1.json', openSession(loaded).report(meta('ana  souza', '2026-03-01T10:30:00Z')));
  // Bruno fixes the selector too broadly (tier=backend also picks the worker, which serves nothing on
  // the api port): 2 ready endpoints at least, but web's requests may land on the worker, and the
  // hidden check wants the api pods only. He passes api-endpoints and pods-untouched: 2 of 7.
  // Doing nothing passes pods-untouched alone: 1 of 7.
  const bruno = openSession(loaded);
  bruno.exec(`kubectl -n shop patch service api -p '{"spec":{"selector":{"app":null,"tier":"backend"}}}'`);
  write('bruno.json', bruno.report(meta('Bruno, "Bê" Lima', '2026-03-01T10:50:00Z')));
  // A name a spreadsheet would run as a formula, and a learner not on the roster.
  write(
    'eve.json',
    openSession(loaded).report(meta('=HYPERLINK("http://x.example","click")', '2026-03-01T10:51:00Z')),
  );
  write('zed.json', openSession(loaded).report(meta('Zed', '2026-03-01T10:52:00Z')));
  // A report of another lab.
  write(
    'other.json',
    openSession(loadLabFromDir(join(LABS, '00-sandbox'))).report(meta('Ana Souza', '2026-03-01T10:53:00Z')),
  );
  writeFileSync(
    join(dir, 'roster.csv'),
    [
      'Name,Email,Username,ID,SIS_User_ID,SIS_Login_ID,Section',
      'Ana Souza,ana@uni.example,asouza,1001,S-1,ana.souza,Turma A',
      '"Bruno, ""Bê"" Lima",bruno@uni.example,blima,1002,S-2,bruno.lima,Turma B',
      '"=HYPERLINK(""http://x.example"",""click"")",eve@uni.example,eve,1003,,,',
      '',
    ].join('\r\n'),
  );
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('CSV (RFC 4180, https://www.rfc-editor.org/rfc/rfc4180 §2)', () => {
  it('quotes commas, quotes and line breaks, doubles quotes, ends lines with CRLF', () => {
    expect(csvText([['a,b', 'say "hi"', 'two\nlines', 'plain', 7]])).toBe(
      '"a,b","say ""hi""","two\nlines",plain,7\r\n',
    );
  });

  it('neutralises text a spreadsheet would run as a formula (OWASP CSV injection), not numbers', () => {
    expect(csvText([['=1+1', '+1', '-cmd', '@SUM(A1)', '\tx', -3]])).toBe(
      "'=1+1,'+1,'-cmd,'@SUM(A1),'\tx,-3\r\n",
    );
  });

  it('reads back what it writes, and names the line of a broken record', () => {
    const rows = [
      ['name', 'note'],
      ['Bruno, "Bê"', 'a\r\nb'],
      ['x', ''],
    ];
    expect(parseCsv(`\uFEFF${csvText(rows)}`).map((r) => r.fields)).toEqual(rows);
    expect(() => parseCsv('a,b\n"open,c\n')).toThrow(new CsvError(2, 'unterminated quoted field'));
    expect(() => parseCsv('a,b\nx"y,c\n')).toThrow('a quote inside an unquoted field');
  });
});

describe('--roster', () => {
  it('says what is wrong with a roster in one line, naming the line', () => {
    const bad: [string, string][] = [
      ['', 'r.csv: empty (a header row with a name column comes first)'],
      ['email\nana@x.example\n', 'r.csv: line 1: no name column (the header has: email)'],
      ['name,email\nAna,ana@x.example,extra\n', 'r.csv: line 2: 3 fields, but the header has 2'],
      ['name,email\nAna,not-an-email\n', 'r.csv: line 2: not an e-mail address: not-an-email'],
      [
        'name,email\nAna,a@x.example\n ANA ,b@x.example\n',
        'r.csv: line 3: ANA is listed twice (lines 2 and 3)',
      ],
      ['name\n"Ana\n', 'r.csv: line 2: unterminated quoted field'],
      ['name,name\n', 'r.csv: line 1: two columns for name'],
      ['\0\0PK', 'r.csv: not a CSV file (binary content)'],
    ];
    for (const [text, message] of bad) expect(() => parseRoster(text, 'r.csv')).toThrow(message);
  });

  it('stops grade before anything is graded or written', async () => {
    writeFileSync(join(dir, 'bad-roster.csv'), 'name,email\nAna,a@x.example,oops\n');
    const r = await grade('--roster', 'bad-roster.csv', '--format', 'canvas', '--out', 'never.csv');
    expect(r).toEqual({
      code: 2,
      out: '',
      err: 'packetpath grade: bad-roster.csv: line 2: 3 fields, but the header has 2\n',
    });
    expect(existsSync(join(dir, 'never.csv'))).toBe(false);
    const missing = await grade('--roster', 'nope.csv', '--format', 'canvas', '--out', 'never.csv');
    expect(missing.err).toBe('packetpath grade: nope.csv: no such file or directory\n');
  });
});

describe('gradebook formats', { timeout: 120_000 }, () => {
  it('canvas: Student,ID,SIS User ID,SIS Login ID,Section,<Assignment>, then Points Possible', async () => {
    // Canvas Instructor Guide, "How do I import grades in the Gradebook?"
    // (community.canvaslms.com/t5/Instructor-Guide/How-do-I-import-grades-in-the-Gradebook/ta-p/807):
    // the first five columns as the gradebook export has them, a "Points Possible" second row, rows
    // matched by ID / SIS User ID / SIS Login ID.
    const r = await grade(
      '--roster',
      'roster.csv',
      '--format',
      'canvas',
      '--out',
      'canvas.csv',
      '--assignment',
      'Lab 4 (5512)',
    );
    expect(r.code).toBe(1); // other.json is invalid
    expect(read('canvas.csv')).toBe(
      [
        'Student,ID,SIS User ID,SIS Login ID,Section,Lab 4 (5512)',
        '    Points Possible,,,,,100',
        'Ana Souza,1001,S-1,ana.souza,Turma A,100',
        '"Bruno, ""Bê"" Lima",1002,S-2,bruno.lima,Turma B,25',
        `"'=HYPERLINK(""http://x.example"",""click"")",1003,,,,12.5`,
        '',
      ].join('\r\n'),
    );
    expect(r.err).toContain(
      'packetpath grade: reports/other.json: report is for lab 00-sandbox, not 04-empty-endpoints\n',
    );
    expect(r.err).toContain(
      'packetpath grade: reports/zed.json: learner "Zed" is not in the roster: left out of the gradebook\n',
    );
    expect(r.err).toContain(
      'packetpath grade: learner "Ana Souza" has 2 reports (reports/ana-1.json, reports/ana-2.json): the gradebook takes the latest submitted, reports/ana-2.json\n',
    );
  });

  it('moodle: an identifier column (email/username/idnumber), the grade item, its feedback', async () => {
    // Moodle docs, "Grade import" (docs.moodle.org/en/Grade_import): CSV import maps one column to
    // "Identify user by" (email address, username, ID number) and the others to grade items and
    // their feedback.
    await grade(
      '--roster',
      'roster.csv',
      '--format',
      'moodle',
      '--out',
      'moodle.csv',
      '--assignment',
      'Lab 4',
    );
    const rows = parseCsv(read('moodle.csv')).map((r) => r.fields);
    expect(rows[0]).toEqual(['email', 'username', 'idnumber', 'Lab 4', 'Lab 4 feedback']);
    expect(rows.slice(1).map((r) => r.slice(0, 4))).toEqual([
      ['ana@uni.example', 'asouza', 'S-1', '100'],
      ['bruno@uni.example', 'blima', 'S-2', '25'],
      ['eve@uni.example', 'eve', '', '12.5'],
    ]);
    expect(rows[1]![4]).toBe('');
    // Bruno's feedback names the hidden check that caught the over-broad selector, and why.
    expect(rows[2]![4]).toMatch(/^[^;]+: .+/);
  });

  it('classroom: Email Address,Grade, for a Sheets column pasted into Classroom', async () => {
    // Google Classroom imports grades only into coursework its own project created
    // (developers.google.com/classroom/guides/manage-grades); teachers paste from a sheet keyed by e-mail.
    await grade('--roster', 'roster.csv', '--format', 'classroom', '--out', 'classroom.csv');
    expect(read('classroom.csv')).toBe(
      'Email Address,Grade\r\nana@uni.example,100\r\nbruno@uni.example,25\r\neve@uni.example,12.5\r\n',
    );
  });

  it('without a roster, classroom and moodle keep only learners whose name is an e-mail, and say so', async () => {
    const r = await grade('--format', 'classroom', '--out', 'classroom-noroster.csv');
    expect(read('classroom-noroster.csv')).toBe('Email Address,Grade\r\n');
    expect(r.err).toContain(
      'learner "Ana Souza" has no e-mail (give a --roster): left out of the classroom file',
    );
  });

  it('gradescope: one results.json per learner; hidden checks after_published; score = sum of tests', async () => {
    // Gradescope autograder specification (gradescope-autograders.readthedocs.io/en/latest/specs/,
    // "Output format"): results.json with score, max_score, output, tests[] of name, score, max_score,
    // status ("passed"/"failed"), output, tags, visibility (hidden, after_due_date, after_published, visible).
    await grade('--roster', 'roster.csv', '--format', 'gradescope', '--out', 'gs');
    expect(readdirSync(join(dir, 'gs')).sort()).toEqual([
      'ana@uni.example',
      'bruno@uni.example',
      'eve@uni.example',
    ]);
    const bruno = JSON.parse(read('gs/bruno@uni.example/results.json'));
    expect(Object.keys(bruno).sort()).toEqual(['max_score', 'output', 'score', 'tests']);
    expect(bruno.max_score).toBe(100);
    expect(bruno.score).toBe(25);
    const lab = loadLabFromDir(join(LABS, '04-empty-endpoints')).lab;
    expect(bruno.tests).toHaveLength(lab.checks.length);
    for (const [i, t] of bruno.tests.entries()) {
      const check = lab.checks[i]!;
      expect(t.tags).toEqual([check.id]);
      expect(t.visibility).toBe(check.hidden ? 'after_published' : 'visible');
      expect(['passed', 'failed']).toContain(t.status);
      expect(t.score).toBe(t.status === 'passed' ? t.max_score : 0);
      if (t.status === 'failed') expect(t.output).not.toBe('');
    }
    const sum = bruno.tests.reduce((n: number, t: { score: number }) => n + t.score, 0);
    expect(Math.abs(sum - bruno.score)).toBeLessThan(0.05);
    expect(bruno.tests.find((t: { tags: string[] }) => t.tags[0] === 'only-api-pods').status).toBe('failed');

    await grade('--roster', 'roster.csv', '--format', 'gradescope', '--out', 'gs.json');
    const array = JSON.parse(read('gs.json'));
    expect(array.map((a: { email: string }) => a.email)).toEqual([
      'ana@uni.example',
      'bruno@uni.example',
      'eve@uni.example',
    ]);
    expect(array[1].results).toEqual(bruno);
  });

  it('checks: one row per check with pass counts and rates, over every graded report', async () => {
    await grade('--format', 'checks', '--out', 'checks.csv');
    const rows = parseCsv(read('checks.csv')).map((r) => r.fields);
    expect(rows[0]).toEqual([
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
    ]);
    const only = rows.find((r) => r[0] === 'only-api-pods')!;
    // Five graded reports (ana ×2, bruno, eve, zed); only Ana's solution keeps exactly the api pods.
    expect(only.slice(2, 9)).toEqual(['yes', '', '5', '1', '4', '0', '20']);
    const selector = rows.find((r) => r[0] === 'selector-fixed')!;
    expect(selector.slice(4, 9)).toEqual(['5', '1', '4', '0', '20']);
    const untouched = rows.find((r) => r[0] === 'pods-untouched')!;
    expect(untouched.slice(4, 10)).toEqual(['5', '5', '0', '0', '100', '']);
  });

  it('--html: one page, nothing fetched, in --locale, with the table, the chart and what fails most', async () => {
    await grade('--html', 'cohort.html', '--locale', 'pt-BR');
    const html = read('cohort.html');
    expect(html).toMatch(/^<!doctype html>\n<html lang="pt-BR">/);
    expect(html).not.toMatch(/\b(src|href)=|@import|url\(/);
    expect(html).toContain("default-src 'none'");
    expect(html).toContain('<h1>Relatório da turma: Um Service sem endpoints</h1>');
    expect(html).toContain('6 relatórios: 5 ok, 0 sinalizados, 1 inválidos.');
    // One bar per check of the lab.
    expect((html.match(/<rect class="bar"/g) ?? []).length).toBe(8);
    expect(html).toContain('Verificações em que a turma mais falha');
    expect(html).toContain('report is for lab 00-sandbox, not 04-empty-endpoints');
    // The learner's own text is escaped, never markup.
    expect(html).toContain('=HYPERLINK(&#34;http://x.example&#34;,&#34;click&#34;)');
    expect(html).not.toContain('<script');
  });

  it('writes nothing half: a missing folder is one line, a non-empty gradescope folder is kept', async () => {
    const r = await grade('--format', 'canvas', '--out', 'no/such/dir/c.csv', '--html', 'also.html');
    expect(r.code).toBe(2);
    expect(r.err).toContain('packetpath grade: cannot write no/such/dir/c.csv: no such file or directory\n');
    mkdirSync(join(dir, 'mine'));
    writeFileSync(join(dir, 'mine', 'keep.txt'), 'mine');
    const g = await grade('--roster', 'roster.csv', '--format', 'gradescope', '--out', 'mine');
    expect(g.err).toContain('packetpath grade: cannot write mine: folder exists and is not empty\n');
    expect(readdirSync(join(dir, 'mine'))).toEqual(['keep.txt']);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('rejects an unknown format, --format without --out, and a bad --points', async () => {
    expect((await grade('--format', 'blackboard', '--out', 'x')).err).toContain(
      'packetpath grade: unknown format "blackboard" (formats: gradescope, canvas, moodle, classroom, checks, csv, json)\n',
    );
    expect((await grade('--format', 'canvas')).err).toContain(
      'packetpath grade: --format canvas needs --out FILE\n',
    );
    expect((await grade('--points', '-3')).err).toContain(
      'packetpath grade: --points must be a positive number\n',
    );
  });
});
