/**
 * The lab format: `labs/<id>/lab.yaml` plus `start/` (the learner's starting files) and `solution/`
 * (files the solution writes). A lab is pure data — no functions — so it can be validated, shipped to
 * the browser, replayed by the instructor CLI and diffed in review. Every text a learner reads is a
 * Localized pair; terminal commands stay as typed. `npm run lab-schema` writes the JSON Schema
 * (`lab.schema.json`) editors use to check lab.yaml files.
 */
import { z } from 'zod';
import { Check } from './check-schema.ts';
import { Localized, slug } from './localized.ts';

export { LOCALES, Localized, isLocale, type Locale } from './localized.ts';
export { Check, type CheckType, type CheckOf } from './check-schema.ts';

const commandLine = z.string().min(1).describe('One shell line, as typed at the lab terminal.');

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
    solution: z
      .object({ commands: z.array(commandLine).min(1) })
      .strict()
      .describe('Lines that solve the lab from its start state; the files in solution/ are written first.'),
  })
  .strict()
  .superRefine((lab, ctx) => {
    const seen = new Set<string>();
    lab.checks.forEach((c, i) => {
      if (seen.has(c.id))
        ctx.addIssue({ code: 'custom', path: ['checks', i, 'id'], message: `duplicate check id "${c.id}"` });
      seen.add(c.id);
    });
  })
  .describe('A Packet Path lab (labs/<id>/lab.yaml).');
export type Lab = z.infer<typeof Lab>;

/** A lab as loaded: the validated lab.yaml plus its start and solution files (paths relative to the folder). */
export interface LoadedLab {
  readonly lab: Lab;
  readonly startFiles: Readonly<Record<string, string>>;
  readonly solutionFiles: Readonly<Record<string, string>>;
}

/** The JSON Schema editors use for lab.yaml (input shape: fields with defaults are optional). */
export function labJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(Lab, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
}
