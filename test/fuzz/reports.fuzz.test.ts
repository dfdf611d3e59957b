/**
 * Fuzz: honest grade reports (a solved sandbox lab, a solved default-deny lab), mutated field by
 * field and as text, through what `packetpath grade` does: parse, check the lab, replay, compare. A
 * report is rejected with one ReportError line or graded; no other exception; and an edit of the
 * recorded score, files or snapshot that changes them is flagged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createStarter,
  engine,
  openSession,
  parseReport,
  regradeReport,
  ReplayCache,
  ReportError,
  type GradeReport,
  type LoadedLab,
} from '../../src/grader/index.ts';
import { jsonEqual } from '../../src/engine/util/json.ts';
import { labs } from './corpus.ts';
import { params } from './harness.ts';
import { applyText, applyTree, textMutation, treeMutation } from './mutate.ts';
import { expectOneLineError } from './oracle.ts';

interface Honest {
  readonly loaded: LoadedLab;
  readonly report: GradeReport;
  readonly starter: ReturnType<typeof createStarter>;
  readonly cache: ReplayCache;
}

function honest(id: string): Honest {
  const loaded = labs().find((l) => l.id === id)!.loaded;
  const s = openSession(loaded);
  s.solve();
  const report = s.report({
    locale: 'en',
    learner: 'Ana',
    startedAt: '2026-11-29T10:00:00Z',
    submittedAt: '2026-11-29T10:30:00Z',
  });
  return { loaded, report, starter: createStarter(loaded, engine), cache: new ReplayCache() };
}

const SECTIONS = [
  'score',
  'results',
  'submission.files',
  'submission.snapshot',
  'submission.journal',
  'submission.quizAnswers',
  'lab',
  'engine',
  '',
] as const;

function section(root: Record<string, unknown>, path: string): unknown {
  return path === ''
    ? root
    : path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[k], root);
}

describe('fuzz: grade reports', { timeout: 600_000 }, () => {
  const cases = [honest('00-sandbox'), honest('09-default-deny')];

  it('mutated reports are rejected with one line or re-graded; edited evidence is flagged', () => {
    const mutation = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({
          kind: fc.constant('tree' as const),
          section: fc.constantFrom(...SECTIONS),
          ms: fc.array(treeMutation, { minLength: 1, maxLength: 3 }),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant('text' as const),
          ms: fc.array(textMutation, { minLength: 1, maxLength: 3 }),
        }),
      },
    );
    fc.assert(
      fc.property(fc.nat({ max: cases.length - 1 }), mutation, (i, m) => {
        const h = cases[i]!;
        const honestText = JSON.stringify(h.report);
        let text: string;
        if (m.kind === 'text') text = applyText(honestText, m.ms);
        else {
          const copy = JSON.parse(honestText) as Record<string, unknown>;
          const target = section(copy, m.section);
          for (const tm of m.ms) applyTree(target, tm);
          text = JSON.stringify(copy);
        }
        let report: GradeReport;
        try {
          report = parseReport(text);
        } catch (e) {
          expect(e).toBeInstanceOf(ReportError);
          expectOneLineError((e as Error).message);
          expect((e as Error).message).not.toContain('\n');
          return;
        }
        try {
          const g = regradeReport(h.loaded, report, {
            engine,
            start: h.starter.start,
            startState: h.starter.startState,
            cache: h.cache,
          });
          const edited = (k: 'score' | 'files' | 'snapshot'): boolean =>
            k === 'score'
              ? !jsonEqual(report.score, h.report.score)
              : !jsonEqual(report.submission[k], h.report.submission[k]);
          const sameJournal = jsonEqual(report.submission.journal, h.report.submission.journal);
          if (sameJournal && (edited('score') || edited('files') || edited('snapshot')))
            expect(g.flags.length, 'an edited report passed unflagged').toBeGreaterThan(0);
        } catch (e) {
          expect(e).toBeInstanceOf(ReportError);
          expectOneLineError((e as Error).message);
        }
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      params('reports-regrade', 100),
    );
  });
});
