/**
 * The lab format: `labs/<id>/lab.yaml` plus `start/` (the learner's starting files) and `solution/`
 * (files the solution replaces). A lab is pure data — no functions — so it can be validated, shipped
 * to the browser, replayed by the instructor CLI and diffed in review. Every text a learner reads is a
 * Localized pair; terminal commands stay as typed.
 */
import { z } from 'zod';

export const LOCALES = ['pt-BR', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

const nonEmpty = z.string().trim().min(1);

export const Localized = z
  .object({ 'pt-BR': nonEmpty, en: nonEmpty })
  .strict()
  .describe('A text in both course languages.');
export type Localized = z.infer<typeof Localized>;

const slug = z
  .string()
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a lowercase slug (a-z, 0-9, -)')
  .describe('A stable identifier: lowercase letters, digits and dashes.');

const resourceType = z.string().min(1).describe('A resource type as kubectl takes it: pods, svc, deployments.apps…');

/** Which pod a traffic or DNS check starts from. */
const PodRef = z
  .object({
    namespace: slug.default('default'),
    pod: z.string().optional().describe('A pod name.'),
    selector: z.string().optional().describe('A label selector in kubectl -l syntax; the first matching pod, by name.'),
  })
  .strict()
  .refine((p) => (p.pod === undefined) !== (p.selector === undefined), 'give exactly one of pod or selector');

const checkBase = {
  id: slug,
  title: Localized.describe('What the learner must achieve, shown in the checks panel.'),
  hidden: z
    .boolean()
    .default(false)
    .describe('Evaluated like the others, but shown only as "a hidden probe failed" so over-broad fixes do not pass.'),
};

export const Check = z.discriminatedUnion('type', [
  z
    .object({
      ...checkBase,
      type: z.literal('resource'),
      resource: resourceType,
      namespace: z.string().optional(),
      name: z.string().optional(),
      selector: z.string().optional(),
      exists: z.boolean().default(true),
      count: z.object({ min: z.number().int().nonnegative().optional(), max: z.number().int().nonnegative().optional() }).strict().optional(),
    })
    .strict(),
  z
    .object({
      ...checkBase,
      type: z.literal('field'),
      resource: resourceType,
      namespace: z.string().optional(),
      name: z.string(),
      path: z.string().describe('A kubectl JSONPath, e.g. {.spec.type}.'),
      equals: z.json().optional(),
      matches: z.string().optional().describe('A regular expression the value (as text) must match.'),
    })
    .strict()
    .refine((c) => c.equals !== undefined || c.matches !== undefined, 'give equals or matches'),
  z
    .object({
      ...checkBase,
      type: z.literal('endpoints'),
      namespace: z.string().default('default'),
      service: z.string(),
      minReady: z.number().int().nonnegative().default(1),
      maxReady: z.number().int().nonnegative().optional(),
    })
    .strict(),
  z
    .object({
      ...checkBase,
      type: z.literal('reachability'),
      from: PodRef,
      to: z.string().describe('A Service or host name, an IP:port, or a URL (http://api:8080/path).'),
      port: z.number().int().min(1).max(65535).optional(),
      protocol: z.enum(['TCP', 'UDP']).default('TCP'),
      expect: z.enum(['allowed', 'blocked', 'refused']),
    })
    .strict(),
  z
    .object({
      ...checkBase,
      type: z.literal('dns'),
      from: PodRef,
      name: z.string(),
      expect: z
        .object({
          resolves: z.boolean().default(true),
          answers: z.array(z.string()).optional().describe('Addresses the answer must contain.'),
          maxQueries: z.number().int().positive().optional().describe('At most this many queries reach CoreDNS.'),
        })
        .strict(),
    })
    .strict(),
  z
    .object({
      ...checkBase,
      type: z.literal('output'),
      command: z.string().describe('A line run in the lab shell when checking (it does not enter the learner history).'),
      contains: z.string().optional(),
      matches: z.string().optional(),
      exitCode: z.number().int().optional(),
    })
    .strict(),
  z
    .object({
      ...checkBase,
      type: z.literal('history'),
      matches: z.string().describe('A regular expression one of the learner commands must match.'),
    })
    .strict(),
  z
    .object({
      ...checkBase,
      type: z.literal('quiz'),
      question: Localized,
      choices: z.array(z.object({ id: slug, text: Localized }).strict()).min(2),
      answer: z.array(slug).min(1).describe('The ids of the correct choices.'),
      multiple: z.boolean().default(false),
    })
    .strict(),
  z
    .object({
      ...checkBase,
      type: z.literal('predicate'),
      predicate: slug.describe('The name of a TypeScript predicate registered in src/grader/predicates/, for rules data cannot say.'),
    })
    .strict(),
]);
export type Check = z.infer<typeof Check>;

export const Lab = z
  .object({
    id: slug,
    version: z.number().int().positive().describe('Bump when checks change: grade reports carry it.'),
    title: Localized,
    summary: Localized,
    cluster: z.string().optional().describe('A kind Cluster definition (YAML) with an optional packetpath: block.'),
    seed: z.number().int().nonnegative().default(1),
    setup: z.array(z.string()).default([]).describe('Lines run before the learner starts, e.g. to inject a fault.'),
    steps: z.array(Localized).min(1).describe('What to do, in order (Markdown).'),
    checks: z.array(Check).min(1),
    hints: z.array(Localized).length(3).describe('Progressive hints: a nudge, a pointer, nearly the answer.'),
    solution: z
      .object({ commands: z.array(z.string()).min(1) })
      .strict()
      .describe('Lines that solve the lab from its start state; files in solution/ are written first.'),
  })
  .strict()
  .superRefine((lab, ctx) => {
    const seen = new Set<string>();
    lab.checks.forEach((c, i) => {
      if (seen.has(c.id)) ctx.addIssue({ code: 'custom', path: ['checks', i, 'id'], message: `duplicate check id "${c.id}"` });
      seen.add(c.id);
    });
  });
export type Lab = z.infer<typeof Lab>;

/** A lab as loaded: the validated lab.yaml plus its start and solution files. */
export interface LoadedLab {
  readonly lab: Lab;
  readonly startFiles: Readonly<Record<string, string>>;
  readonly solutionFiles: Readonly<Record<string, string>>;
}
