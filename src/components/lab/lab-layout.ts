/**
 * The lab's layout: the splitter between editor and terminal, the full-window mode, the theme that
 * follows Starlight's, and keeping the work area in place while panels above it grow.
 */
import { isDark, type LabTerminal } from './terminal';
import type { LabUi } from './lab-ui';

export const SPLIT_MIN = 20;
export const SPLIT_MAX = 80;

export const clampSplit = (pct: number): number => Math.max(SPLIT_MIN, Math.min(SPLIT_MAX, Math.round(pct)));

/** The splitter's keyboard steps (WAI-ARIA window splitter): arrows by 5, Home/End to the ends. */
export function splitStep(key: string): number {
  switch (key) {
    case 'ArrowUp':
      return -5;
    case 'ArrowDown':
      return 5;
    case 'Home':
      return -100;
    case 'End':
      return 100;
    default:
      return 0;
  }
}

export class LabLayout {
  private readonly panes: HTMLElement;

  constructor(
    private readonly ui: LabUi,
    private readonly terminal: LabTerminal,
    private readonly editor: { layout(): void; setTheme(dark: boolean): void },
  ) {
    this.panes = ui.$('[data-panes]');
  }

  get maximized(): boolean {
    return this.ui.root.classList.contains('pp-lab--max');
  }

  toggleMaximized(button: HTMLElement): void {
    const on = !this.maximized;
    this.ui.root.classList.toggle('pp-lab--max', on);
    document.documentElement.classList.toggle('pp-lab-open', on);
    button.setAttribute('aria-pressed', String(on));
    requestAnimationFrame(() => {
      this.terminal.fit();
      this.editor.layout();
    });
  }

  wireSplitter(): void {
    const splitter = this.ui.$('[data-splitter]');
    const set = (pct: number) => {
      const v = clampSplit(pct);
      this.panes.style.setProperty('--pp-split', `${v}%`);
      splitter.setAttribute('aria-valuenow', String(v));
      this.terminal.fit();
    };
    splitter.addEventListener('keydown', (e) => {
      const step = splitStep(e.key);
      if (step !== 0) {
        e.preventDefault();
        set(Number(splitter.getAttribute('aria-valuenow')) + step);
      }
    });
    splitter.addEventListener('pointerdown', (e) => {
      splitter.setPointerCapture(e.pointerId);
      const move = (ev: PointerEvent) => {
        const rect = this.panes.getBoundingClientRect();
        set(((ev.clientY - rect.top) / rect.height) * 100);
      };
      const up = () => {
        splitter.removeEventListener('pointermove', move);
        splitter.removeEventListener('pointerup', up);
      };
      splitter.addEventListener('pointermove', move);
      splitter.addEventListener('pointerup', up);
    });
  }

  watchTheme(): void {
    new MutationObserver(() => {
      const dark = isDark();
      this.terminal.setDark(dark);
      this.editor.setTheme(dark);
    }).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  }

  /**
   * Runs `change`, which may grow the panels above the work area (one-column layout), without moving the
   * terminal or editor the learner is typing in: otherwise a check run after a command can push the prompt
   * out of view. The browser's scroll anchoring does not help here: on a Starlight page it anchors on the
   * sticky table of contents. Checks the learner asked for (the Check button) come with focus on the
   * toolbar, so they still grow into view.
   */
  keepWorkInPlace(change: () => void): void {
    const focus = document.activeElement;
    if (!focus || !this.panes.contains(focus)) return change();
    const before = this.panes.getBoundingClientRect().top;
    change();
    const moved = this.panes.getBoundingClientRect().top - before;
    // Maximized, the lab is its own scroller.
    const scroller = this.maximized ? this.ui.root : window;
    if (moved !== 0) scroller.scrollBy(0, moved);
  }
}
