import { describe, expect, it } from 'vitest';
import { ChecksPanel, summaryText, type ChecksView } from './checks-panel.ts';
import { fmt } from './lab-ui.ts';
import { workerHarness } from '../../runtime/test-host.ts';
import type { CheckSummary, LabInfo } from '../../runtime/protocol.ts';

const STRINGS: Record<string, string> = {
  'lab.checkSummary': '{passed} of {total} checks pass ({percent}%).',
  'lab.checkAllPassed': 'Every check passes.',
  'lab.hintN': 'Hint {n} of {total}',
  'lab.noMoreHints': 'No more hints.',
};
const t = (key: string, params?: Record<string, string | number>) => fmt(STRINGS[key] ?? key, params);

class RecordingView implements ChecksView {
  summaries: CheckSummary[] = [];
  hintsShown: number[] = [];
  said: string[] = [];
  checks(s: CheckSummary) {
    this.summaries.push(s);
  }
  hints(_h: LabInfo['hints'], shown: number) {
    this.hintsShown.push(shown);
  }
  say(text: string) {
    this.said.push(text);
  }
}

async function panel() {
  const h = workerHarness();
  const loaded = await h.request('load', { labId: '01-pod-to-pod', seed: 1, start: { kind: 'fresh' } });
  const view = new RecordingView();
  const verdicts: boolean[] = [];
  let hints = 0;
  let flushed = 0;
  const p = new ChecksPanel(
    h,
    'en',
    t,
    view,
    async () => {
      flushed++;
    },
    (changed) => verdicts.push(changed),
    () => hints++,
  );
  p.load(loaded.lab, 0);
  return { h, p, view, verdicts, lab: loaded.lab, hints: () => hints, flushed: () => flushed };
}

describe('ChecksPanel', () => {
  it('runs the checks after flushing edits, shows them, and says when verdicts change', async () => {
    const { h, p, view, verdicts, flushed } = await panel();
    await p.run(true);
    expect(flushed()).toBe(1);
    const first = p.summary!;
    expect(first.total).toBeGreaterThan(0);
    expect(first.passed).toBeLessThan(first.total);
    expect(view.said).toEqual([summaryText(t, first)]);
    await p.run(false);
    expect(verdicts).toEqual([true, false]);
    // Solving the lab changes the verdicts again, and the announcement says so.
    const solution = (await h.request('load', { labId: '01-pod-to-pod', seed: 1, start: { kind: 'fresh' } }))
      .lab.solution;
    for (const [path, content] of Object.entries(solution.files))
      await h.request('writeFile', { path, content });
    for (const line of solution.commands) await h.request('exec', { line });
    await p.run(true);
    expect(verdicts).toEqual([true, false, true]);
    const solved = p.summary!;
    expect(solved.passed).toBeGreaterThan(first.passed);
    expect(view.said.at(-1)).toBe(
      solved.passed === solved.total ? 'Every check passes.' : summaryText(t, solved),
    );
    expect(view.summaries.at(-1)).toEqual(solved);
  });

  it('gives hints one at a time, then says there are no more', async () => {
    const { p, view, lab, hints } = await panel();
    for (let i = 0; i < lab.hints.length; i++) p.nextHint();
    expect(p.hintLevel).toBe(lab.hints.length);
    expect(view.said[0]).toMatch(new RegExp(`^Hint 1 of ${lab.hints.length}: `));
    expect(view.said[0]).not.toContain('`');
    p.nextHint();
    expect(view.said.at(-1)).toBe('No more hints.');
    expect(hints()).toBe(lab.hints.length);
    // A saved level beyond what the lab has now is capped.
    p.load(lab, 99);
    expect(p.hintLevel).toBe(lab.hints.length);
  });

  it('summarises hidden and visible checks alike', () => {
    expect(summaryText(t, { passed: 3, total: 5, results: [] } as unknown as CheckSummary)).toBe(
      '3 of 5 checks pass (60%).',
    );
  });
});
