/**
 * One lab running on one engine instance: what every host does with the engine, whatever carries
 * its messages (a Web Worker, the WebContainer's Node program, a test). Requests map one to one to
 * the protocol's; this is where the engine, the grader and the lab data meet.
 *
 * Like the grader's own LabSession, every learner action goes through a journal step (`run`,
 * `write`, `remove`), so the cluster stays a pure function of (lab, journal) and a grade report can be
 * replayed by an instructor. Unlike it, a session can also resume from a snapshot (fast reloads and
 * host switches) with its journal alongside.
 */
import { needsMoreInput, restoreCluster, type ClusterHandle } from '../engine/index.ts';
import {
  applyStep,
  buildReport,
  checkTitle,
  evaluateChecks,
  formatMessage,
  historyOf,
  score,
  startLab,
  startStateHash,
  type CheckResult,
  type LoadedLab,
  type Message,
} from '../grader/index.ts';
import { diagnosticsFor } from './diagnostics.ts';
import { networkState, networkTrace } from '../visual/host.ts';
import type { NetworkState, NetworkTraceRequest, NetworkTraceResult } from '../visual/state.ts';
import type {
  CheckSummary,
  CheckView,
  Completion,
  Diagnostic,
  ExecOutput,
  HostState,
  JournalStep,
  Localized,
  LoadResult,
  LoadStart,
} from './protocol.ts';
import { learnerName } from './protocol.ts';
import { labInfo } from './lab-info.ts';

export { labInfo };

export class SessionError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'SessionError';
    this.code = code;
  }
}

export type FileListener = (path: string, content: string | null) => void;

/** Quotes a word for the engine's shell when it needs it. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

const localize = (m: Message): Localized => ({
  'pt-BR': formatMessage('pt-BR', m),
  en: formatMessage('en', m),
});

function checkView(loaded: LoadedLab, r: CheckResult): CheckView {
  const check = loaded.lab.checks.find((c) => c.id === r.id);
  return {
    id: r.id,
    status: r.status,
    hidden: r.hidden,
    title: check
      ? { 'pt-BR': checkTitle(check, 'pt-BR'), en: checkTitle(check, 'en') }
      : { 'pt-BR': r.id, en: r.id },
    expected: localize(r.expected),
    observed: localize(r.observed),
    ...(r.hop ? { hop: localize(r.hop) } : {}),
  };
}

export class LabSession {
  private cluster: ClusterHandle | undefined;
  private unsubscribe: (() => void) | undefined;
  private journal: JournalStep[] = [];
  private quizAnswers: Record<string, string[]> = {};
  private startedAt = '';
  /** Set while a journal step the UI asked for runs: its file changes are not echoed back. */
  private quiet = false;
  /** File changes made by the step running now; the last one per path is reported when it ends. */
  private changed: Map<string, string | null> | undefined;
  /** A scratch copy of the cluster for dry runs, rebuilt when the real one has moved on. */
  private scratch: { cluster: ClusterHandle; version: number } | undefined;
  /**
   * `startStateHash` of the cluster the session began from, for grade reports: hashed when the lab
   * starts (a few ms), or carried by a saved state. Unknown for a saved state from before reports
   * recorded it; the report then says nothing rather than guess.
   */
  private startState: string | undefined;

  readonly loaded: LoadedLab;
  private readonly onFile: FileListener;
  private readonly now: () => string;
  /** The seed that drew `loaded`'s variant (labs with variants): reported, and recorded in grade reports. */
  readonly drawSeed: number;

  // Fields assigned by hand, not parameter properties: Node's type stripping (the CLI runs this file
  // unbuilt) does not support those.
  constructor(
    loaded: LoadedLab,
    onFile: FileListener = () => {},
    now: () => string = () => new Date().toISOString(),
    drawSeed = 0,
  ) {
    this.loaded = loaded;
    this.onFile = onFile;
    this.now = now;
    this.drawSeed = drawSeed;
  }

  private get live(): ClusterHandle {
    if (!this.cluster) throw new SessionError('no-lab', 'no lab loaded');
    return this.cluster;
  }

  async load(start: LoadStart): Promise<LoadResult> {
    this.unsubscribe?.();
    this.scratch = undefined;
    let cluster: ClusterHandle;
    let journal: JournalStep[] = [];
    let quizAnswers: Record<string, string[]> = {};
    let startedAt = this.now();
    let startState: string | undefined;
    if (start.kind === 'state') {
      try {
        cluster = restoreCluster(start.state.snapshot);
      } catch (e) {
        throw new SessionError('snapshot-invalid', e instanceof Error ? e.message : String(e));
      }
      if (!Array.isArray(start.state.journal))
        throw new SessionError('snapshot-invalid', 'state without a journal');
      journal = [...start.state.journal];
      quizAnswers = Object.fromEntries(
        Object.entries(start.state.quizAnswers ?? {}).map(([k, v]) => [k, [...v]]),
      );
      startedAt = start.state.startedAt || startedAt;
      startState = typeof start.state.startState === 'string' ? start.state.startState : undefined;
    } else {
      cluster = startLab(this.loaded);
      startState = startStateHash(cluster);
      if (start.kind === 'replay') {
        for (const step of start.journal) applyStep(cluster, step);
        journal = [...start.journal];
        startedAt = start.startedAt ?? startedAt;
      }
    }
    this.cluster = cluster;
    this.journal = journal;
    this.quizAnswers = quizAnswers;
    this.startedAt = startedAt;
    this.startState = startState;
    this.unsubscribe = cluster.files.changes.on('change', ({ path, content }) => {
      if (this.quiet) return;
      if (this.changed) this.changed.set(path, content ?? null);
      else this.onFile(path, content ?? null);
    });
    return {
      lab: labInfo(this.loaded, this.drawSeed),
      quizAnswers: { ...quizAnswers },
      files: cluster.files.toJSON(),
      prompt: cluster.prompt(),
      history: historyOf(journal),
    };
  }

  private record(step: JournalStep, quiet: boolean) {
    // Consecutive saves of one file collapse into the last: nothing ran in between to observe them.
    const last = this.journal[this.journal.length - 1];
    if ('write' in step && last && 'write' in last && last.write === step.write) this.journal.pop();
    this.journal.push(step);
    this.quiet = quiet;
    const changed = (this.changed = new Map());
    try {
      return applyStep(this.live, step);
    } finally {
      this.quiet = false;
      this.changed = undefined;
      for (const [path, content] of changed) this.onFile(path, content);
    }
  }

  exec(line: string): ExecOutput {
    const r = this.record({ run: line }, false)!;
    return {
      stdout: r.stdout,
      stderr: r.stderr,
      ...(r.output ? { output: r.output } : {}),
      exitCode: r.exitCode,
      ...(r.clear ? { clear: true } : {}),
      ...(r.logout ? { logout: true } : {}),
      prompt: this.live.prompt(),
    };
  }

  /** The terminal's size, for the shell (not part of the snapshot: the terminal sends it again). */
  resize(cols: number, rows: number): void {
    this.live.resize(cols, rows);
  }

  complete(line: string, cursor: number): Completion {
    const c = this.live.complete(line, cursor);
    return { candidates: [...c.candidates], from: c.start, to: c.end };
  }

  needsMoreInput(text: string): boolean {
    return needsMoreInput(text);
  }

  writeFile(path: string, content: string): void {
    if (this.live.files.read(path) === content) return;
    this.record({ write: path, content }, true);
    const now = this.live.files.read(path);
    if (now !== content) throw new SessionError('file', `${path}: could not be written`);
  }

  removeFile(path: string): void {
    this.record({ remove: path }, true);
  }

  state(): HostState {
    return {
      snapshot: this.live.snapshot(),
      journal: [...this.journal],
      quizAnswers: { ...this.quizAnswers },
      startedAt: this.startedAt,
      ...(this.startState ? { startState: this.startState } : {}),
    };
  }

  files(): Record<string, string> {
    return this.live.files.toJSON();
  }

  history(): string[] {
    return historyOf(this.journal);
  }

  /** `kubectl apply --dry-run=server -f PATH` on a scratch copy, so the real cluster (clock, RNG) never moves. */
  validate(path: string): Diagnostic[] {
    const live = this.live;
    const text = live.files.read(path);
    if (text === undefined) return [];
    const version = live.resourceVersion;
    if (!this.scratch || this.scratch.version !== version) {
      this.scratch = { cluster: restoreCluster(live.snapshot()), version };
    }
    const scratch = this.scratch.cluster;
    scratch.files.write(path, text);
    const r = scratch.execSync(`kubectl apply --dry-run=server -f ${shellQuote(path)}`);
    if (r.exitCode === 0) return [];
    return diagnosticsFor(text, r.stderr);
  }

  /** The Network view's data. Read-only: the topology and the matrix leave no trace in the cluster. */
  network(): NetworkState {
    return networkState(this.live);
  }

  /**
   * A packet walk for the Network view. A trace really sends (kube-proxy picks a backend, conntrack and
   * CoreDNS remember it), so it runs on a fresh copy: the learner's cluster stays a function of the journal.
   */
  trace(request: NetworkTraceRequest): NetworkTraceResult {
    return networkTrace(restoreCluster(this.live.snapshot()), request);
  }

  private evaluate(): CheckResult[] {
    return evaluateChecks(this.loaded, this.live, { history: this.history(), quizAnswers: this.quizAnswers });
  }

  /**
   * Records the learner's answer to a quiz check (replacing an earlier one). Refused, with the reason,
   * for a check that is no quiz, a choice it does not offer, or several choices for a single-choice one.
   */
  answer(checkId: string, choices: readonly string[]): void {
    const check = this.loaded.lab.checks.find((c) => c.id === checkId);
    if (check?.type !== 'quiz') {
      const quizzes = this.loaded.lab.checks.filter((c) => c.type === 'quiz').map((c) => c.id);
      throw new SessionError(
        'quiz',
        `${checkId}: not a question of this lab (its questions: ${quizzes.join(', ') || 'none'})`,
      );
    }
    const offered = check.choices.map((c) => c.id);
    const unknown = choices.find((c) => !offered.includes(c));
    if (unknown !== undefined)
      throw new SessionError('quiz', `${checkId}: no choice "${unknown}" (choices: ${offered.join(', ')})`);
    if (choices.length === 0) throw new SessionError('quiz', `${checkId}: pick a choice`);
    if (!check.multiple && choices.length > 1)
      throw new SessionError('quiz', `${checkId}: pick one choice, not ${choices.length}`);
    this.quizAnswers = { ...this.quizAnswers, [checkId]: [...new Set(choices)] };
  }

  check(): CheckSummary {
    const results = this.evaluate();
    const s = score(results);
    return { results: results.map((r) => checkView(this.loaded, r)), passed: s.passed, total: s.total };
  }

  report(locale: 'pt-BR' | 'en', submittedAt: string, learner?: unknown): unknown {
    const name = learnerName(learner);
    return buildReport({
      loaded: this.loaded,
      cluster: this.live,
      journal: this.journal,
      results: this.evaluate(),
      quizAnswers: this.quizAnswers,
      locale,
      ...(name ? { learner: name } : {}),
      startedAt: this.startedAt,
      submittedAt,
      seed: this.drawSeed,
      ...(this.startState ? { startState: this.startState } : {}),
    });
  }
}
