/**
 * The simulated clock. Every time-dependent behaviour of the engine (AGE columns, container start-up,
 * termination grace periods) reads this clock, never the host's, so a cluster replays identically from
 * its seed. Controllers do not register callbacks on it: they derive what is due from object state and
 * report their next wake-up time, which keeps a snapshot plain data.
 */

/** 2026-01-01T00:00:00Z: a fixed origin keeps creationTimestamps reproducible across runs. */
export const CLOCK_ORIGIN_MS = Date.UTC(2026, 0, 1);

export class SimClock {
  private nowMs: number;

  constructor(startMs: number = CLOCK_ORIGIN_MS) {
    this.nowMs = startMs;
  }

  now(): number {
    return this.nowMs;
  }

  /** Moves time forward (never back). */
  set(ms: number): void {
    if (ms > this.nowMs) this.nowMs = ms;
  }

  /** RFC 3339 with second precision, as the API server writes metadata timestamps. */
  rfc3339(ms: number = this.nowMs): string {
    // Thousands of writes share one instant; the last second's text is reused.
    const second = Math.floor(ms / 1000);
    if (second !== this.lastSecond) {
      this.lastSecond = second;
      this.lastText = new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
    }
    return this.lastText;
  }

  private lastSecond = Number.NaN;
  private lastText = '';
}

/** Parses an RFC 3339 timestamp written by `rfc3339`. */
export function parseTimestamp(text: string): number {
  return Date.parse(text);
}
