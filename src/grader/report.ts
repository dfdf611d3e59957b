/**
 * The grade report a learner downloads and an instructor re-grades. It records what the learner did
 * (the journal: every command line, editor save and pause, in order), their quiz answers, and — for
 * cross-checking only — the results, score, final files and cluster snapshot their browser computed.
 * The instructor CLI trusts none of the recorded outcomes: it replays the journal and compares.
 */
import { z } from 'zod';
import { canonicalJson, labContentHash, sha256Hex } from './content-hash.ts';
import type { GradableCluster } from './engine-api.ts';
import type { JournalStep } from './lab-runtime.ts';
import { LOCALES, type Locale, type LoadedLab } from './lab-schema.ts';
import { score, type CheckResult, type Score } from './result.ts';
import { drawVariant, MAX_DRAW_SEED, resolveVariant, variantIds } from './variants.ts';

export const REPORT_FORMAT = 'packetpath-grade-report';
export const REPORT_VERSION = 1;

/** Bounds that keep a hostile report from exhausting the grader (the engine bounds each file at 10 MB). */
export const MAX_JOURNAL_STEPS = 20_000;
const MAX_LINE = 100_000;

const MessageData = z.object({ key: z.string().max(200), params: z.record(z.string(), z.json()).optional() });

const ResultData = z.object({
  id: z.string().max(63),
  type: z.string().max(32),
  hidden: z.boolean(),
  redacted: z.boolean().optional(),
  status: z.enum(['pass', 'fail', 'error']),
  expected: MessageData.optional(),
  observed: MessageData.optional(),
  hop: MessageData.optional(),
});

export const JournalStepData = z.union([
  z.object({ run: z.string().max(MAX_LINE) }).strict(),
  z.object({ write: z.string().min(1).max(4096), content: z.string() }).strict(),
  z.object({ remove: z.string().min(1).max(4096) }).strict(),
  z
    .object({
      wait: z
        .number()
        .int()
        .nonnegative()
        .max(24 * 3600 * 1000),
    })
    .strict(),
]);

const isoTime = z
  .string()
  .regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/, 'an ISO 8601 timestamp');

export const GradeReportSchema = z
  .object({
    format: z.literal(REPORT_FORMAT),
    version: z.number().int(),
    lab: z
      .object({
        id: z.string().max(63),
        version: z.number().int(),
        contentHash: z.string().max(100),
        /** For a lab with variants: the one the learner played, and the seed that drew it (absent when picked by hand). */
        variant: z.string().max(63).optional(),
        seed: z.number().int().nonnegative().max(MAX_DRAW_SEED).optional(),
      })
      .strict(),
    engine: z
      .object({ version: z.string().max(50).optional(), startState: z.string().max(100).optional() })
      .strict()
      .optional(),
    locale: z.enum(LOCALES),
    learner: z.string().max(200).optional(),
    startedAt: isoTime,
    submittedAt: isoTime,
    score: z.object({ passed: z.number().int(), total: z.number().int(), percent: z.number() }).strict(),
    results: z.array(ResultData).max(1000),
    submission: z
      .object({
        journal: z.array(JournalStepData).max(MAX_JOURNAL_STEPS),
        files: z.record(z.string(), z.string()),
        quizAnswers: z.record(z.string(), z.array(z.string().max(63)).max(100)).default({}),
        snapshot: z.record(z.string(), z.unknown()),
      })
      .strict(),
  })
  .strict();
export type GradeReport = z.infer<typeof GradeReportSchema>;

export interface ReportInput {
  readonly loaded: LoadedLab;
  readonly cluster: GradableCluster;
  readonly journal: readonly JournalStep[];
  /** As the learner saw them (hidden checks redacted). */
  readonly results: readonly CheckResult[];
  readonly quizAnswers?: Readonly<Record<string, readonly string[]>>;
  readonly locale: Locale;
  readonly learner?: string;
  /** ISO 8601 times from the host's clock (the grader reads no clock). */
  readonly startedAt: string;
  readonly submittedAt: string;
  readonly engineVersion?: string;
  /** `startStateHash` of the lab's start cluster in the learner's engine: tells the re-grade whether the engines agree. */
  readonly startState?: string;
  /** The seed that drew `loaded.variant` (labs with variants). */
  readonly seed?: number;
}

/** A fingerprint of a cluster state: engines that build the same start state for a lab replay it the same way. */
export function startStateHash(cluster: GradableCluster): string {
  return `sha256:${sha256Hex(canonicalJson(cluster.snapshot()))}`;
}

export function buildReport(input: ReportInput): GradeReport {
  const { loaded, cluster } = input;
  const s: Score = score(input.results);
  const learner = input.learner?.trim();
  return {
    format: REPORT_FORMAT,
    version: REPORT_VERSION,
    lab: {
      id: loaded.lab.id,
      version: loaded.lab.version,
      contentHash: labContentHash(loaded),
      ...(loaded.variant ? { variant: loaded.variant.id } : {}),
      ...(loaded.variant && input.seed !== undefined ? { seed: input.seed } : {}),
    },
    ...(input.engineVersion || input.startState
      ? {
          engine: {
            ...(input.engineVersion ? { version: input.engineVersion } : {}),
            ...(input.startState ? { startState: input.startState } : {}),
          },
        }
      : {}),
    locale: input.locale,
    ...(learner ? { learner } : {}),
    startedAt: input.startedAt,
    submittedAt: input.submittedAt,
    score: { ...s },
    results: input.results.map((r) => JSON.parse(JSON.stringify(r)) as GradeReport['results'][number]),
    submission: {
      journal: input.journal.map((step) => ({ ...step })),
      files: cluster.files.toJSON(),
      quizAnswers: Object.fromEntries(Object.entries(input.quizAnswers ?? {}).map(([k, v]) => [k, [...v]])),
      snapshot: JSON.parse(JSON.stringify(cluster.snapshot())) as Record<string, unknown>,
    },
  };
}

export class ReportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReportError';
  }
}

/** Parses report JSON text; a ReportError's message is the one line the CLI prints for the file. */
/** Deeper than any honest report (a cluster snapshot nests about 20 levels). */
const MAX_DEPTH = 200;

/**
 * Whether a parsed JSON value nests deeper than `max`, checked without recursion. Only objects and
 * arrays are stacked, with their depths in a parallel stack: every report is walked whole, and a pair
 * per value made this walk cost half as much as parsing the report.
 */
function depthExceeds(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const values: object[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const v = values.pop()!;
    const d = depths.pop()!;
    if (d >= max) return true;
    if (Array.isArray(v)) {
      for (const child of v as unknown[]) {
        if (typeof child === 'object' && child !== null) {
          values.push(child);
          depths.push(d + 1);
        }
      }
      continue;
    }
    // for…in: JSON.parse makes plain objects, with no inherited enumerable keys.
    const o = v as Record<string, unknown>;
    for (const k in o) {
      const child = o[k];
      if (typeof child === 'object' && child !== null) {
        values.push(child);
        depths.push(d + 1);
      }
    }
  }
  return false;
}

export function parseReport(text: string): GradeReport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ReportError('not a Packet Path grade report (not JSON)');
  }
  const head = z.object({ format: z.literal(REPORT_FORMAT), version: z.unknown() }).safeParse(data);
  if (!head.success) throw new ReportError('not a Packet Path grade report');
  // Validation, hashing and comparison all recurse: a hand-made 10,000-deep value would overflow the stack.
  if (depthExceeds(data, MAX_DEPTH))
    throw new ReportError(`malformed grade report: nested deeper than ${MAX_DEPTH} levels`);
  if (head.data.version !== REPORT_VERSION) {
    throw new ReportError(
      `unsupported report version ${JSON.stringify(head.data.version)} (this grader reads version ${REPORT_VERSION})`,
    );
  }
  const result = GradeReportSchema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const path = issue.path
      .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
      .join('')
      .replace(/^\./, '');
    throw new ReportError(`malformed grade report: ${path || '(root)'}: ${issue.message}`);
  }
  // zod builds records by assignment, which drops a `__proto__` key: a file a learner may name so. Put
  // it back as an own property, or the honest report would differ from its replay.
  const files = (data as { submission: { files: Record<string, string> } }).submission.files;
  if (Object.hasOwn(files, '__proto__')) {
    Object.defineProperty(result.data.submission.files, '__proto__', {
      value: files['__proto__'],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return result.data;
}

/**
 * The lab a report is graded against: the lab itself, or for a lab with variants the variant the report
 * names, which must exist and be the one its seed draws (a variant edited by hand is caught here; the
 * content hash, which covers the variant, catches the rest).
 */
export function labForReport(loaded: LoadedLab, report: GradeReport): LoadedLab {
  const { lab } = loaded;
  const id = report.lab.variant;
  if (!lab.variants) {
    if (id !== undefined && loaded.variant?.id !== id)
      throw new ReportError(
        loaded.variant
          ? `report is for variant "${id}", not "${loaded.variant.id}"`
          : `report names variant "${id}", but lab ${lab.id} has no variants`,
      );
    return loaded;
  }
  const ids = variantIds(lab);
  if (id === undefined)
    throw new ReportError(`report names no variant; lab ${lab.id} has variants (${ids.join(', ')})`);
  if (!ids.includes(id))
    throw new ReportError(`lab ${lab.id} has no variant "${id}" (variants: ${ids.join(', ')})`);
  const seed = report.lab.seed;
  if (seed !== undefined && drawVariant(lab, seed) !== id)
    throw new ReportError(`seed ${seed} draws variant "${drawVariant(lab, seed)}", not "${id}"`);
  return resolveVariant(loaded, id);
}

/** Checks the report was made with this very lab: same id, same version, same content. */
export function assertReportForLab(report: GradeReport, loaded: LoadedLab): void {
  if (report.lab.id !== loaded.lab.id)
    throw new ReportError(`report is for lab ${report.lab.id}, not ${loaded.lab.id}`);
  if (loaded.lab.variants)
    throw new ReportError(`lab ${loaded.lab.id} has variants: grade against labForReport's variant`);
  if (report.lab.variant !== loaded.variant?.id)
    throw new ReportError(
      `report is for variant ${report.lab.variant ?? '(none)'}, not ${loaded.variant?.id ?? '(none)'}`,
    );
  if (report.lab.version !== loaded.lab.version) {
    throw new ReportError(`lab version ${report.lab.version} does not match ${loaded.lab.version}`);
  }
  if (report.lab.contentHash !== labContentHash(loaded)) throw new ReportError('content hash mismatch');
}
