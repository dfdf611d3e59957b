/**
 * Draws the checks panel, the hints, the solution and the drawn variant's name into the skeleton
 * (Lab.astro). Titles and hints use the same inline Markdown as the steps (`code`); inlineMarkdown
 * escapes the rest.
 */
import { checkPercent } from './check-scheduler';
import { summaryText, type ChecksView } from './checks-panel';
import { blockMarkdown, inlineMarkdown } from './inline-markdown';
import type { LabUi } from './lab-ui';
import type { CheckSummary, LabInfo } from '../../runtime/protocol';

export class DomChecksView implements ChecksView {
  private variant: LabInfo['variant'];

  constructor(
    private readonly ui: LabUi,
    /** Runs a change that may grow the panels above the work area without moving the work (layout). */
    private readonly keepWorkInPlace: (change: () => void) => void,
  ) {}

  say(text: string): void {
    this.ui.say(text);
  }

  checks(summary: CheckSummary): void {
    this.keepWorkInPlace(() => this.drawChecks(summary));
  }

  private drawChecks(summary: CheckSummary): void {
    const { ui } = this;
    const list = ui.$('[data-check-list]');
    list.replaceChildren();
    for (const r of summary.results) {
      const li = document.createElement('li');
      li.dataset.check = r.id;
      const passed = r.status === 'pass';
      li.dataset.state = passed ? 'passed' : 'failed';
      const title = document.createElement('span');
      title.className = 'pp-lab__check-title';
      title.innerHTML = inlineMarkdown(r.title[ui.lang]);
      const state = document.createElement('span');
      state.className = 'pp-lab__check-state';
      state.textContent = passed ? ui.t('lab.checkPassed') : ui.t('lab.checkFailed');
      li.append(title, state);
      if (!passed) {
        const why = document.createElement('span');
        why.className = 'pp-lab__check-message';
        why.textContent = [r.observed[ui.lang], r.hop?.[ui.lang]].filter(Boolean).join(' — ');
        li.append(why);
      }
      list.append(li);
    }
    const text = summaryText(ui.t, summary);
    const line = ui.$('[data-check-summary]');
    // A live region: an unchanged summary is not set again, so it is not read out after every command.
    if (line.textContent !== text) line.textContent = text;
    // The toolbar's primary action carries the live count ("3 of 5 checks").
    ui.$('[data-check-count]').textContent = ui.t('lab.checkCount', {
      passed: summary.passed,
      total: summary.total,
    });
    const bar = ui.$('[data-check-progress]') as HTMLProgressElement;
    bar.max = Math.max(summary.total, 1);
    bar.value = summary.passed;
    bar.hidden = false;
    ui.mark('percent', String(checkPercent(summary)));
    this.revealVariant(summary.total > 0 && summary.passed === summary.total);
  }

  hints(hints: LabInfo['hints'], shown: number): void {
    const { ui } = this;
    const list = ui.$('[data-hint-list]');
    list.replaceChildren();
    hints.slice(0, shown).forEach((hint, i) => {
      const li = document.createElement('li');
      const label = document.createElement('strong');
      label.textContent = `${ui.t('lab.hintN', { n: i + 1, total: hints.length })}: `;
      const text = document.createElement('span');
      text.innerHTML = blockMarkdown(hint[ui.lang]);
      li.append(label, text);
      list.append(li);
    });
    ui.$('[data-hints]').hidden = shown === 0;
  }

  /** Labs with variants: "new fault" draws another; the fault's name waits for a pass. */
  variantLoaded(variant: LabInfo['variant']): void {
    this.variant = variant;
    this.ui.$('[data-action="new-fault"]').hidden = !variant;
    this.ui.mark('variant', variant ? 'drawn' : '');
    this.revealVariant(false);
  }

  /** Shows which fault the learner had, once every check passes (labs with variants). */
  private revealVariant(passed: boolean): void {
    const box = this.ui.$('[data-variant]');
    const variant = this.variant;
    box.hidden = !(passed && variant);
    box.innerHTML =
      passed && variant
        ? inlineMarkdown(this.ui.t('lab.variantRevealed', { title: variant.title[this.ui.lang] }))
        : '';
    if (passed && variant) this.ui.mark('variant', variant.id);
  }

  hideSolution(): void {
    this.ui.$('[data-solution]').hidden = true;
  }

  showSolution(lab: LabInfo, run: () => void): void {
    const { ui } = this;
    const box = ui.$('[data-solution]');
    box.replaceChildren();
    const h = document.createElement('h3');
    h.textContent = ui.t('lab.solutionHeading');
    const pre = document.createElement('pre');
    pre.tabIndex = 0;
    pre.textContent = lab.solution.commands.join('\n');
    box.append(h);
    const files = Object.keys(lab.solution.files);
    if (files.length > 0) {
      const p = document.createElement('p');
      p.textContent = `${ui.t('lab.solutionFiles')} ${files.join(', ')}`;
      box.append(p);
    }
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = ui.t('lab.solutionRun');
    button.addEventListener('click', run);
    box.append(pre, button);
    box.hidden = false;
    h.tabIndex = -1;
    h.focus();
  }
}
