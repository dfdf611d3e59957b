/**
 * Replays a lab's fairness cases (fairness-schema.ts): every alternative must pass every check, hidden
 * ones included; every near miss must fail the check it names, with a message that names its mistake
 * in both languages. A case that does neither is a grading the learner would find unfair (a right
 * answer rejected) or a corner cut that earns the grade (a wrong answer accepted).
 */
import type { GradableCluster, LabEngine } from './engine-api.ts';
import { evaluateChecks } from './evaluate.ts';
import type { Fairness, FairnessCase, FairnessStep } from './fairness-schema.ts';
import { MIN_CASES } from './fairness-schema.ts';
import { applyStep, historyOf, startLab, type JournalStep } from './lab-runtime.ts';
import { LOCALES, type Check, type LoadedLab } from './lab-schema.ts';
import { formatMessage } from './messages/format.ts';
import type { TrafficProbes } from './probes.ts';
import type { CheckResult } from './result.ts';
import { correctAnswers } from './validate.ts';
import { resolveVariant, variantIds } from './variants.ts';

export interface FairnessCounts {
  readonly alternatives: number;
  readonly nearMisses: number;
  /** Cases graded otherwise than intended (each also has an error line). */
  readonly wrong: number;
}

export interface FairnessValidation {
  readonly errors: string[];
  readonly counts: FairnessCounts;
}

function quizAnswers(checks: readonly Check[], own: FairnessCase['quiz']): Record<string, string[]> {
  return { ...correctAnswers(checks), ...own };
}

/** The check's whole message in one locale: what it wants, what it saw, the hop that decided. */
export function resultText(r: CheckResult, locale: (typeof LOCALES)[number]): string {
  return [r.expected, r.observed, ...(r.hop ? [r.hop] : [])].map((m) => formatMessage(locale, m)).join(' — ');
}

/** Plays a case from the lab's start state; an edit of text that is not in the file is an author error. */
export function playCase(
  loaded: LoadedLab,
  engine: LabEngine,
  steps: readonly FairnessStep[],
): { cluster: GradableCluster; journal: JournalStep[] } {
  const cluster = startLab(loaded, engine);
  const journal: JournalStep[] = [];
  for (const step of steps) {
    let j: JournalStep;
    if ('edit' in step) {
      const text = cluster.files.toJSON()[step.edit];
      if (text === undefined) throw new Error(`edit: no file ${step.edit}`);
      if (!text.includes(step.replace)) throw new Error(`edit ${step.edit}: text not found: ${step.replace}`);
      j = { write: step.edit, content: text.split(step.replace).join(step.with) };
    } else j = step;
    journal.push(j);
    applyStep(cluster, j);
  }
  return { cluster, journal };
}

function gradeCase(
  loaded: LoadedLab,
  engine: LabEngine,
  c: FairnessCase,
  probes: TrafficProbes | undefined,
): CheckResult[] {
  const { cluster, journal } = playCase(loaded, engine, c.steps);
  return evaluateChecks(
    loaded,
    cluster,
    { history: historyOf(journal), quizAnswers: quizAnswers(loaded.lab.checks, c.quiz) },
    { engine, revealHidden: true, ...(probes ? { probes } : {}) },
  );
}

/** What is wrong with one case's grading ([] when it is graded as intended). */
function judge(c: FairnessCase, results: readonly CheckResult[]): string[] {
  if (!('fails' in c)) {
    return results
      .filter((r) => r.status !== 'pass')
      .map(
        (r) =>
          `alternative "${c.id}" (${c.says}): check "${r.id}" ${r.status === 'fail' ? 'fails' : 'cannot be evaluated'}: ${resultText(r, 'en')}`,
      );
  }
  const errors = results
    .filter((r) => r.status === 'error')
    .map((r) => `near miss "${c.id}": check "${r.id}" cannot be evaluated: ${resultText(r, 'en')}`);
  const target = results.find((r) => r.id === c.fails);
  if (!target) return [...errors, `near miss "${c.id}": no check "${c.fails}" in the lab`];
  if (target.status === 'pass') {
    const others = results.filter((r) => r.status === 'fail').map((r) => r.id);
    return [
      ...errors,
      `near miss "${c.id}" (${c.says}): check "${c.fails}" passes${others.length ? ` (failing: ${others.join(', ')})` : ' (every check passes)'}`,
    ];
  }
  for (const locale of LOCALES) {
    const text = resultText(target, locale).toLowerCase();
    const missing = c.mentions.filter((m) => !text.includes(m.toLowerCase()));
    if (missing.length)
      errors.push(
        `near miss "${c.id}": the message of "${c.fails}" (${locale}) does not name ${missing.map((m) => `"${m}"`).join(', ')}: ${resultText(target, locale)}`,
      );
  }
  return errors;
}

export function validateFairness(
  loaded: LoadedLab,
  fairness: Fairness,
  engine: LabEngine,
  opts: { probes?: TrafficProbes } = {},
): FairnessValidation {
  const errors: string[] = [];
  const variants = variantIds(loaded.lab);
  const cases: FairnessCase[] = [...fairness.alternatives, ...fairness.nearMisses];
  const groups = variants.length === 0 ? [undefined] : variants;
  for (const v of groups) {
    const mine = cases.filter((c) => c.variant === v);
    const where = v === undefined ? '' : `variant "${v}": `;
    const alts = mine.filter((c) => !('fails' in c)).length;
    const misses = mine.length - alts;
    if (alts < MIN_CASES) errors.push(`fairness: ${where}${alts} alternatives, at least ${MIN_CASES} wanted`);
    if (misses < MIN_CASES)
      errors.push(`fairness: ${where}${misses} near misses, at least ${MIN_CASES} wanted`);
  }
  for (const c of cases.filter((x) => x.variant !== undefined && !variants.includes(x.variant)))
    errors.push(`fairness: case "${c.id}": no variant "${c.variant}" in the lab`);
  if (variants.length > 0)
    for (const c of cases.filter((x) => x.variant === undefined))
      errors.push(`fairness: case "${c.id}": the lab has variants, say which one it plays`);
  let wrong = 0;
  for (const c of cases) {
    if (variants.length > 0 && (c.variant === undefined || !variants.includes(c.variant))) continue;
    const lab = c.variant === undefined ? loaded : resolveVariant(loaded, c.variant);
    let problems: string[];
    try {
      problems = judge(c, gradeCase(lab, engine, c, opts.probes));
    } catch (e) {
      problems = [`case "${c.id}": replaying it failed: ${(e as Error).message}`];
    }
    if (problems.length) wrong++;
    errors.push(...problems.map((p) => `fairness: ${p}`));
  }
  return {
    errors,
    counts: {
      alternatives: fairness.alternatives.length,
      nearMisses: fairness.nearMisses.length,
      wrong,
    },
  };
}
