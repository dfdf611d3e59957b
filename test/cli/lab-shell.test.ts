/**
 * `packetpath shell --lab ID` as a self-paced learner uses it: the steps on start, `lab steps|check|
 * hint|solution` instead of the lab page's panel and buttons, and `--report FILE`, the report the
 * browser's Download button makes. The browser side here is the Web Worker's own session class
 * (src/runtime/lab-session.ts) driven the way the page drives it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadLabFromDir } from '../../src/grader/node/load-lab.ts';
import { LabSession } from '../../src/runtime/lab-session.ts';
import { main } from '../../src/runtime/node-cli/main.ts';
import { runGrade } from '../../src/runtime/node-cli/grade.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/packetpath.mjs');
const NODE = existsSync(join(ROOT, 'node_modules/.bin/node'))
  ? join(ROOT, 'node_modules/.bin/node')
  : process.execPath;

function cli(args: string[], input: string, cwd = mkdtempSync(join(tmpdir(), 'packetpath-labshell-'))) {
  const r = spawnSync(NODE, [BIN, ...args], { cwd, input, encoding: 'utf8', timeout: 60_000 });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status, cwd };
}

const LINES = [
  'kubectl apply -f web.yaml',
  'kubectl scale deployment web --replicas=3',
  'kubectl expose deployment web --port=80',
  'kubectl get endpointslices',
];

async function grade(lab: string, files: string[], cwd: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runGrade([lab, ...files, '--json', 'cohort.json'], {
    cwd,
    out: (t) => out.push(t),
    err: (t) => err.push(t),
  });
  return { code, err: err.join(''), json: JSON.parse(readFileSync(join(cwd, 'cohort.json'), 'utf8')) };
}

describe('packetpath shell --lab', { timeout: 120_000 }, () => {
  it('lab check explains each failing check in the chosen language, and the lines are not journaled', () => {
    const r = cli(['shell', '--lab', '00-sandbox', '--locale', 'pt-BR'], 'lab check\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Verificações\n');
    expect(r.stdout).toMatch(/\[ \] .*`web`.*\n {4}\S/);
    expect(r.stdout).toContain('0 de 5 verificações passam (0%).');
    expect(r.stdout).not.toContain('[x]');
  });

  it('lab hint gives the hints in order, then says there are no more', () => {
    const loaded = loadLabFromDir(join(ROOT, 'labs/00-sandbox'));
    const n = loaded.lab.hints.length;
    const r = cli(['shell', '--lab', '00-sandbox'], 'lab hint\n'.repeat(n + 1));
    const hints = r.stdout.split('\n').filter((l) => l.startsWith('Hint '));
    expect(hints).toEqual(loaded.lab.hints.map((h, i) => `Hint ${i + 1} of ${n}: ${h.en.trim()}`));
    expect(r.stdout).toContain('That was the last hint. `lab solution` shows the full answer.');
  });

  it('lab solution asks first: no shows nothing, yes then no shows it without running it', () => {
    const declined = cli(['shell', '--lab', '00-sandbox'], 'lab solution\nn\nlab check\n');
    expect(declined.stdout).toContain('Show the solution?');
    expect(declined.stdout).not.toContain('kubectl expose deployment web');
    const shown = cli(['shell', '--lab', '00-sandbox'], 'lab solution\ny\nno\nlab check\n');
    expect(shown.stdout).toContain('  kubectl expose deployment web --port=80\n');
    expect(shown.stdout).toContain('The solution was not run.');
    expect(shown.stdout).toContain('0 of 5 checks pass (0%).');
    const run = cli(['shell', '--lab', '00-sandbox'], 'lab solution\ns\nsim\nlab check\n');
    expect(run.stdout).toContain('Every check passes. Well done!');
  });

  it('lab quiz shows the questions and answers them; the answer counts in lab check and in the report', async () => {
    const r = cli(
      ['shell', '--lab', '04-empty-endpoints', '--report', 'me.json'],
      'lab check\nlab quiz\nlab quiz quiz-refused nope\nlab quiz quiz-refused dns policy\nlab quiz 1 1\nlab check\n',
    );
    expect(r.code).toBe(0);
    // Unanswered, lab check says where the question is.
    expect(r.stdout).toContain('`lab quiz` shows the question; `lab quiz quiz-refused CHOICE` answers it.');
    expect(r.stdout).toContain('1. [quiz-refused] Before the fix, why did curl fail at once');
    expect(r.stdout).toContain('   ( ) 1. reject: For a Service with no endpoints');
    expect(r.stdout).toContain(
      'lab: quiz-refused: no choice "nope" (choices: reject, dns, pod-rst, policy)\n',
    );
    expect(r.stdout).toContain('lab: quiz-refused: pick one choice, not 2\n');
    expect(r.stdout).toContain('Answer to quiz-refused recorded: your answer is right\n');
    expect(r.stdout).toMatch(/\[x\] Why "refused" rather than a timeout\?: passes/);
    const report = JSON.parse(readFileSync(join(r.cwd, 'me.json'), 'utf8'));
    expect(report.submission.quizAnswers).toEqual({ 'quiz-refused': ['reject'] });
    const graded = await grade(join(ROOT, 'labs/04-empty-endpoints'), ['me.json'], r.cwd);
    const quiz = graded.json.reports[0].checks.find((c: { id: string }) => c.id === 'quiz-refused');
    expect(quiz.status).toBe('pass');
  });

  it('an unknown lab subcommand is one line, and the shell goes on', () => {
    const r = cli(['shell', '--lab', '00-sandbox'], 'lab frobnicate\necho still here\n');
    expect(r.stdout).toBe(
      'lab: unknown subcommand "frobnicate" (try lab steps, lab check, lab quiz, lab hint, lab solution)\nstill here\n',
    );
  });

  it('shows the steps on start at a terminal, in --locale', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let text = '';
    stdout.on('data', (d: Buffer) => (text += d.toString()));
    const done = main(['shell', '--lab', '00-sandbox', '--locale', 'pt-BR'], {
      cwd: tmpdir(),
      stdin,
      stdout,
      stderr: new PassThrough(),
      isTTY: true,
    });
    stdin.end();
    expect(await done).toBe(0);
    const loaded = loadLabFromDir(join(ROOT, 'labs/00-sandbox'));
    expect(text.startsWith(`Lab: ${loaded.lab.title['pt-BR']}\n`)).toBe(true);
    expect(text).toContain('\nPassos\n1. ');
    expect(text).toContain(`${loaded.lab.steps.length}. `);
  });

  it('--report writes the report the browser downloads; both re-grade the same', async () => {
    const r = cli(
      ['shell', '--lab', '00-sandbox', '--report', 'me.json', '--learner', 'Ana Souza', '--locale', 'pt-BR'],
      `lab steps\n${LINES.join('\n')}\nlab check\n`,
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('Relatório gravado em me.json.\n');
    const cliReport = JSON.parse(readFileSync(join(r.cwd, 'me.json'), 'utf8'));
    expect(cliReport.learner).toBe('Ana Souza');
    expect(cliReport.submission.journal).toEqual(LINES.map((run) => ({ run })));

    // The browser: the worker's session, the same lines typed, the Download button's request.
    const browser = new LabSession(loadLabFromDir(join(ROOT, 'labs/00-sandbox')));
    await browser.load({ kind: 'fresh' });
    for (const line of LINES) browser.exec(line);
    writeFileSync(
      join(r.cwd, 'browser.json'),
      JSON.stringify(browser.report('pt-BR', new Date().toISOString(), 'Ana Souza')),
    );

    const graded = await grade(join(ROOT, 'labs/00-sandbox'), ['me.json', 'browser.json'], r.cwd);
    // The same lines make the same journal: the grader notices (a copy, were they two learners).
    expect(graded.err).toBe('packetpath grade: browser.json: note: same journal as me.json\n');
    expect(graded.code).toBe(0);
    const [fromCli, fromBrowser] = graded.json.reports;
    expect(fromCli.status).toBe('ok');
    expect(fromCli.score).toEqual({ passed: 5, total: 5, percent: 100 });
    expect(fromCli.checks).toEqual(fromBrowser.checks);
    expect(fromCli.score).toEqual(fromBrowser.score);
  });

  it('records no seed for a variant picked by hand, and the capstone report still re-grades', async () => {
    const r = cli(
      ['shell', '--lab', '17-capstone', '--variant', 'selector', '--report', 'cap.json'],
      'lab check\n',
    );
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(join(r.cwd, 'cap.json'), 'utf8'));
    expect(report.lab.variant).toBe('selector');
    expect(report.lab.seed).toBeUndefined();
    const graded = await grade(join(ROOT, 'labs/17-capstone'), ['cap.json'], r.cwd);
    expect(graded.json.reports[0].status).toBe('ok');
    expect(graded.json.reports[0].score.percent).toBeLessThan(100);
  });

  it('refuses --report without --lab, and a bad --locale, with usage errors', () => {
    expect(cli(['shell', '--report', 'x.json'], '')).toMatchObject({
      stderr: "packetpath: --report needs --lab ID\nRun 'packetpath --help' for usage.\n",
      code: 2,
    });
    expect(cli(['shell', '--lab', '00-sandbox', '--locale', 'fr'], '')).toMatchObject({
      stderr: expect.stringContaining('invalid value "fr" for --locale: must be en or pt-BR'),
      code: 2,
    });
  });

  it('says why a report cannot be written, in one line', () => {
    const r = cli(['shell', '--lab', '00-sandbox', '--report', 'no/such/dir/r.json'], '');
    expect(r.stderr).toBe('packetpath: cannot write report no/such/dir/r.json: no such file or directory\n');
    expect(r.code).toBe(1);
  });
});

describe('packetpath help', () => {
  it('lists every command', () => {
    const r = cli(['help'], '');
    for (const command of ['shell', 'exec', 'grade', 'lab validate', 'help'])
      expect(r.stdout).toContain(`packetpath ${command}`);
    for (const sub of ['lab steps', 'lab check', 'lab hint', 'lab solution']) expect(r.stdout).toContain(sub);
  });
});
