/**
 * The learner's progress as cmi.suspend_data keeps it: SCORM 1.2 gives that element 4,096 characters
 * (RTE table 3.4.2), and an LMS may refuse or cut a longer value. The journal and the quiz answers are
 * deflated and base64'd; a session too long even then keeps what matters, in this order, and says what
 * it dropped so the page can tell the learner (never a silent loss):
 *
 *  - `all`: every step and answer; coming back replays the session exactly.
 *  - `files`: the lab files as they are now, the answers, and the checks passed so far; the commands
 *    are dropped (coming back starts a fresh cluster with the learner's files, and the checks they
 *    had passed still count toward the score the LMS receives).
 *  - `answers`: the answers and the checks passed, when even the files do not fit.
 */
import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';
import type { JournalStep } from '../protocol.ts';

/** cmi.suspend_data holds at most 4,096 characters in SCORM 1.2 (RTE table 3.4.2). */
export const SUSPEND_DATA_MAX = 4096;

/** What is saved: the session, and (when its commands are dropped) the files it left. */
export interface ScormProgress {
  readonly journal: readonly JournalStep[];
  /** The lab files now, and at the start (what `files` keeps when the commands do not fit). */
  readonly files: Readonly<Record<string, string>>;
  readonly startFiles: Readonly<Record<string, string>>;
  readonly quizAnswers: Readonly<Record<string, readonly string[]>>;
  /** Checks passed in a session whose commands could not be kept (they still count toward the score). */
  readonly passed: readonly string[];
}

export type Kept = 'all' | 'files' | 'answers';

export interface EncodedProgress {
  readonly text: string;
  readonly kept: Kept;
}

function pack(prefix: string, value: unknown): string {
  const bytes = deflateSync(strToU8(JSON.stringify(value)), { level: 9 });
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return `${prefix}${btoa(bin)}`;
}

function unpack(text: string): unknown {
  const bin = atob(text);
  return JSON.parse(strFromU8(inflateSync(Uint8Array.from(bin, (c) => c.charCodeAt(0)))));
}

/**
 * The lab files as they are now, as journal steps from the start files: a write for each file added
 * or changed (by the editor or by a command: `cat > x`, `kubectl get -o yaml > y`), a removal for
 * each start file gone.
 */
export function filesAsSteps(
  now: Readonly<Record<string, string>>,
  start: Readonly<Record<string, string>>,
): JournalStep[] {
  const steps: JournalStep[] = [];
  for (const [path, content] of Object.entries(now))
    if (start[path] !== content) steps.push({ write: path, content });
  for (const path of Object.keys(start)) if (!Object.hasOwn(now, path)) steps.push({ remove: path });
  return steps;
}

/**
 * The progress as cmi.suspend_data text of at most `max` characters, keeping as much as fits.
 * `passedNow`: the checks passing at this moment (kept only when the commands are not).
 */
export function encodeProgress(
  progress: ScormProgress,
  passedNow: readonly string[],
  max = SUSPEND_DATA_MAX,
): EncodedProgress {
  const { journal, quizAnswers } = progress;
  const passed = [...new Set([...progress.passed, ...passedNow])].sort();
  const full = pack('z2:', { j: journal, q: quizAnswers, p: progress.passed });
  if (full.length <= max) return { text: full, kept: 'all' };
  const files = pack('z2:', {
    j: filesAsSteps(progress.files, progress.startFiles),
    q: quizAnswers,
    p: passed,
  });
  if (files.length <= max) return { text: files, kept: 'files' };
  return { text: pack('z2:', { j: [], q: quizAnswers, p: passed }), kept: 'answers' };
}

const isStringArray = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'string');

/** What comes back from cmi.suspend_data: the steps to replay, the answers, the checks passed before. */
export type SavedProgress = Pick<ScormProgress, 'journal' | 'quizAnswers' | 'passed'>;

/** Reads cmi.suspend_data: this format (`z2:`) or the journal-only one before it (`z1:`). */
export function decodeProgress(text: string): SavedProgress | undefined {
  try {
    if (text.startsWith('z1:')) {
      const journal = unpack(text.slice(3));
      return Array.isArray(journal)
        ? { journal: journal as JournalStep[], quizAnswers: {}, passed: [] }
        : undefined;
    }
    if (!text.startsWith('z2:')) return undefined;
    const data = unpack(text.slice(3)) as { j?: unknown; q?: unknown; p?: unknown };
    if (!Array.isArray(data.j)) return undefined;
    const answers =
      data.q && typeof data.q === 'object'
        ? Object.entries(data.q).filter((e): e is [string, string[]] => isStringArray(e[1]))
        : [];
    return {
      journal: data.j as JournalStep[],
      quizAnswers: Object.fromEntries(answers),
      passed: isStringArray(data.p) ? data.p : [],
    };
  } catch {
    return undefined;
  }
}
