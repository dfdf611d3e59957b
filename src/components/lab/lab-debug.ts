/**
 * Test hooks, kept out of the production protocol: a browser test installs a `LabDebug` as
 * `window.__packetpathLabDebug` before the page loads (Playwright's addInitScript) and `<pp-lab>` hands
 * it to the app. Without one (every learner), nothing here runs.
 */
import type { Transport } from '../../runtime/protocol';

export interface RestartTiming {
  /** From the watchdog declaring the host dead to the replacement holding the page's work. */
  readonly ms: number;
  /** The replacement was started while the watchdog still waited (see WatchdogOptions.onSuspect). */
  readonly warm: boolean;
  /** Restarts so far in this page. */
  readonly count: number;
}

export interface LabDebug {
  /**
   * Wraps every transport the lab opens to a host. The watchdog test freezes one (drops what goes
   * both ways), which the page sees exactly as an engine spinning in one synchronous step.
   */
  readonly transport?: (transport: Transport) => Transport;
  /** Told after each watchdog restart. */
  readonly restarted?: (timing: RestartTiming) => void;
}

export const DEBUG_GLOBAL = '__packetpathLabDebug';

/** The hooks a test installed, if any. */
export function installedDebug(): LabDebug | undefined {
  const value: unknown = Reflect.get(globalThis, DEBUG_GLOBAL);
  return typeof value === 'object' && value !== null ? (value as LabDebug) : undefined;
}
