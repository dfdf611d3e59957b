/**
 * The checks, hints and solution: what the learner has passed, asks for and gives up on. The verdicts
 * come from the host (`check`); this keeps the last summary and the hint level (both part of the saved
 * record) and tells the view what to draw. The DOM side is checks-view.ts.
 */
import { checkPercent } from './check-scheduler';
import type { Translate } from './lab-ui';
import type { HostSession } from './host-session';
import type { CheckSummary, LabInfo } from '../../runtime/protocol';

export interface ChecksView {
  checks(summary: CheckSummary): void;
  hints(hints: LabInfo['hints'], shown: number): void;
  say(text: string): void;
}

/** "3 of 5 checks pass (60%)." Hidden checks count like the others. */
export function summaryText(t: Translate, summary: CheckSummary): string {
  return t('lab.checkSummary', {
    passed: summary.passed,
    total: summary.total,
    percent: checkPercent(summary),
  });
}

export class ChecksPanel {
  /** The last verdicts, saved with the progress. */
  summary: CheckSummary | null = null;
  hintLevel = 0;
  private lab: LabInfo | undefined;

  constructor(
    private readonly host: Pick<HostSession, 'request'>,
    private readonly lang: 'pt-BR' | 'en',
    private readonly t: Translate,
    private readonly view: ChecksView,
    /** Editor text not yet sent would be missing from what the checks see. */
    private readonly flush: () => Promise<void>,
    /** The verdicts changed: the record must be saved even when the command that changed them was. */
    private readonly onVerdicts: (changed: boolean) => void,
    /** A hint was shown (saved with the progress). */
    private readonly onHint: () => void,
  ) {}

  /** A (re)loaded lab: its hints, the level shown before, and the verdicts saved with it. */
  load(lab: LabInfo, hintLevel: number, saved?: CheckSummary | null): void {
    this.lab = lab;
    this.hintLevel = Math.min(hintLevel, lab.hints.length);
    this.view.hints(lab.hints, this.hintLevel);
    if (saved) this.show(saved);
  }

  async run(announce: boolean): Promise<void> {
    try {
      await this.flush();
      const summary = await this.host.request('check', {});
      const before = this.summary;
      this.show(summary);
      if (announce)
        this.view.say(
          summary.passed === summary.total ? this.t('lab.checkAllPassed') : summaryText(this.t, summary),
        );
      this.onVerdicts(JSON.stringify(before) !== JSON.stringify(summary));
    } catch {
      // checks are re-run after the next command
    }
  }

  /** The learner answered a lab question: the host records it, and the checks run (the quiz is one). */
  async answer(check: string, choices: readonly string[]): Promise<void> {
    if (choices.length === 0) {
      this.view.say(this.t('lab.quizPick'));
      return;
    }
    try {
      await this.host.request('answer', { check, choices });
    } catch (e) {
      this.view.say(e instanceof Error ? e.message : String(e));
      return;
    }
    await this.run(true);
  }

  show(summary: CheckSummary): void {
    this.summary = summary;
    this.view.checks(summary);
  }

  nextHint(): void {
    const hints = this.lab?.hints ?? [];
    if (this.hintLevel >= hints.length) {
      this.view.say(this.t('lab.noMoreHints'));
      return;
    }
    this.hintLevel++;
    this.view.hints(hints, this.hintLevel);
    const last = hints[this.hintLevel - 1];
    if (last)
      this.view.say(
        `${this.t('lab.hintN', { n: this.hintLevel, total: hints.length })}: ${last[this.lang].replace(/`/g, '')}`,
      );
    this.onHint();
  }
}
