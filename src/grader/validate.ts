/**
 * `packetpath lab validate`: what makes a lab shippable, beyond its schema. The start state must fail
 * at least one check (otherwise the lab is solved before the learner starts), the solution must pass
 * every check (as learnGitBranching replays each level's solution), every predicate must exist and
 * accept its params, and the cluster definition must boot. Messages are for lab authors (English).
 */
import { parseClusterConfig, type LabEngine } from './engine-api.ts';
import { evaluateChecks } from './evaluate.ts';
import { applySolution, historyOf, solutionJournal, startLab } from './lab-runtime.ts';
import type { Check, LoadedLab, Localized } from './lab-schema.ts';
import { formatMessage } from './messages/format.ts';
import { PREDICATES } from './predicates/index.ts';
import type { TrafficProbes } from './probes.ts';
import type { CheckResult } from './result.ts';
import { resolveVariant, variantIds } from './variants.ts';

export interface LabValidation {
  readonly errors: string[];
  readonly warnings: string[];
}

function describe(r: CheckResult): string {
  return `${formatMessage('en', r.expected)} — observed: ${formatMessage('en', r.observed)}`;
}

/** The answers that solve the lab's quizzes. */
export function correctAnswers(checks: readonly Check[]): Record<string, string[]> {
  return Object.fromEntries(checks.flatMap((c) => (c.type === 'quiz' ? [[c.id, [...c.answer]]] : [])));
}

function untranslated(loaded: LoadedLab): string[] {
  const { lab } = loaded;
  const texts: [string, Localized][] = [
    ...(loaded.variant ? [['variant title', loaded.variant.title] as [string, Localized]] : []),
    ['title', lab.title],
    ['summary', lab.summary],
    ...lab.steps.map((s, i): [string, Localized] => [`steps[${i}]`, s]),
    ...lab.hints.map((s, i): [string, Localized] => [`hints[${i}]`, s]),
    ...lab.checks.map((c, i): [string, Localized] => [`checks[${i}].title`, c.title]),
  ];
  // Identical text in both languages is fine for a command or a name, suspicious for a sentence.
  return texts
    .filter(
      ([, t]) =>
        t['pt-BR'] === t.en &&
        t.en
          .replace(/`[^`]*`/g, '')
          .trim()
          .split(/\s+/).length > 3,
    )
    .map(([where]) => `${where}: the pt-BR and en texts are identical (not translated?)`);
}

/**
 * A lab with variants is valid when every variant is: each one's start fails a check and its own
 * solution passes them all. Problems are prefixed with the variant (`variants[dns]: start: …`).
 */
function validateVariants(
  loaded: LoadedLab,
  engine: LabEngine,
  opts: { probes?: TrafficProbes },
): LabValidation {
  const errors: string[] = [];
  const warnings: string[] = [];
  const ids = variantIds(loaded.lab);
  const seen = new Map<string, string[]>();
  for (const id of ids) {
    const r = validateLab(resolveVariant(loaded, id), engine, opts);
    errors.push(...r.errors.map((e) => `variants[${id}]: ${e}`));
    for (const w of r.warnings) seen.set(w, [...(seen.get(w) ?? []), id]);
  }
  // A warning about a shared text comes back from every variant: say it once.
  for (const [w, where] of seen)
    warnings.push(...(where.length === ids.length ? [w] : where.map((id) => `variants[${id}]: ${w}`)));
  return { errors, warnings };
}

export function validateLab(
  loaded: LoadedLab,
  engine: LabEngine,
  opts: { probes?: TrafficProbes } = {},
): LabValidation {
  if (loaded.lab.variants) return validateVariants(loaded, engine, opts);
  const { lab } = loaded;
  const errors: string[] = [];
  const warnings = untranslated(loaded);
  if (lab.cluster !== undefined) {
    try {
      parseClusterConfig(lab.cluster);
    } catch (e) {
      errors.push(`cluster: ${(e as Error).message}`);
      return { errors, warnings };
    }
  }
  lab.checks.forEach((c, i) => {
    if (c.type !== 'predicate') return;
    const p = Object.hasOwn(PREDICATES, c.predicate) ? PREDICATES[c.predicate] : undefined;
    if (!p)
      errors.push(
        `checks[${i}].predicate: no predicate named "${c.predicate}" in src/grader/predicates/index.ts`,
      );
    else {
      const parsed = p.params.safeParse(c.params);
      if (!parsed.success)
        errors.push(
          `checks[${i}].params: ${parsed.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`,
        );
    }
  });
  for (const path of Object.keys(loaded.solutionFiles)) {
    if (!(lab.solution?.commands ?? []).some((cmd) => cmd.includes(path.split('/')[0]!))) {
      warnings.push(`solution/${path}: no solution command mentions it (is it applied?)`);
    }
  }
  const evalOpts = { engine, revealHidden: true, ...(opts.probes ? { probes: opts.probes } : {}) };
  let startResults: CheckResult[];
  try {
    const start = startLab(loaded, engine);
    startResults = evaluateChecks(loaded, start, { history: [] }, evalOpts);
  } catch (e) {
    errors.push(`start: the lab does not start: ${(e as Error).message}`);
    return { errors, warnings };
  }
  if (startResults.every((r) => r.status === 'pass')) {
    errors.push('start: every check already passes before the learner does anything');
  }
  try {
    const solved = startLab(loaded, engine);
    applySolution(loaded, solved);
    const results = evaluateChecks(
      loaded,
      solved,
      { history: historyOf(solutionJournal(loaded)), quizAnswers: correctAnswers(lab.checks) },
      evalOpts,
    );
    for (const r of results) {
      if (r.status === 'fail') errors.push(`solution: check "${r.id}" fails: ${describe(r)}`);
      if (r.status === 'error')
        errors.push(`solution: check "${r.id}" cannot be evaluated: ${formatMessage('en', r.observed)}`);
    }
  } catch (e) {
    errors.push(`solution: replaying the solution failed: ${(e as Error).message}`);
  }
  return { errors, warnings };
}
