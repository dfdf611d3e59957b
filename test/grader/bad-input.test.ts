// Hostile and broken input to `packetpath grade`: zips as an LMS exports them and zips made to hurt
// (a bomb, names that climb out, junk), reports of another lab version; and the instructor page's
// grader (formats/grade-texts.ts) against the CLI's on the same reports.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, openSession } from '../../src/grader/index.ts';
import { gradeReportTexts } from '../../src/grader/formats/grade-texts.ts';
import { reportsFromZip } from '../../src/grader/formats/zip-reports.ts';
import { loadLabFromDir } from '../../src/grader/node/load-lab.ts';
import { runGrade } from '../../src/runtime/node-cli/grade.ts';

const LAB = join(import.meta.dirname, '../../labs/00-sandbox');
let dir: string;
let good: string;
let old: string;

async function grade(...argv: string[]) {
  const err: string[] = [];
  const out: string[] = [];
  const code = await runGrade([LAB, ...argv], { cwd: dir, out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, err: err.join(''), out: out.join('') };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'packetpath-bad-'));
  const s = openSession(loadLabFromDir(LAB));
  s.exec('kubectl apply -f web.yaml');
  const report = s.report({
    locale: 'en',
    learner: 'Ana',
    startedAt: '2026-03-01T10:00:00Z',
    submittedAt: '2026-03-01T10:10:00Z',
  });
  good = JSON.stringify(report);
  old = JSON.stringify({ ...report, lab: { ...report.lab, version: 0 } });
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('zips of reports', { timeout: 120_000 }, () => {
  it('grades the *.json entries of an LMS download, named archive:entry, and skips the rest', async () => {
    writeFileSync(
      join(dir, 'subs.zip'),
      zipSync({
        'ana/report.json': strToU8(good),
        'ana/notes.txt': strToU8('not a report'),
        '__MACOSX/ana/._report.json': strToU8('resource fork'),
        'old.json': strToU8(old),
      }),
    );
    const r = await grade('subs.zip', '--csv', 'out.csv');
    expect(r.err).toBe(
      `packetpath grade: subs.zip:old.json: lab version 0 does not match ${loadLabFromDir(LAB).lab.version}\n`,
    );
    expect(r.out).toMatch(/^subs\.zip:ana\/report\.json +Ana +20% /m);
    expect(r.code).toBe(1);
  });

  it('stops a zip bomb at the size of a report, whatever the header says', async () => {
    const bomb = zipSync({ 'bomb.json': new Uint8Array(60 * 1024 * 1024) }, { level: 9 });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    writeFileSync(join(dir, 'bomb.zip'), bomb);
    writeFileSync(join(dir, 'a.json'), good);
    const r = await grade('bomb.zip', 'a.json');
    expect(r.err).toBe('packetpath grade: bomb.zip: bomb.json: larger than 50 MB uncompressed: not read\n');
    expect(r.code).toBe(1);
    // The declared size lies too: patch the local header's uncompressed size to 10 bytes.
    const lying = zipSync({ 'bomb.json': new Uint8Array(60 * 1024 * 1024) }, { level: 9 });
    new DataView(lying.buffer).setUint32(22, 10, true);
    expect(reportsFromZip(lying, 'lying.zip').problems[0]).toMatch(/^lying\.zip: bomb\.json: /);
  });

  it('never writes under an entry name: ../ and absolute paths stay labels', async () => {
    writeFileSync(
      join(dir, 'climb.zip'),
      zipSync({ '../../evil.json': strToU8(good), '/abs/evil.json': strToU8(good) }),
    );
    const r = await grade('climb.zip');
    expect(r.out).toContain('climb.zip:../../evil.json');
    expect(r.out).toContain('climb.zip:/abs/evil.json');
    expect(existsSync(join(dir, '..', '..', 'evil.json'))).toBe(false);
    expect(existsSync(join(dir, '..', 'evil.json'))).toBe(false);
    expect(existsSync('/abs/evil.json')).toBe(false);
  });

  it('says in one line when a .zip is not one, or is cut short', async () => {
    writeFileSync(join(dir, 'fake.zip'), 'hello');
    expect(await grade('fake.zip')).toMatchObject({
      code: 2,
      err: 'packetpath grade: fake.zip: not a zip archive\npacketpath grade: no report files found\n',
    });
    const whole = zipSync({ 'a.json': strToU8(good) });
    writeFileSync(join(dir, 'cut.zip'), whole.slice(0, Math.floor(whole.length / 2)));
    const cut = await grade('cut.zip');
    expect(cut.err.split('\n')[0]).toMatch(/^packetpath grade: cut\.zip: /);
    expect(cut.code).toBe(2);
  });
});

describe('the instructor page grader', { timeout: 120_000 }, () => {
  it('gives the CLI verdicts for the same reports', async () => {
    const loaded = loadLabFromDir(LAB);
    const texts = [
      { name: 'a.json', text: good },
      { name: 'old.json', text: old },
      { name: 'junk.json', text: '{' },
    ];
    const page = gradeReportTexts(loaded, texts, engine);
    for (const t of texts) writeFileSync(join(dir, t.name), t.text);
    await grade('a.json', 'old.json', 'junk.json', '--json', 'cli.json');
    const cli = JSON.parse(readFileSync(join(dir, 'cli.json'), 'utf8')).reports;
    expect(page.map((e) => [e.file, e.status, e.score, e.problems])).toEqual(
      cli.map((r: { file: string; status: string; score: unknown; problems: string[] }) => [
        r.file,
        r.status,
        r.score ?? undefined,
        r.problems,
      ]),
    );
    expect(page[0]!.results.map((r) => [r.id, r.status])).toEqual(
      cli[0].checks.map((c: { id: string; status: string }) => [c.id, c.status]),
    );
  });
});
