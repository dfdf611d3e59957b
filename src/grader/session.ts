/**
 * A learner's session on one lab: the cluster plus the journal that produced it. Hosts (the Web Worker,
 * the CLI) drive the cluster through a session so every command, editor save and pause is recorded
 * in order — the journal is what a grade report carries and what the instructor replays. A host that
 * runs commands on `session.cluster` directly breaks replay.
 */
import type { ExecResult, GradableCluster, LabEngine } from './engine-api.ts';
import { evaluateChecks } from './evaluate.ts';
import { applySolution, applyStep, historyOf, startLab, type JournalStep } from './lab-runtime.ts';
import type { Locale, LoadedLab } from './lab-schema.ts';
import type { TrafficProbes } from './probes.ts';
import { buildReport, startStateHash, type GradeReport } from './report.ts';
import type { CheckResult } from './result.ts';

export interface SessionOptions {
  readonly probes?: TrafficProbes;
}

export class LabSession<C extends GradableCluster = GradableCluster> {
  readonly loaded: LoadedLab;
  readonly cluster: C;
  private readonly engine: LabEngine<C>;
  private readonly probes: TrafficProbes | undefined;
  private readonly steps: JournalStep[] = [];
  private readonly answers: Record<string, string[]> = {};
  /** Fingerprint of the start state, recorded in reports (see `startStateHash`). */
  readonly startState: string;

  constructor(loaded: LoadedLab, engine: LabEngine<C>, opts: SessionOptions = {}) {
    this.loaded = loaded;
    this.engine = engine;
    this.probes = opts.probes;
    this.cluster = startLab(loaded, engine);
    this.startState = startStateHash(this.cluster);
  }

  /** Rebuilds a session from a saved journal (after a reload), by replaying it. */
  static resume<C extends GradableCluster>(
    loaded: LoadedLab,
    engine: LabEngine<C>,
    journal: readonly JournalStep[],
    quizAnswers: Readonly<Record<string, readonly string[]>> = {},
    opts: SessionOptions = {},
  ): LabSession<C> {
    const session = new LabSession(loaded, engine, opts);
    for (const step of journal) session.record(step);
    for (const [id, choices] of Object.entries(quizAnswers)) session.answer(id, choices);
    return session;
  }

  get journal(): readonly JournalStep[] {
    return this.steps;
  }

  get quizAnswers(): Readonly<Record<string, readonly string[]>> {
    return this.answers;
  }

  private record(step: JournalStep): ExecResult | undefined {
    this.steps.push(step);
    return applyStep(this.cluster, step);
  }

  /** Runs a line typed at the prompt. */
  exec(line: string): ExecResult {
    return this.record({ run: line })!;
  }

  /** A file saved from the editor. */
  writeFile(path: string, content: string): void {
    this.record({ write: path, content });
  }

  removeFile(path: string): void {
    this.record({ remove: path });
  }

  /** Simulated time the host lets pass outside commands (e.g. a "wait 30 s" button). */
  wait(ms: number): void {
    this.record({ wait: ms });
  }

  answer(checkId: string, choices: readonly string[]): void {
    this.answers[checkId] = [...new Set(choices)];
  }

  /** "Show me the solution": writes the solution files and runs its commands, recorded like any step. */
  solve(): void {
    this.steps.push(...applySolution(this.loaded, this.cluster));
  }

  /** The checks as the learner sees them (hidden ones redacted). */
  evaluate(): CheckResult[] {
    return evaluateChecks(
      this.loaded,
      this.cluster,
      { history: historyOf(this.steps), quizAnswers: this.answers },
      { engine: this.engine, ...(this.probes ? { probes: this.probes } : {}) },
    );
  }

  report(meta: {
    locale: Locale;
    learner?: string;
    startedAt: string;
    submittedAt: string;
    engineVersion?: string;
    /** The seed that drew this session's variant (labs with variants), recorded in the report. */
    seed?: number;
  }): GradeReport {
    return buildReport({
      loaded: this.loaded,
      cluster: this.cluster,
      journal: this.steps,
      results: this.evaluate(),
      quizAnswers: this.answers,
      startState: this.startState,
      ...meta,
    });
  }
}
