// The learner's name, from the lab's "Your name" field to the instructor's cohort table: the UI sends it
// with the `report` request, the host records it as the report's `learner`, and `packetpath grade`
// shows it in the LEARNER column (and CSV/JSON). A blank or absent name leaves `learner` out.
import * as nodeFs from 'node:fs';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseReport, type GradeReport } from '../grader/index.ts';
import { workerHarness } from './test-host.ts';
import { loadBundledLabSource } from './labs.ts';
import { main as webContainerProgram, STATE_DIR } from './webcontainer/program.ts';
import { runGrade } from './node-cli/grade.ts';
import { LEARNER_NAME_MAX, learnerName } from './protocol.ts';

const LABS = join(import.meta.dirname, '../../labs');
const dir = mkdtempSync(join(tmpdir(), 'pp-report-learner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const harness = workerHarness;

async function sandboxReport(learner?: string, lines = ['kubectl apply -f web.yaml']): Promise<GradeReport> {
  const h = harness();
  await h.request('load', { labId: '00-sandbox', start: { kind: 'fresh' }, seed: 1 });
  for (const line of lines) await h.request('exec', { line });
  const params = { locale: 'pt-BR' as const, submittedAt: '2026-11-29T12:00:00Z' };
  // What Download report writes: the host's answer, as JSON.
  const text = JSON.stringify(
    await h.request('report', learner === undefined ? params : { ...params, learner }),
    null,
    2,
  );
  return parseReport(text);
}

describe('learnerName', () => {
  it('trims, folds whitespace runs to one space, and treats blank or non-strings as no name', () => {
    expect(learnerName('  Ana  Souza ')).toBe('Ana Souza');
    expect(learnerName('Ana\tde\nSouza')).toBe('Ana de Souza');
    expect(learnerName('   ')).toBeUndefined();
    expect(learnerName('')).toBeUndefined();
    expect(learnerName(undefined)).toBeUndefined();
    expect(learnerName(42)).toBeUndefined();
  });

  it("cuts a name to the report's limit without splitting a surrogate pair", () => {
    expect(learnerName('a'.repeat(250))).toBe('a'.repeat(LEARNER_NAME_MAX));
    // 199 letters then an emoji (2 UTF-16 units): the emoji does not fit and is dropped whole.
    const cut = learnerName(`${'b'.repeat(199)}😀tail`);
    expect(cut).toBe('b'.repeat(199));
    expect(learnerName('ç'.repeat(10))).toBe('ç'.repeat(10));
  });
});

describe('the learner name in reports made by the lab host', { timeout: 120_000 }, () => {
  it('records the name sent with the report request, trimmed', async () => {
    const report = await sandboxReport('  Ana Souza ');
    expect(report.learner).toBe('Ana Souza');
    expect(report.locale).toBe('pt-BR');
  });

  it('leaves learner out when no name or a blank one is sent', async () => {
    expect('learner' in (await sandboxReport())).toBe(false);
    expect('learner' in (await sandboxReport('  \t '))).toBe(false);
  });

  it('keeps an over-long name within the report schema, so the report still parses', async () => {
    const report = await sandboxReport('x'.repeat(500));
    expect(report.learner).toBe('x'.repeat(LEARNER_NAME_MAX));
  });

  it('shows the name in packetpath grade’s cohort table, CSV and JSON', async () => {
    const reports = join(dir, 'reports');
    mkdirSync(reports);
    writeFileSync(join(reports, 'ana.json'), JSON.stringify(await sandboxReport('Ana Souza'), null, 2));
    // Another journal, so the CLI has no "same journal as" note to print.
    const anon = await sandboxReport(undefined, ['kubectl apply -f web.yaml', 'kubectl get pods']);
    writeFileSync(join(reports, 'anon.json'), JSON.stringify(anon, null, 2));
    const out: string[] = [];
    const err: string[] = [];
    const code = await runGrade(
      ['00-sandbox', 'reports', '--labs', LABS, '--jobs', '1', '--csv', 'g.csv', '--json', 'g.json'],
      { cwd: dir, out: (t) => out.push(t), err: (t) => err.push(t) },
    );
    expect(err.join('')).toBe('');
    expect(code).toBe(0);
    const table = out.join('').split('\n');
    expect(table[0]).toMatch(/^REPORT\s+LEARNER\s+SCORE\s+PASSED\s+FAILED CHECKS\s+STATUS$/);
    expect(table.find((l) => l.startsWith('reports/ana.json'))).toMatch(
      /^reports\/ana\.json\s+Ana Souza\s+20%\s+1\/5\s/,
    );
    expect(table.find((l) => l.startsWith('reports/anon.json'))).toMatch(/^reports\/anon\.json\s+-\s+20%\s/);
    const csv = readFileSync(join(dir, 'g.csv'), 'utf8').split('\n');
    expect(csv.find((l) => l.startsWith('reports/ana.json'))).toMatch(/^reports\/ana\.json,Ana Souza,/);
    const json = JSON.parse(readFileSync(join(dir, 'g.json'), 'utf8')) as {
      reports: { file: string; learner: string | null }[];
    };
    expect(json.reports.map((r) => [r.file, r.learner])).toEqual([
      ['reports/ana.json', 'Ana Souza'],
      ['reports/anon.json', null],
    ]);
  });
});

describe('the learner name through the WebContainer host', { timeout: 120_000 }, () => {
  it('`packetpath host` answers a report request with the name as learner', async () => {
    // The tree the WebContainer mounts: the start files and the lab bundle in .packetpath/.
    const root = join(dir, 'wc');
    mkdirSync(join(root, STATE_DIR), { recursive: true });
    const source = await loadBundledLabSource('00-sandbox');
    writeFileSync(join(root, STATE_DIR, 'lab.json'), JSON.stringify(source));
    for (const [path, content] of Object.entries(source.start)) writeFileSync(join(root, path), content);
    const out: string[] = [];
    const request = {
      type: 'report',
      params: { locale: 'en', submittedAt: '2026-11-29T12:00:00Z', learner: ' Bruno  Lima ' },
    };
    const code = await webContainerProgram({
      tool: 'packetpath',
      argv: ['host', JSON.stringify(request)],
      fs: nodeFs,
      root,
      stdout: (t) => out.push(t),
      stderr: (t) => out.push(t),
      now: () => '2026-11-29T11:00:00Z',
    });
    expect(code).toBe(0);
    const answer = JSON.parse(out.join('')) as { ok: boolean; value: unknown };
    expect(answer.ok).toBe(true);
    expect(parseReport(JSON.stringify(answer.value)).learner).toBe('Bruno Lima');
  });
});
