/**
 * When the checks panel re-runs the lab's checks on its own: after each command, apply or editor save,
 * but debounced, so a burst (a pasted block of lines, "run the solution", a heredoc, fast typing in
 * the editor) costs one evaluation instead of one per step. Checks can be dear (a reachability probe
 * walks packets on a scratch copy of the cluster), and the host answers requests one at a time, so
 * each needless run would also delay the learner's next command.
 *
 * Guarantees: a burst runs the checks once, `delayMs` after its last step; the final state is always
 * checked (a step that lands while a run is in flight schedules another run after it); never two runs
 * at once from here. `now()` (the Check button, a reset) runs at once and drops the pending run.
 */
export const CHECK_DEBOUNCE_MS = 400;

/**
 * The whole percent of checks that pass, as the panel shows it: rounded down, so 100% means every
 * check passes (4 of 6 is 66%, never a rounded-up 67% that a 99.5% would turn into 100%).
 */
export function checkPercent(s: { readonly passed: number; readonly total: number }): number {
  return s.total > 0 ? Math.floor((s.passed * 100) / s.total) : 0;
}

export class CheckScheduler {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  /** Something changed while a run was in flight: that run saw an older state, so run again after it. */
  private stale = false;

  constructor(
    private readonly run: () => Promise<void>,
    private readonly delayMs = CHECK_DEBOUNCE_MS,
  ) {}

  /** A step changed what the checks look at: run them once things settle. */
  schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.fire();
    }, this.delayMs);
  }

  /** Runs the checks now (waiting for a run in flight), dropping the pending one. */
  async now(): Promise<void> {
    this.cancel();
    await this.fire();
  }

  /** Forgets a pending run (a reset replaces the cluster and runs the checks itself). */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Whether a run is waiting for its delay (tests, and the page's `data-checks` state). */
  get pending(): boolean {
    return this.timer !== undefined;
  }

  private async fire(): Promise<void> {
    if (this.running) {
      this.stale = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.stale = false;
          await this.run().catch(() => {});
        } while (this.stale);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }
}
