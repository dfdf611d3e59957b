/**
 * A re-graded cohort, as every export reads it: the lab's checks (with titles in both languages) and
 * one entry per report, graded or not. The CLI and the instructor page build it from the same
 * grader; the exports (gradebook.ts, report-html.ts) only format it, never decide a verdict.
 */
import { formatMessage } from '../messages/format.ts';
import type { Locale, LoadedLab } from '../lab-schema.ts';
import type { CheckResult, Score } from '../result.ts';
import { resolveVariant, variantIds } from '../variants.ts';
import { looksLikeEmail, nameKey, type Identity, type Roster } from './roster.ts';

export interface CohortCheck {
  readonly id: string;
  readonly title: Readonly<Record<Locale, string>>;
  readonly hidden: boolean;
  /** For a lab with variants: the variant this check belongs to (absent for the shared checks). */
  readonly variant?: string;
}

export interface CohortLab {
  readonly id: string;
  readonly version: number;
  readonly title: Readonly<Record<Locale, string>>;
  readonly checks: readonly CohortCheck[];
  /** Variant ids of a lab with variants, in lab order. */
  readonly variants: readonly string[];
}

export interface CohortEntry {
  readonly file: string;
  readonly learner: string | undefined;
  readonly submittedAt: string | undefined;
  /** ok: graded, nothing odd; flagged: graded, but the report disagrees with its replay; invalid: not graded. */
  readonly status: 'ok' | 'flagged' | 'invalid';
  readonly score: Score | undefined;
  readonly variant?: string;
  readonly results: readonly CheckResult[];
  readonly problems: readonly string[];
  readonly notes: readonly string[];
}

export interface Cohort {
  readonly lab: CohortLab;
  readonly entries: readonly CohortEntry[];
}

/** The lab's checks: the shared ones, then each variant's own, once each. */
export function cohortLab(loaded: LoadedLab): CohortLab {
  const { lab } = loaded;
  const checks: CohortCheck[] = [];
  const seen = new Set<string>();
  const add = (l: LoadedLab, variant?: string) => {
    for (const c of l.lab.checks) {
      if (seen.has(c.id)) continue;
      seen.add(c.id);
      checks.push({
        id: c.id,
        // The instructor sees every check's own title; learners see hidden ones as "a hidden check".
        title: { 'pt-BR': c.title['pt-BR'], en: c.title.en },
        hidden: c.hidden,
        ...(variant !== undefined ? { variant } : {}),
      });
    }
  };
  // A lab with variants lists its shared checks itself; each variant adds its own.
  add(loaded);
  const ids = variantIds(lab);
  for (const id of ids) add(resolveVariant(loaded, id), id);
  return { id: lab.id, version: lab.version, title: lab.title, checks, variants: ids };
}

/** Why a check did not pass, in one line: what the grader saw, and the hop that decided it. */
export function explanation(result: CheckResult, locale: Locale): string {
  const observed = formatMessage(locale, result.observed);
  return result.hop ? `${observed} — ${formatMessage(locale, result.hop)}` : observed;
}

/** A graded learner as a gradebook row takes them: who, and the one report that counts. */
export interface GradebookLearner {
  readonly identity: Identity;
  readonly entry: CohortEntry & { readonly score: Score };
}

export interface Gradebook {
  readonly learners: readonly GradebookLearner[];
  /** One line each: a report left out, or a choice made between two reports (printed by the CLI). */
  readonly warnings: readonly string[];
}

/**
 * The learners a gradebook gets: graded reports only; with a roster, the learner's roster identity
 * (a name not on it is left out, with a warning); without one, the name as typed (an e-mail typed as
 * the name is used as the e-mail). A learner with several reports counts once, by the latest submitted.
 */
export function gradebook(cohort: Cohort, roster?: Roster): Gradebook {
  const warnings: string[] = [];
  const byLearner = new Map<string, { learner: GradebookLearner; files: string[] }>();
  for (const entry of cohort.entries) {
    // An invalid report has no grade; the reason is the report's own problem line.
    if (entry.status === 'invalid' || entry.score === undefined) continue;
    if (entry.learner === undefined) {
      warnings.push(`${entry.file}: the report names no learner: left out of the gradebook`);
      continue;
    }
    let identity: Identity | undefined;
    if (roster) {
      identity = roster.find(entry.learner);
      if (!identity) {
        warnings.push(
          `${entry.file}: learner "${entry.learner}" is not in the roster: left out of the gradebook`,
        );
        continue;
      }
    } else {
      identity = looksLikeEmail(entry.learner)
        ? { name: entry.learner, email: entry.learner }
        : { name: entry.learner };
    }
    const key = nameKey(identity.name);
    const graded = { identity, entry: { ...entry, score: entry.score } };
    const prior = byLearner.get(key);
    if (!prior) {
      byLearner.set(key, { learner: graded, files: [entry.file] });
      continue;
    }
    prior.files.push(entry.file);
    // ISO 8601 times from the same kind of clock compare as text; a tie keeps the later file.
    if ((entry.submittedAt ?? '') >= (prior.learner.entry.submittedAt ?? '')) prior.learner = graded;
  }
  for (const { learner, files } of byLearner.values()) {
    if (files.length > 1)
      warnings.push(
        `learner "${learner.identity.name}" has ${files.length} reports (${files.join(', ')}): the gradebook takes the latest submitted, ${learner.entry.file}`,
      );
  }
  return { learners: [...byLearner.values()].map((v) => v.learner), warnings };
}
