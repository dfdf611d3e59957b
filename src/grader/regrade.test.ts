import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labContentHash } from './content-hash.ts';
import type { JournalStep } from './lab-runtime.ts';
import { createStarter, flagText, regradeReport } from './regrade.ts';
import { parseReport, ReportError, type GradeReport } from './report.ts';
import { LabSession } from './session.ts';
import { snapshotDigest } from './snapshot-digest.ts';
import { fakeEngine, labWith } from './test-helpers.ts';

const T = `title: { pt-BR: t, en: t }`;
const lab = labWith(
  `  - { id: svc, ${T}, type: resource, resource: svc, namespace: shop, name: api }
  - { id: file, ${T}, type: output, command: 'cat api.yaml', contains: 'kind: Service' }
  - { id: ran, ${T}, type: history, matches: '^mk svc' }
  - { id: gone, ${T}, type: resource, resource: cm, name: junk, exists: false, hidden: true }`,
);

function solvedReport(extra: JournalStep[] = []): GradeReport {
  const s = new LabSession(lab, fakeEngine);
  s.writeFile('api.yaml', 'kind: Service\n');
  s.exec('mk svc shop/api');
  for (const step of extra) {
    if ('run' in step) s.exec(step.run);
    else if ('write' in step) s.writeFile(step.write, step.content);
    else if ('remove' in step) s.removeFile(step.remove);
    else s.wait(step.wait);
  }
  return s.report({
    locale: 'pt-BR',
    learner: 'Alice',
    startedAt: '2026-03-01T10:00:00Z',
    submittedAt: '2026-03-01T10:30:00Z',
  });
}

/** A report as it travels: JSON text, parsed back. */
function roundTrip(r: GradeReport): GradeReport {
  return parseReport(JSON.stringify(r));
}

describe('grade reports', () => {
  it('records the lab, the learner, the score and the submission', () => {
    const r = solvedReport();
    expect(r).toMatchObject({
      format: 'packetpath-grade-report',
      version: 1,
      lab: { id: '99-test', version: 1, contentHash: labContentHash(lab) },
      locale: 'pt-BR',
      learner: 'Alice',
      score: { passed: 4, total: 4, percent: 100 },
    });
    expect(r.lab.contentHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(r.submission.journal).toEqual([
      { write: 'api.yaml', content: 'kind: Service\n' },
      { run: 'mk svc shop/api' },
    ]);
    expect(r.submission.files).toEqual({ 'api.yaml': 'kind: Service\n' });
    expect(r.results.find((x) => x.id === 'gone')).toMatchObject({ redacted: true, status: 'pass' });
  });

  it.each([
    { name: 'not JSON', text: '{nope', error: 'not a Packet Path grade report (not JSON)' },
    { name: 'another JSON file', text: '{"name":"package"}', error: 'not a Packet Path grade report' },
    {
      name: 'a future version',
      text: '{"format":"packetpath-grade-report","version":2}',
      error: /^unsupported report version 2/,
    },
    {
      name: 'a truncated report',
      text: '{"format":"packetpath-grade-report","version":1,"lab":{}}',
      error: /^malformed grade report: lab\.id/,
    },
  ])('rejects $name with one line', ({ text, error }) => {
    expect(() => parseReport(text)).toThrow(ReportError);
    try {
      parseReport(text);
    } catch (e) {
      expect((e as Error).message).toMatch(error);
      expect((e as Error).message).not.toContain('\n');
    }
  });
});

describe('regradeReport', () => {
  it('replays an honest report to the same result, with no flag', () => {
    const g = regradeReport(lab, roundTrip(solvedReport()), { engine: fakeEngine });
    expect(g.score).toEqual({ passed: 4, total: 4, percent: 100 });
    expect(g.flags).toEqual([]);
    expect(g.results.find((r) => r.id === 'gone')).toMatchObject({ redacted: false });
  });

  it('flags a hand-edited score and grades from the replay', () => {
    const r = roundTrip(solvedReport());
    r.submission.journal = [{ run: 'echo hi' }];
    const g = regradeReport(lab, r, { engine: fakeEngine });
    expect(g.score.percent).toBe(25);
    expect(g.flags.map(flagText)).toEqual([
      'recorded score 100% does not match recomputed 25%',
      'recorded results differ from the replay for svc, file, ran',
      'recorded files differ from the replay: api.yaml',
      'recorded cluster snapshot differs from the replayed state',
    ]);
  });

  it('flags edited results and an edited snapshot even when the score is left alone', () => {
    const r = roundTrip(solvedReport());
    r.results[0]!.status = 'fail';
    (r.submission.snapshot as { clock: number }).clock += 1;
    expect(regradeReport(lab, r, { engine: fakeEngine }).flags.map((f) => f.kind)).toEqual([
      'results',
      'snapshot',
    ]);
  });

  it("compares the recorded snapshot's digest with the replay when given one instead of the snapshot", () => {
    const r = roundTrip(solvedReport());
    const digest = snapshotDigest(r.submission.snapshot);
    const stripped = { ...r, submission: { ...r.submission, snapshot: {} } };
    expect(regradeReport(lab, stripped, { engine: fakeEngine, recordedSnapshot: digest }).flags).toEqual([]);
    const edited = structuredClone(r);
    (edited.submission.snapshot as { clock: number }).clock += 1;
    expect(
      regradeReport(lab, stripped, {
        engine: fakeEngine,
        recordedSnapshot: snapshotDigest(edited.submission.snapshot),
      }).flags.map((f) => f.kind),
    ).toEqual(['snapshot']);
  });

  it('flags a report that began from another start state, and does not compare its snapshot', () => {
    const r = roundTrip(solvedReport());
    expect(r.engine?.startState).toMatch(/^sha256:[0-9a-f]{64}$/);
    const ours = r.engine!.startState!;
    (r.submission.snapshot as { clock: number }).clock += 1;
    r.engine = { startState: `sha256:${'ab'.repeat(32)}` };
    const g = regradeReport(lab, r, { engine: fakeEngine });
    expect(g.flags).toEqual([{ kind: 'start-state', recorded: `sha256:${'ab'.repeat(32)}`, expected: ours }]);
    expect(flagText(g.flags[0]!)).toBe(
      `report began from start state sha256:abababababab…, but this lab starts from ${ours.slice(0, 19)}… (another simulator build or a modified copy of the lab): snapshot not compared`,
    );
    expect(g.score.percent).toBe(100);
    expect(g.notes).toEqual([]);
  });

  it('notes a report that does not record its start state, and still compares its snapshot', () => {
    const r = roundTrip(solvedReport());
    delete r.engine;
    expect(regradeReport(lab, r, { engine: fakeEngine })).toMatchObject({
      flags: [],
      notes: ['report does not record the start state it began from'],
    });
    (r.submission.snapshot as { clock: number }).clock += 1;
    expect(regradeReport(lab, r, { engine: fakeEngine }).flags.map((f) => f.kind)).toEqual(['snapshot']);
  });

  it('refuses a report for another version or other content of the lab', () => {
    const r = roundTrip(solvedReport());
    expect(() =>
      regradeReport(labWith('  - { id: x, title: { pt-BR: t, en: t }, type: history, matches: x }'), r, {
        engine: fakeEngine,
      }),
    ).toThrow('content hash mismatch');
    const v3 = { ...lab, lab: { ...lab.lab, version: 3 } };
    expect(() => regradeReport(v3, { ...r, lab: { ...r.lab, version: 2 } }, { engine: fakeEngine })).toThrow(
      'lab version 2 does not match 3',
    );
    expect(() =>
      regradeReport(lab, { ...r, lab: { ...r.lab, id: '01-other' } }, { engine: fakeEngine }),
    ).toThrow('report is for lab 01-other, not 99-test');
  });

  it('uses snapshot restores for start states once they prove equivalent', () => {
    const starter = createStarter(lab, fakeEngine);
    expect(starter.restores).toBe(true);
    const g = regradeReport(lab, roundTrip(solvedReport()), { engine: fakeEngine, start: starter.start });
    expect(g.flags).toEqual([]);
  });

  // Property: whatever the learner does, their own report re-grades to the same score with no flag.
  const step: fc.Arbitrary<JournalStep> = fc.oneof(
    fc
      .constantFrom(
        'mk cm default/junk',
        'mk svc shop/api',
        'rm svc shop/api',
        'echo hi',
        'cat api.yaml',
        'exit 3',
        'bogus',
      )
      .map((run) => ({ run })),
    fc.record({
      write: fc.constantFrom('api.yaml', 'notes/x.txt'),
      content: fc.constantFrom('kind: Service\n', '', 'x'),
    }),
    fc.record({ remove: fc.constantFrom('api.yaml', 'nope') }),
    fc.integer({ min: 0, max: 60_000 }).map((wait) => ({ wait })),
  );
  it('re-grades any honest journal without flags (property)', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), (steps) => {
        let report: GradeReport;
        try {
          report = roundTrip(solvedReport(steps));
        } catch {
          return; // e.g. `rm` of an absent object throws in the toy shell; the real one never throws
        }
        const g = regradeReport(lab, report, { engine: fakeEngine });
        expect(g.flags).toEqual([]);
        expect(g.score).toEqual(report.score);
      }),
      { numRuns: 60 },
    );
  });

  it('catches any edit of the recorded score (property)', () => {
    const honest = solvedReport();
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100 }).filter((p) => p !== honest.score.percent),
        (percent) => {
          const r = roundTrip(honest);
          r.score.percent = percent;
          expect(regradeReport(lab, r, { engine: fakeEngine }).flags.map((f) => f.kind)).toContain('score');
        },
      ),
      { numRuns: 20 },
    );
  });
});
