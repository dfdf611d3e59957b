/**
 * The lab format: `labs/<id>/lab.yaml` plus `start/` (the learner's starting files) and `solution/`
 * (files the solution writes). A lab is pure data — no functions — so it can be validated, shipped to
 * the browser, replayed by the instructor CLI and diffed in review. Every text a learner reads is a
 * Localized pair; terminal commands stay as typed. `node src/grader/node/write-json-schema.ts` writes
 * the JSON Schema (`lab.schema.json`) editors use to check lab.yaml files.
 *
 * A lab may come in `variants`: one story, several faults (the capstone draws one per learner). The
 * lab's own setup builds the shared system and each variant's setup then breaks it; a variant's files
 * (`variants/<id>/start/`, `variants/<id>/solution/`) replace the lab's files of the same path; its
 * checks and hints come after the shared ones. `resolveVariant` (variants.ts) turns such a lab into
 * the plain lab of one variant, so everything downstream (start, grade, report) sees one fault.
 */
import { z } from 'zod';
import { Check } from './check-schema.ts';
import { Localized, slug } from './localized.ts';

export { LOCALES, Localized, isLocale, type Locale } from './localized.ts';
export { Check, type CheckType, type CheckOf } from './check-schema.ts';

const commandLine = z.string().min(1).describe('One shell line, as typed at the lab terminal.');

const Solution = z
  .object({ commands: z.array(commandLine).min(1) })
  .strict()
  .describe('Lines that solve the lab from its start state; the files in solution/ are written first.');

export const Variant = z
  .object({
    id: slug.describe('Stable: grade reports and saved progress name it (dns, kube-proxy).'),
    title: Localized.describe('Names the fault; shown to the learner only once the lab is passed.'),
    setup: z
      .array(commandLine)
      .default([])
      .describe(
        "Lines run after the lab's setup (which builds the shared system): they inject this variant's fault.",
      ),
    checks: z
      .array(Check)
      .default([])
      .describe("Checks for this variant only, listed after the lab's checks."),
    hints: z
      .array(Localized)
      .max(3)
      .default([])
      .describe("Hints for this variant only, shown after the lab's three."),
    solution: Solution.describe(
      "Lines that solve this variant from its start state; the lab's solution/ then variants/<id>/solution/ files are written first.",
    ),
  })
  .strict()
  .describe(
    'One fault of a lab with variants; its files live in variants/<id>/start/ and variants/<id>/solution/.',
  );
export type Variant = z.infer<typeof Variant>;

export const Lab = z
  .object({
    $schema: z
      .string()
      .optional()
      .describe('Path or URL of lab.schema.json, for editors. Ignored by the grader.'),
    id: slug.describe(
      'Equals the folder name: a number prefix for order, then an English slug (03-service-endpoints).',
    ),
    version: z.number().int().positive().describe('Bump when checks change: grade reports carry it.'),
    title: Localized,
    summary: Localized.describe('One or two sentences for the lab list.'),
    cluster: z
      .string()
      .min(1)
      .optional()
      .describe(
        'A kind Cluster definition (YAML text) with an optional packetpath: block; the default cluster when left out.',
      ),
    seed: z
      .number()
      .int()
      .nonnegative()
      .default(1)
      .describe('Seeds the simulator: same seed, same pod names and IPs.'),
    setup: z
      .array(commandLine)
      .default([])
      .describe(
        'Lines run after the start files are written and before the learner starts (e.g. to inject a fault); their output is not shown.',
      ),
    steps: z.array(Localized).min(1).describe('What to do, in order (Markdown).'),
    checks: z
      .array(Check)
      .min(1)
      .describe('What must hold at the end; the checks panel lists them in this order.'),
    hints: z.array(Localized).length(3).describe('Progressive hints: a nudge, a pointer, nearly the answer.'),
    solution: Solution.optional().describe(
      'Lines that solve the lab from its start state; the files in solution/ are written first. Required unless the lab has variants (each carries its own).',
    ),
    variants: z
      .array(Variant)
      .min(2)
      .optional()
      .describe(
        'Faults drawn per learner (a deterministic function of their seed and the lab id); the shared texts and checks apply to all.',
      ),
  })
  .strict()
  .superRefine((lab, ctx) => {
    const seen = new Set<string>();
    lab.checks.forEach((c, i) => {
      if (seen.has(c.id))
        ctx.addIssue({ code: 'custom', path: ['checks', i, 'id'], message: `duplicate check id "${c.id}"` });
      seen.add(c.id);
    });
    if (lab.variants === undefined && lab.solution === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['solution'],
        message: 'required (or variants, each with its own)',
      });
    if (lab.variants !== undefined && lab.solution !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['solution'],
        message: 'a lab with variants has no shared solution: each variant carries its own',
      });
    const variantIds = new Set<string>();
    lab.variants?.forEach((v, i) => {
      if (variantIds.has(v.id))
        ctx.addIssue({
          code: 'custom',
          path: ['variants', i, 'id'],
          message: `duplicate variant id "${v.id}"`,
        });
      variantIds.add(v.id);
      v.checks.forEach((c, j) => {
        if (seen.has(c.id))
          ctx.addIssue({
            code: 'custom',
            path: ['variants', i, 'checks', j, 'id'],
            message: `check id "${c.id}" is already a shared check id`,
          });
      });
      const own = new Set<string>();
      v.checks.forEach((c, j) => {
        if (own.has(c.id))
          ctx.addIssue({
            code: 'custom',
            path: ['variants', i, 'checks', j, 'id'],
            message: `duplicate check id "${c.id}"`,
          });
        own.add(c.id);
      });
    });
  })
  .describe('A Packet Path lab (labs/<id>/lab.yaml).');
export type Lab = z.infer<typeof Lab>;

/** A variant's own files, keyed like the lab's (relative to variants/<id>/start/ and variants/<id>/solution/). */
export interface VariantFiles {
  readonly startFiles: Readonly<Record<string, string>>;
  readonly solutionFiles: Readonly<Record<string, string>>;
}

/** A lab as loaded: the validated lab.yaml plus its start and solution files (paths relative to the folder). */
export interface LoadedLab {
  readonly lab: Lab;
  readonly startFiles: Readonly<Record<string, string>>;
  readonly solutionFiles: Readonly<Record<string, string>>;
  /** Per variant id, the files under variants/<id>/ (labs with variants only). */
  readonly variantFiles?: Readonly<Record<string, VariantFiles>>;
  /** Set by `resolveVariant`: the lab is one variant's plain lab (no `variants` left in `lab`); `of` lists every variant id. */
  readonly variant?: { readonly id: string; readonly title: Localized; readonly of: readonly string[] };
}

/** The JSON Schema editors use for lab.yaml (input shape: fields with defaults are optional). */
export function labJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(Lab, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
}
