/**
 * The one protocol between the lab UI and a host that runs the engine (the Web Worker, the
 * WebContainer, and any future one). Every message is plain, structured-clone-safe data with the
 * protocol version in it, so a host built from another version of the site is detected instead of
 * misread. The UI sends requests (each with an id, each cancellable); the host answers each request
 * once and may push events (file changes, boot progress, terminal bytes) at any time.
 *
 * Components import only the *types* of this module (plus the tiny helpers below, which have no
 * dependencies); they never import the engine.
 */
import type { ClusterSnapshot } from '../engine/index.ts';
import type { JournalStep } from '../grader/index.ts';
import type { NetworkState, NetworkTraceRequest, NetworkTraceResult } from '../visual/state.ts';

export type { JournalStep };

export const PROTOCOL_VERSION = 1;

export type HostKind = 'worker' | 'webcontainer' | 'node';

/** How the terminal talks to the host: lines through our readline, or raw bytes to a pty (`jsh`). */
export type TerminalMode = 'line' | 'pty';

export interface Localized {
  readonly 'pt-BR': string;
  readonly en: string;
}

/** What the UI needs to show a lab: texts in both languages, hints, solution, check titles. */
/** A quiz as a host shows it: the learner picks one choice, or every right one when `multiple`. */
export interface QuizView {
  readonly question: Localized;
  readonly choices: readonly { readonly id: string; readonly text: Localized }[];
  readonly multiple: boolean;
}

export interface LabInfo {
  readonly id: string;
  readonly version: number;
  readonly title: Localized;
  readonly summary: Localized;
  readonly steps: readonly Localized[];
  readonly hints: readonly Localized[];
  readonly solution: {
    readonly commands: readonly string[];
    readonly files: Readonly<Record<string, string>>;
  };
  readonly startFiles: Readonly<Record<string, string>>;
  readonly checks: readonly {
    readonly id: string;
    readonly title: Localized;
    readonly hidden: boolean;
    /** A quiz check: the question and its choices, for the learner to answer (never the answer). */
    readonly quiz?: QuizView;
  }[];
  /**
   * For a lab with variants: the one drawn, the seed that drew it and every variant id (for "new
   * fault"). The title names the fault: the UI shows it only once every check passes.
   */
  readonly variant?: {
    readonly id: string;
    readonly title: Localized;
    readonly seed: number;
    readonly of: readonly string[];
  };
}

/**
 * A lab's whole state, as it moves between hosts and into storage: the engine's snapshot plus the
 * grader's journal (every line run and file saved, in order, which is what a grade report carries and
 * an instructor replays). The cluster is a pure function of (lab, journal); the snapshot saves the replay.
 */
export interface HostState {
  readonly snapshot: ClusterSnapshot;
  readonly journal: readonly JournalStep[];
  readonly quizAnswers: Readonly<Record<string, readonly string[]>>;
  /** ISO time the learner started the lab (for the report). */
  readonly startedAt: string;
  /** `startStateHash` of the cluster the session began from (for the report; absent in older states). */
  readonly startState?: string;
}

/** Where a lab's cluster comes from when it is loaded. */
export type LoadStart =
  | { readonly kind: 'fresh' }
  | { readonly kind: 'state'; readonly state: HostState }
  /** Migration or recovery: a fresh cluster, then the journal replayed step by step. */
  | { readonly kind: 'replay'; readonly journal: readonly JournalStep[]; readonly startedAt?: string };

export interface LoadResult {
  readonly lab: LabInfo;
  /** The answers given to the lab's questions so far (a restored state keeps them). */
  readonly quizAnswers?: Readonly<Record<string, readonly string[]>>;
  readonly files: Readonly<Record<string, string>>;
  readonly prompt: string;
  readonly history: readonly string[];
}

/** One write to the terminal's stdout or stderr. */
export interface OutputChunk {
  readonly stream: 'stdout' | 'stderr';
  readonly text: string;
}

export interface ExecOutput {
  readonly stdout: string;
  readonly stderr: string;
  /**
   * Both streams in the order the line wrote them (kubectl's `Warning:` before its table); each
   * stream's chunks join to `stdout` / `stderr`. Absent when that order is all stdout, then stderr.
   */
  readonly output?: readonly OutputChunk[];
  readonly exitCode: number;
  readonly clear?: boolean;
  readonly logout?: boolean;
  /** The prompt to show after this line (it changes inside `kubectl exec -it … -- sh`). */
  readonly prompt: string;
}

export interface Completion {
  /** The candidates for the word at the cursor, sorted. */
  readonly candidates: readonly string[];
  /** Offsets in the line of the word the candidates replace. */
  readonly from: number;
  readonly to: number;
}

export interface Diagnostic {
  readonly message: string;
  /** 1-based line and column in the file, when the error could be placed. */
  readonly line?: number;
  readonly column?: number;
  readonly endLine?: number;
  readonly endColumn?: number;
}

/** One check as the checks panel shows it, already worded in both languages by the grader. */
export interface CheckView {
  readonly id: string;
  readonly status: 'pass' | 'fail' | 'error';
  readonly hidden: boolean;
  readonly title: Localized;
  /** What the check wants and what the grader saw (for traffic checks, the deciding hop too). */
  readonly expected: Localized;
  readonly observed: Localized;
  readonly hop?: Localized;
}

export interface CheckSummary {
  readonly results: readonly CheckView[];
  readonly passed: number;
  readonly total: number;
}

/** Every request: its parameters and the value its response carries. */
export interface Requests {
  hello: {
    params: Record<string, never>;
    result: { version: number; host: HostKind; terminal: TerminalMode };
  };
  /** `seed`: the learner's draw seed, for a lab with variants (kept with their progress). */
  load: { params: { labId: string; start: LoadStart; seed?: number }; result: LoadResult };
  exec: { params: { line: string }; result: ExecOutput };
  complete: { params: { line: string; cursor: number }; result: Completion };
  /** Whether the text typed so far needs more lines (open quote, heredoc, trailing backslash). */
  incomplete: { params: { text: string }; result: boolean };
  writeFile: { params: { path: string; content: string }; result: null };
  removeFile: { params: { path: string }; result: null };
  state: { params: Record<string, never>; result: HostState };
  validate: { params: { path: string }; result: readonly Diagnostic[] };
  check: { params: Record<string, never>; result: CheckSummary };
  /** The learner's answer to a quiz check: the ids of the choices they picked (replacing any earlier answer). */
  answer: { params: { check: string; choices: readonly string[] }; result: null };
  /**
   * The grade report (the grader's format), for download. `learner`: the name the learner typed for
   * their instructor (optional; blank or absent leaves the report's `learner` out).
   */
  report: { params: { locale: 'pt-BR' | 'en'; submittedAt: string; learner?: string }; result: unknown };
  /** The Network view (`<pp-network>`): topology model and reachability matrix of the live cluster. */
  network: { params: Record<string, never>; result: NetworkState };
  /** A structured trace for the packet walk, on a copy of the cluster (the journal does not record it). */
  trace: { params: NetworkTraceRequest; result: NetworkTraceResult };
  /**
   * The watchdog's heartbeat: answered at once, between engine steps, never queued behind requests
   * (see HostClient). A host that cannot answer it is stuck in one synchronous step.
   */
  ping: { params: Record<string, never>; result: null };
  /**
   * Line hosts: the terminal's size in cells, as a pty's winsize reaches the shell (`$COLUMNS`,
   * `stty size`, `tput cols`). Sizes outside 1–1000 are ignored.
   */
  resize: { params: { cols: number; rows: number }; result: null };
  /** pty hosts only: keystrokes and terminal size. */
  ptyInput: { params: { data: string }; result: null };
  ptyResize: { params: { cols: number; rows: number }; result: null };
}

export type RequestType = keyof Requests;
export type Params<T extends RequestType> = Requests[T]['params'];
export type Result<T extends RequestType> = Requests[T]['result'];

export type RequestMessage<T extends RequestType = RequestType> = T extends RequestType
  ? {
      readonly v: typeof PROTOCOL_VERSION;
      readonly kind: 'request';
      readonly id: number;
      readonly type: T;
      readonly params: Params<T>;
    }
  : never;

export interface CancelMessage {
  readonly v: typeof PROTOCOL_VERSION;
  readonly kind: 'cancel';
  readonly id: number;
}

export interface ErrorInfo {
  readonly name: string;
  readonly message: string;
  /** Machine-readable reason: `snapshot-invalid`, `no-lab`, `cancelled`, `unsupported`, `version`… */
  readonly code?: string;
}

export type ResponseMessage =
  | {
      readonly v: typeof PROTOCOL_VERSION;
      readonly kind: 'response';
      readonly id: number;
      readonly ok: true;
      readonly value: unknown;
    }
  | {
      readonly v: typeof PROTOCOL_VERSION;
      readonly kind: 'response';
      readonly id: number;
      readonly ok: false;
      readonly error: ErrorInfo;
    };

/** Things a host says without being asked. */
export type HostEvent =
  /** A lab file changed on the host side (`> file`, `rm`, `sed -i`); content null = removed. */
  | { readonly type: 'file'; readonly path: string; readonly content: string | null }
  /** Boot progress, 0..1, with a stage name the UI words. */
  | { readonly type: 'progress'; readonly stage: string; readonly ratio: number }
  | { readonly type: 'pty-output'; readonly data: string }
  | { readonly type: 'fatal'; readonly error: ErrorInfo };

export interface EventMessage {
  readonly v: typeof PROTOCOL_VERSION;
  readonly kind: 'event';
  readonly event: HostEvent;
}

export type ToHost = RequestMessage | CancelMessage;
export type FromHost = ResponseMessage | EventMessage;

/** Anything that carries protocol messages both ways: a Worker, a MessagePort, or an in-page host. */
export interface Transport {
  post(message: ToHost): void;
  /** Registers the single receiver of host messages. */
  listen(receive: (message: FromHost) => void): void;
  close(): void;
}

/** A host's error, as the UI sees it (the `code` says what went wrong). */
export class HostError extends Error {
  readonly code: string | undefined;
  constructor(info: ErrorInfo) {
    super(info.message);
    this.name = info.name === 'AbortError' ? 'AbortError' : 'HostError';
    this.code = info.code;
  }
}

/** What a line printed, in the order a terminal shows it. */
export function outputChunks(r: ExecOutput): readonly OutputChunk[] {
  if (r.output) return r.output;
  const chunks: OutputChunk[] = [];
  if (r.stdout !== '') chunks.push({ stream: 'stdout', text: r.stdout });
  if (r.stderr !== '') chunks.push({ stream: 'stderr', text: r.stderr });
  return chunks;
}

/** The grade report's limit on `learner` (its schema's `max(200)`), also the name field's `maxlength`. */
export const LEARNER_NAME_MAX = 200;

/**
 * The learner's name as a report records it: whitespace runs (a pasted tab or newline) become one
 * space, since the instructor's cohort table is aligned on spaces; trimmed; cut to the report's limit
 * without splitting a surrogate pair. Anything else (absent, blank, not a string) is no name.
 */
export function learnerName(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  let name = raw.replace(/\s+/g, ' ').trim();
  if (name.length > LEARNER_NAME_MAX) {
    name = name.slice(0, LEARNER_NAME_MAX);
    if (/[\uD800-\uDBFF]$/.test(name)) name = name.slice(0, -1);
    name = name.trimEnd();
  }
  return name === '' ? undefined : name;
}

export function isToHost(data: unknown): data is ToHost {
  if (typeof data !== 'object' || data === null) return false;
  const m = data as { v?: unknown; kind?: unknown; id?: unknown };
  return (m.kind === 'request' || m.kind === 'cancel') && typeof m.id === 'number' && 'v' in m;
}

export function isFromHost(data: unknown): data is FromHost {
  if (typeof data !== 'object' || data === null) return false;
  const m = data as { kind?: unknown };
  return (m.kind === 'response' || m.kind === 'event') && 'v' in m;
}

export function toErrorInfo(error: unknown, code?: string): ErrorInfo {
  if (error instanceof Error) {
    const own = (error as Error & { code?: unknown }).code;
    return {
      name: error.name,
      message: error.message,
      code: code ?? (typeof own === 'string' ? own : undefined),
    };
  }
  return { name: 'Error', message: String(error), ...(code ? { code } : {}) };
}
