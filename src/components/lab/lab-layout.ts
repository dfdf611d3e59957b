/**
 * The lab's layout: the splitter between editor and terminal, the full-window mode, the theme that
 * follows Starlight's, and keeping the work area in place while panels above it grow.
 */
import { TERMINAL_FONT_PX, TERMINAL_FONT_PX_WIDE, isDark, type LabTerminal } from './terminal';
import type { LabUi } from './lab-ui';

export const SPLIT_MIN = 20;
export const SPLIT_MAX = 80;

/** Where the editor/terminal split is remembered (per learner: this browser). */
export const SPLIT_STORAGE_KEY = 'packetpath.lab.split';

/** The remembered split, or undefined for none (or a value not from us). */
export function storedSplit(raw: string | null): number | undefined {
  const n = Number(raw);
  return raw !== null && raw !== '' && Number.isFinite(n) ? clampSplit(n) : undefined;
}

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

  /**
   * Full window: the lab goes into the browser's top layer (a manual popover), above Starlight's
   * header and sidebars whatever their stacking contexts, covering the viewport; the page behind it
   * does not scroll. Esc leaves, except while the terminal or the editor has the focus: there Esc
   * is theirs (the terminal's Esc-then-Tab way out, Monaco's widgets).
   */
  setMaximized(on: boolean, button: HTMLElement): void {
    const { root } = this.ui;
    if (on === this.maximized) return;
    if (on && 'showPopover' in root) {
      root.setAttribute('popover', 'manual');
      root.showPopover();
    } else if (!on && root.hasAttribute('popover')) {
      root.hidePopover();
      root.removeAttribute('popover');
    }
    root.classList.toggle('pp-lab--max', on);
    document.documentElement.classList.toggle('pp-lab-open', on);
    button.setAttribute('aria-pressed', String(on));
    requestAnimationFrame(() => {
      this.terminal.setFontSize(on ? TERMINAL_FONT_PX_WIDE : TERMINAL_FONT_PX);
      this.editor.layout();
    });
  }

  toggleMaximized(button: HTMLElement): void {
    this.setMaximized(!this.maximized, button);
  }

  wireEscape(button: HTMLElement): void {
    // On the document: after the terminal lets go of the focus, it may rest on the page body.
    document.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape' || !this.maximized || e.defaultPrevented) return;
      const inside = document.activeElement;
      const typing = inside?.closest('.xterm, .monaco-editor');
      // An open menu or the shortcuts popover takes this Esc to close itself.
      if (typing || this.ui.root.querySelector('.pp-lab__popover:popover-open')) return;
      e.preventDefault();
      this.setMaximized(false, button);
      button.focus();
    });
  }

  wireSplitter(): void {
    const splitter = this.ui.$('[data-splitter]');
    const set = (pct: number, remember = true) => {
      const v = clampSplit(pct);
      this.panes.style.setProperty('--pp-split', `${v}%`);
      splitter.setAttribute('aria-valuenow', String(v));
      this.terminal.fit();
      if (remember) {
        try {
          localStorage.setItem(SPLIT_STORAGE_KEY, String(v));
        } catch {
          // storage off: the split holds for this page
        }
      }
    };
    let remembered: number | undefined;
    try {
      remembered = storedSplit(localStorage.getItem(SPLIT_STORAGE_KEY));
    } catch {
      remembered = undefined;
    }
    if (remembered !== undefined) set(remembered, false);
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
