import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHECK_DEBOUNCE_MS, CheckScheduler, checkPercent } from './check-scheduler';

describe('checkPercent', () => {
  it('is the whole percent passing, rounded down, 100 only when all pass', () => {
    expect(checkPercent({ passed: 3, total: 5 })).toBe(60);
    expect(checkPercent({ passed: 2, total: 3 })).toBe(66);
    expect(checkPercent({ passed: 199, total: 200 })).toBe(99);
    expect(checkPercent({ passed: 7, total: 7 })).toBe(100);
    expect(checkPercent({ passed: 0, total: 0 })).toBe(0);
  });
});

/** A check run the test finishes by hand, recording the "cluster state" each run saw. */
function fakeChecks() {
  let state = 0;
  const seen: number[] = [];
  const finish: (() => void)[] = [];
  const run = () =>
    new Promise<void>((resolve) => {
      seen.push(state);
      finish.push(resolve);
    });
  return {
    run,
    seen,
    step: () => state++,
    /** Ends the oldest unfinished run and lets its continuation go on. */
    async end() {
      finish.shift()?.();
      await vi.advanceTimersByTimeAsync(0);
    },
  };
}

describe('CheckScheduler', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs the checks once, the debounce delay after the last step of a burst', async () => {
    const c = fakeChecks();
    const s = new CheckScheduler(c.run);
    for (let i = 0; i < 10; i++) {
      c.step();
      s.schedule();
      await vi.advanceTimersByTimeAsync(50);
    }
    expect(c.seen).toEqual([]);
    expect(s.pending).toBe(true);
    await vi.advanceTimersByTimeAsync(CHECK_DEBOUNCE_MS - 51);
    expect(c.seen).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    // One run, and it saw the state after the tenth step.
    expect(c.seen).toEqual([10]);
    expect(s.pending).toBe(false);
    await c.end();
    await vi.advanceTimersByTimeAsync(10 * CHECK_DEBOUNCE_MS);
    expect(c.seen).toEqual([10]);
  });

  it('checks the final state when a step lands while a run is in flight, without two runs at once', async () => {
    const c = fakeChecks();
    const s = new CheckScheduler(c.run, 300);
    c.step();
    s.schedule();
    await vi.advanceTimersByTimeAsync(300);
    expect(c.seen).toEqual([1]);
    // Two more steps while the first run is still evaluating; their debounce fires mid-run.
    c.step();
    s.schedule();
    c.step();
    s.schedule();
    await vi.advanceTimersByTimeAsync(300);
    expect(c.seen).toEqual([1]);
    await c.end();
    // The stale run is followed by exactly one more, which sees the last state.
    expect(c.seen).toEqual([1, 3]);
    await c.end();
    await vi.advanceTimersByTimeAsync(1000);
    expect(c.seen).toEqual([1, 3]);
  });

  it('now() runs at once and drops the pending run; cancel() drops it too', async () => {
    const c = fakeChecks();
    const s = new CheckScheduler(c.run);
    c.step();
    s.schedule();
    const done = s.now();
    expect(c.seen).toEqual([1]);
    await c.end();
    await done;
    await vi.advanceTimersByTimeAsync(10 * CHECK_DEBOUNCE_MS);
    expect(c.seen).toEqual([1]);

    c.step();
    s.schedule();
    s.cancel();
    expect(s.pending).toBe(false);
    await vi.advanceTimersByTimeAsync(10 * CHECK_DEBOUNCE_MS);
    expect(c.seen).toEqual([1]);
  });

  it('keeps scheduling after a run fails (the host did not answer)', async () => {
    let calls = 0;
    const s = new CheckScheduler(async () => {
      calls++;
      throw new Error('unresponsive');
    }, 100);
    s.schedule();
    await vi.advanceTimersByTimeAsync(100);
    s.schedule();
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toBe(2);
  });
});
