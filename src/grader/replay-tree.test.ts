import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyStep, type JournalStep } from './lab-runtime.ts';
import { compareJournals, ReplayTree, stepKeys } from './replay-tree.ts';
import { fakeEngine } from './test-helpers.ts';

const start = () => fakeEngine.createCluster(undefined, { seed: 7, files: { 'a.txt': 'a' } });

function fullReplay(journal: readonly JournalStep[]): string {
  const c = start();
  for (const s of journal) applyStep(c, s);
  return JSON.stringify(c.snapshot());
}

const step: fc.Arbitrary<JournalStep> = fc.oneof(
  fc.constantFrom('echo a', 'echo b', 'cat a.txt', 'exit 2').map((run) => ({ run })),
  fc.record({ write: fc.constantFrom('a.txt', 'b.txt'), content: fc.constantFrom('1', '2') }),
  fc.constantFrom(1000, 5000).map((wait) => ({ wait })),
);

describe('ReplayTree', () => {
  it('replays shared prefixes once and gives every journal its own end state', () => {
    const common: JournalStep[] = [{ run: 'echo a' }, { write: 'b.txt', content: '1' }, { run: 'echo b' }];
    const journals = [
      [...common, { run: 'cat a.txt' }],
      [...common, { run: 'exit 2' }],
      [...common, { wait: 1000 }, { run: 'echo a' }],
      [{ run: 'echo b' }],
    ];
    const tree = new ReplayTree(fakeEngine, start);
    for (const j of journals) tree.add(j);
    const order = journals.map((j) => stepKeys(j)).sort(compareJournals);
    expect(order.length).toBe(4);
    for (const j of journals) expect(JSON.stringify(tree.replay(j).snapshot())).toBe(fullReplay(j));
    expect(tree.stats).toEqual({ replayed: 3 + 1 + 1 + 2 + 1, skipped: 3 + 3, snapshots: 1 });
  });

  it('matches a full replay for any cohort (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(step, { maxLength: 6 }), { minLength: 1, maxLength: 8 }), (journals) => {
        const tree = new ReplayTree(fakeEngine, start);
        for (const j of journals) tree.add(j);
        const sorted = [...journals].sort((a, b) => compareJournals(stepKeys(a), stepKeys(b)));
        for (const j of sorted) expect(JSON.stringify(tree.replay(j).snapshot())).toBe(fullReplay(j));
      }),
      { numRuns: 60 },
    );
  });
});
