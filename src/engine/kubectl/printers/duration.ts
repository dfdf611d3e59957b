/**
 * apimachinery's `duration.HumanDuration`, which kubectl uses for AGE, LAST SEEN and restart ages:
 * seconds up to 2 minutes, then minutes (with seconds below 10m), hours (with minutes below 8h),
 * days (with hours below 8d), years (with days below 8y).
 */
import { parseTimestamp } from '../../util/clock.ts';

export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  // "Allow deviation no more than 2 seconds(excluded) to tolerate machine time inconsistence."
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const y = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${y}y` : `${y}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** `translateTimestampSince`: `<unknown>` for a missing timestamp, else the age. */
export function age(timestamp: string | undefined | null, nowMs: number): string {
  if (!timestamp) return '<unknown>';
  const t = parseTimestamp(timestamp);
  if (Number.isNaN(t)) return '<unknown>';
  return humanDuration(nowMs - t);
}
