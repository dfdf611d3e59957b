/**
 * Starting a lab, solving it, and the steps a learner's session is made of. A session is a journal of
 * steps — a command line, a file saved from the editor, a file deleted, simulated time let pass — and
 * the cluster is a pure function of (lab, journal): the engine is seeded and its clock only moves when
 * told. That is what lets the instructor CLI replay a report instead of trusting it.
 */
import type { LoadedLab } from './lab-schema.ts';
import type { ExecResult, GradableCluster, LabEngine } from './engine-api.ts';

/** One thing the learner did, in order. Lines run as typed at the prompt (interactive). */
export type JournalStep =
  | { readonly run: string }
  | { readonly write: string; readonly content: string }
  | { readonly remove: string }
  | { readonly wait: number };

/** createCluster from the lab's definition and seed with the start files, then the setup lines (output discarded). */
export function startLab<C extends GradableCluster>(loaded: LoadedLab, engine: LabEngine<C>): C {
  const { lab } = loaded;
  // A lab with variants has no start state of its own: each variant's is its own (resolveVariant).
  if (lab.variants) throw new Error(`lab ${lab.id} has variants: start one of them (resolveVariant)`);
  const cluster = engine.createCluster(lab.cluster, { seed: lab.seed, files: { ...loaded.startFiles } });
  for (const line of lab.setup) cluster.execSync(line, { interactive: false });
  return cluster;
}

/** Applies one journal step. Returns the command's result for `run` steps. */
export function applyStep(cluster: GradableCluster, step: JournalStep): ExecResult | undefined {
  if ('run' in step) return cluster.execSync(step.run, { interactive: true });
  if ('write' in step) cluster.files.write(step.write, step.content);
  else if ('remove' in step) cluster.files.remove(step.remove);
  else cluster.tick(step.wait);
  return undefined;
}

/** The journal that solves the lab: the solution files written, then the solution commands. */
export function solutionJournal(loaded: LoadedLab): JournalStep[] {
  const files = Object.keys(loaded.solutionFiles).sort();
  return [
    ...files.map((path) => ({ write: path, content: loaded.solutionFiles[path]! })),
    ...(loaded.lab.solution?.commands ?? []).map((run) => ({ run })),
  ];
}

/** Writes the solution files and runs the solution commands; returns the steps applied (for the journal). */
export function applySolution(loaded: LoadedLab, cluster: GradableCluster): JournalStep[] {
  const steps = solutionJournal(loaded);
  for (const step of steps) applyStep(cluster, step);
  return steps;
}

/** The learner's command lines, for `history` checks. */
export function historyOf(journal: readonly JournalStep[]): string[] {
  return journal.flatMap((s) => ('run' in s ? [s.run] : []));
}
