/**
 * The phone layout (issue 20 item 5): below 40rem the lab shows one of its parts at a time under a
 * tab list (Steps, Editor, Terminal, Network), following the WAI-ARIA tabs pattern; wider, the tabs
 * are gone and every part is on screen. Also keeps the terminal's cursor in view when its pane
 * scrolls sideways (a phone keeps the terminal ~85 columns wide rather than wrap tables).
 */
import type { LabUi } from './lab-ui';
import type { LabTerminal } from './terminal';

export const PHONE_QUERY = '(max-width: 40rem)';

export const VIEWS = ['steps', 'editor', 'terminal', 'network'] as const;
export type LabView = (typeof VIEWS)[number];

/** The tab an arrow/Home/End key moves to from `current` (wrapping), or undefined for other keys. */
export function viewForKey(key: string, current: LabView): LabView | undefined {
  const i = VIEWS.indexOf(current);
  switch (key) {
    case 'ArrowRight':
      return VIEWS[(i + 1) % VIEWS.length];
    case 'ArrowLeft':
      return VIEWS[(i + VIEWS.length - 1) % VIEWS.length];
    case 'Home':
      return VIEWS[0];
    case 'End':
      return VIEWS[VIEWS.length - 1];
    default:
      return undefined;
  }
}

/**
 * Where a pane that scrolls sideways should rest so the cursor (at `cursorPx` from the terminal's left
 * edge) is visible: at the left edge while the cursor is within the first screenful (the prompt and
 * a command's start stay in view), else just far enough to show the cursor with a margin.
 */
export function scrollForCursor(cursorPx: number, viewPx: number, marginPx: number): number {
  return cursorPx + marginPx <= viewPx ? 0 : Math.ceil(cursorPx + marginPx - viewPx);
}

export class LabViews {
  private readonly query = matchMedia(PHONE_QUERY);
  private view: LabView = 'steps';

  constructor(
    private readonly ui: LabUi,
    private readonly terminal: LabTerminal,
    private readonly hooks: {
      /** The part just came on screen (the editor and terminal re-measure, Network loads). */
      readonly shown: (view: LabView) => void;
    },
  ) {}

  get phone(): boolean {
    return this.query.matches;
  }

  wire(): void {
    const tabs = this.ui.$('[data-views]');
    tabs.addEventListener('click', (e) => {
      const tab = (e.target as HTMLElement).closest<HTMLElement>('[data-view-tab]');
      if (tab) this.select(tab.dataset.viewTab as LabView, false);
    });
    tabs.addEventListener('keydown', (e) => {
      const next = viewForKey(e.key, this.view);
      if (!next) return;
      e.preventDefault();
      this.select(next, true);
    });
    this.query.addEventListener('change', () => this.apply());
    this.apply();
    this.followCursor();
  }

  /** Shows one part (phone layout only; on a wide lab every part is already there). */
  select(view: LabView, focusTab: boolean): void {
    this.view = view;
    this.apply();
    if (focusTab) this.tab(view).focus();
  }

  private tab(view: LabView): HTMLElement {
    return this.ui.$(`[data-view-tab="${view}"]`);
  }

  private apply(): void {
    const phone = this.phone;
    const { ui } = this;
    ui.$('[data-views]').hidden = !phone;
    ui.mark('view', phone ? this.view : undefined);
    for (const view of VIEWS) {
      const tab = this.tab(view);
      const selected = view === this.view;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      const panel = ui.$(`[data-view-panel="${view}"]`);
      // Panels are tab panels only while there are tabs; wide, they are the lab's regions.
      if (phone) {
        panel.setAttribute('role', 'tabpanel');
        panel.setAttribute('aria-labelledby', tab.id);
      } else if (panel.getAttribute('role') === 'tabpanel') {
        panel.removeAttribute('role');
        panel.removeAttribute('aria-labelledby');
      }
    }
    if (phone) requestAnimationFrame(() => this.hooks.shown(this.view));
  }

  /**
   * On a phone the terminal is wider than its pane. xterm keeps its input textarea at the cursor and
   * the browser scrolls the pane to it on focus, so a long command leaves the pane scrolled right and
   * the next prompt out of sight. After every cursor move (typing, output, a new prompt) the pane goes
   * back to where the cursor shows, preferring its left edge; the learner's own sideways scroll to read
   * a wide table is left alone until the cursor moves again.
   */
  private followCursor(): void {
    const pane = this.ui.$('[data-terminal-scroll]');
    const { term } = this.terminal;
    const place = () => {
      if (pane.scrollWidth <= pane.clientWidth) return;
      const cell = this.ui.$('[data-terminal]').clientWidth / Math.max(term.cols, 1);
      const cursorPx = term.buffer.active.cursorX * cell;
      pane.scrollLeft = scrollForCursor(cursorPx, pane.clientWidth, cell * 4);
    };
    term.onCursorMove(place);
    term.textarea?.addEventListener('focus', () => requestAnimationFrame(place));
  }
}
