// The instructor CLI on the real engine: `packetpath grade` re-grades a cohort of reports by replay and
// `packetpath lab validate` judges lab folders. Reports are made here the way the lab UI makes them.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, type GradeReport } from '../../src/grader/index.ts';
import { canonicalJson } from '../../src/grader/content-hash.ts';
import type { AnyObject as Pod } from '../../src/engine/index.ts';
import { loadLabFromDir } from '../../src/grader/node/load-lab.ts';
import { runGrade } from '../../src/runtime/node-cli/grade.ts';
import { runLab } from '../../src/runtime/node-cli/lab.ts';

const LABS = join(import.meta.dirname, '../../labs');
let dir: string;

function capture(cwd: string): {
  io: { cwd: string; out(t: string): void; err(t: string): void };
  out: string[];
  err: string[];
} {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { cwd, out: (t) => out.push(t), err: (t) => err.push(t) }, out, err };
}

const meta = (learner: string) => ({
  locale: 'pt-BR' as const,
  learner,
  startedAt: '2026-03-01T10:00:00Z',
  submittedAt: '2026-03-01T10:40:00Z',
});

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'packetpath-grade-'));
  mkdirSync(join(dir, 'reports'));
  const loaded = loadLabFromDir(join(LABS, '00-sandbox'));
  const write = (name: string, r: GradeReport | string) =>
    writeFileSync(join(dir, 'reports', name), typeof r === 'string' ? r : JSON.stringify(r, null, 2));

  const alice = openSession(loaded);
  alice.exec('kubectl apply -f web.yaml');
  alice.exec('kubectl scale deployment web --replicas=3');
  alice.exec('kubectl expose deployment web --port=80');
  alice.exec('kubectl get endpointslices');
  write('alice.json', alice.report(meta('Alice')));

  const bob = openSession(loaded);
  bob.exec('kubectl apply -f web.yaml');
  const bobReport = bob.report(meta('Bob'));
  write('bob.json', { ...bobReport, score: { passed: 5, total: 5, percent: 100 } });
  write('bob-results.json', {
    ...bobReport,
    results: bobReport.results.map((r) => ({ ...r, status: 'pass' as const })),
  });
  write('carol.json', {
    ...bobReport,
    submission: { ...bobReport.submission, files: { 'web.yaml': 'edited by hand' } },
  });
  write('dave.json', { ...bobReport, lab: { ...bobReport.lab, contentHash: 'sha256:0000' } });
  write('erin.json', { ...bobReport, lab: { ...bobReport.lab, version: 99 } });
  write('frank.json', '{"name": "not a report"}');
  write('gina.json', 'not even JSON');
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('packetpath grade', { timeout: 120_000 }, () => {
  it('grades the cohort, names each bad report on one line, and exits 1', async () => {
    const { io, out, err } = capture(dir);
    const code = await runGrade(
      ['00-sandbox', 'reports', '--labs', LABS, '--csv', 'grades.csv', '--json', 'grades.json'],
      io,
    );
    expect(code).toBe(1);
    expect(err.join('')).toBe(
      [
        'packetpath grade: reports/bob-results.json: recorded results differ from the replay for three-replicas, service-exists, three-endpoints, looked-at-slices',
        'packetpath grade: reports/bob.json: recorded score 100% does not match recomputed 20%',
        'packetpath grade: reports/bob.json: note: same journal as reports/bob-results.json',
        'packetpath grade: reports/carol.json: recorded files differ from the replay: web.yaml',
        'packetpath grade: reports/carol.json: note: same journal as reports/bob-results.json',
        'packetpath grade: reports/dave.json: content hash mismatch',
        'packetpath grade: reports/erin.json: lab version 99 does not match 2',
        'packetpath grade: reports/frank.json: not a Packet Path grade report',
        'packetpath grade: reports/gina.json: not a Packet Path grade report (not JSON)',
        '',
      ].join('\n'),
    );
    const table = out.join('');
    expect(table).toMatch(/^REPORT\s+LEARNER\s+SCORE\s+PASSED\s+FAILED CHECKS\s+STATUS$/m);
    expect(table).toMatch(/^reports\/alice\.json\s+Alice\s+100%\s+5\/5\s+-\s+ok$/m);
    expect(table).toMatch(/^reports\/bob\.json\s+Bob\s+20%\s+1\/5\s+\S+\s+flagged: recorded score 100%/m);
    expect(table).toContain('8 reports: 1 ok, 3 flagged, 4 invalid; mean score 40%');

    const csv = readFileSync(join(dir, 'grades.csv'), 'utf8').split('\r\n');
    expect(csv[0]).toBe(
      'file,learner,submitted_at,status,score_percent,passed,total,recorded_percent,deployment-exists,three-replicas,service-exists,three-endpoints,looked-at-slices,problems',
    );
    expect(csv[1]).toBe(
      'reports/alice.json,Alice,2026-03-01T10:40:00Z,ok,100,5,5,100,pass,pass,pass,pass,pass,',
    );
    const json = JSON.parse(readFileSync(join(dir, 'grades.json'), 'utf8')) as {
      reports: { file: string; checks: { id: string; observed: string }[] }[];
    };
    const bob = json.reports.find((r) => r.file === 'reports/bob.json')!;
    expect(bob.checks.find((c) => c.id === 'service-exists')!.observed).toBe(
      'Service default/web does not exist',
    );
  });

  it('exits 0 when every report is valid', async () => {
    const { io, err } = capture(dir);
    expect(await runGrade([join(LABS, '00-sandbox'), 'reports/alice.json'], io)).toBe(0);
    expect(err).toEqual([]);
  });

  it('grades large cohorts in worker threads with the same results', async () => {
    const big = join(dir, 'big');
    mkdirSync(big);
    const alice = readFileSync(join(dir, 'reports', 'alice.json'), 'utf8');
    const bob = readFileSync(join(dir, 'reports', 'bob.json'), 'utf8');
    for (let i = 0; i < 80; i++)
      writeFileSync(join(big, `r${String(i).padStart(2, '0')}.json`), i % 10 === 3 ? bob : alice);
    const { io, out, err } = capture(dir);
    expect(await runGrade(['00-sandbox', 'big', '--labs', LABS, '--jobs', '2'], io)).toBe(1);
    expect(out.join('')).toContain('80 reports: 72 ok, 8 flagged, 0 invalid; mean score 92%');
    expect(err.filter((l) => l.includes('recorded score 100% does not match recomputed 20%')).length).toBe(8);
  });

  // Recorded snapshots are compared by digest (sha256 of their JSON text) and, when that differs, once
  // more structurally: an edit is caught, a mere reordering of keys (a pretty-printer's) is not a flag.
  it('flags an edited snapshot, and not one whose keys were only reordered', async () => {
    const snaps = join(dir, 'snapshots');
    mkdirSync(snaps);
    const alice = JSON.parse(readFileSync(join(dir, 'reports', 'alice.json'), 'utf8')) as GradeReport;
    const edited = structuredClone(alice);
    const pod = edited.submission.snapshot as { store: { objects: { resource: string; object: Pod }[] } };
    const web = pod.store.objects.find(
      (o) => o.resource === 'pods' && o.object.metadata.name.startsWith('web-'),
    )!;
    web.object.metadata.labels = { ...web.object.metadata.labels, app: 'not-web' };
    writeFileSync(join(snaps, 'edited.json'), JSON.stringify(edited));
    writeFileSync(join(snaps, 'reordered.json'), canonicalJson(alice));
    writeFileSync(join(snaps, 'same.json'), JSON.stringify(alice));
    const { io, out, err } = capture(dir);
    expect(await runGrade(['00-sandbox', 'snapshots', '--labs', LABS], io)).toBe(1);
    expect(err.join('')).toBe(
      [
        'packetpath grade: snapshots/edited.json: recorded cluster snapshot differs from the replayed state',
        'packetpath grade: snapshots/reordered.json: note: same journal as snapshots/edited.json',
        'packetpath grade: snapshots/same.json: note: same journal as snapshots/edited.json',
        '',
      ].join('\n'),
    );
    expect(out.join('')).toContain('3 reports: 2 ok, 1 flagged, 0 invalid; mean score 100%');
  });

  it('names a report made from another start state on its own line, and still grades it', async () => {
    const starts = join(dir, 'starts');
    mkdirSync(starts);
    const alice = JSON.parse(readFileSync(join(dir, 'reports', 'alice.json'), 'utf8')) as GradeReport;
    const ours = alice.engine!.startState!;
    expect(ours).toMatch(/^sha256:[0-9a-f]{64}$/);
    const other = { ...alice, engine: { startState: `sha256:${'5'.repeat(64)}` } };
    writeFileSync(join(starts, 'other-start.json'), JSON.stringify(other));
    const { engine: _none, ...unrecorded } = alice;
    writeFileSync(join(starts, 'unrecorded.json'), JSON.stringify(unrecorded));
    const { io, out, err } = capture(dir);
    expect(await runGrade(['00-sandbox', 'starts', '--labs', LABS], io)).toBe(1);
    expect(err.join('')).toBe(
      [
        `packetpath grade: starts/other-start.json: report began from start state sha256:555555555555…, but this lab starts from ${ours.slice(0, 19)}… (another simulator build or a modified copy of the lab): snapshot not compared`,
        'packetpath grade: starts/unrecorded.json: note: report does not record the start state it began from',
        'packetpath grade: starts/unrecorded.json: note: same journal as starts/other-start.json',
        '',
      ].join('\n'),
    );
    expect(out.join('')).toMatch(
      /^starts\/other-start\.json\s+Alice\s+100%\s+5\/5\s+-\s+flagged: report began/m,
    );
  });

  it('rejects bad usage with exit 2', async () => {
    const { io, err } = capture(dir);
    expect(await runGrade(['00-sandbox'], io)).toBe(2);
    expect(err[0]).toBe('packetpath grade: give a lab and at least one report or folder\n');
    expect(await runGrade(['no-such-lab', 'reports', '--labs', LABS], capture(dir).io)).toBe(2);
  });
});

describe('packetpath lab validate', { timeout: 120_000 }, () => {
  function labFolder(id: string, mutate: (yaml: string) => string): string {
    const root = join(dir, 'labs');
    cpSync(join(LABS, '00-sandbox'), join(root, id), { recursive: true });
    const p = join(root, id, 'lab.yaml');
    writeFileSync(p, mutate(readFileSync(p, 'utf8').replace('id: 00-sandbox', `id: ${id}`)));
    return root;
  }

  it('passes the shipped labs', () => {
    const { io, out } = capture(dir);
    expect(runLab(['validate', '--labs', LABS], io)).toBe(0);
    expect(out.join('')).toContain('ok      00-sandbox');
  });

  it('fails a lab whose solution does not pass, or whose start already passes', () => {
    const root = labFolder('01-unsolved', (y) => y.replace('minReady: 3', 'minReady: 4'));
    labFolder('02-presolved', (y) =>
      y.replace(
        /checks:[\s\S]*?hints:/,
        'checks:\n  - { id: h, title: { pt-BR: h, en: h }, type: resource, resource: ns, name: default }\nhints:',
      ),
    );
    labFolder('03-broken', (y) => y.replace('type: looked', 'type: vibes'));
    const { io, out, err } = capture(dir);
    expect(runLab(['validate', '--labs', root, '01-unsolved', '02-presolved', '03-broken'], io)).toBe(1);
    const e = err.join('');
    expect(e).toContain(
      '01-unsolved: solution: check "three-endpoints" fails: Service default/web has at least 4 ready endpoints — observed: it has 3: ',
    );
    expect(e).toContain('02-presolved: start: every check already passes before the learner does anything');
    expect(e).toMatch(/03-broken: lab\.yaml: checks\[4\]\.type: /);
    expect(out.join('')).toContain('0 of 3 labs valid');
  });
});
