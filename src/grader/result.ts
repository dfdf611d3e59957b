/** What evaluating a check yields, and the percent complete the checks panel shows. */
import type { CheckType } from './check-schema.ts';
import { msg, type Message } from './messages/format.ts';

/** pass and fail are verdicts; error means the check could not be decided (never counted as a pass). */
export type CheckStatus = 'pass' | 'fail' | 'error';

export interface Verdict {
  readonly status: CheckStatus;
  /** What the check wants, e.g. "Service shop/api has at least 2 ready endpoints". */
  readonly expected: Message;
  /** What the grader saw, e.g. "it has 0: the selector app=api matches no pod". */
  readonly observed: Message;
  /** For traffic checks: the hop of the packet walk that decided the verdict. */
  readonly hop?: Message;
}

export interface CheckResult extends Verdict {
  readonly id: string;
  readonly type: CheckType;
  readonly hidden: boolean;
  /** True when expected/observed/hop were replaced by the hidden-check texts. */
  readonly redacted: boolean;
}

export interface Score {
  readonly passed: number;
  readonly total: number;
  /** 0–100, rounded down, so 100 means every check passed. */
  readonly percent: number;
}

export function score(results: readonly Pick<CheckResult, 'status'>[]): Score {
  const passed = results.filter((r) => r.status === 'pass').length;
  const total = results.length;
  return { passed, total, percent: total === 0 ? 0 : Math.floor((passed * 100) / total) };
}

const HIDDEN_OBSERVED = {
  pass: 'check.hidden.passed',
  fail: 'check.hidden.failed',
  error: 'check.hidden.error',
} as const;

/** What the learner sees of a hidden check: only whether it passed. */
export function redactHidden(result: CheckResult): CheckResult {
  if (!result.hidden || result.redacted) return result;
  return {
    id: result.id,
    type: result.type,
    hidden: true,
    redacted: true,
    status: result.status,
    expected: msg('check.hidden.expected'),
    observed: msg(HIDDEN_OBSERVED[result.status]),
  };
}

export function pass(expected: Message, observed: Message, hop?: Message): Verdict {
  return hop ? { status: 'pass', expected, observed, hop } : { status: 'pass', expected, observed };
}

export function fail(expected: Message, observed: Message, hop?: Message): Verdict {
  return hop ? { status: 'fail', expected, observed, hop } : { status: 'fail', expected, observed };
}

export function errorVerdict(expected: Message, observed: Message): Verdict {
  return { status: 'error', expected, observed };
}

export function verdict(ok: boolean, expected: Message, observed: Message, hop?: Message): Verdict {
  return ok ? pass(expected, observed, hop) : fail(expected, observed, hop);
}
