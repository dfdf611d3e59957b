/**
 * `labs/<id>/fairness.yaml`: the proof that a lab grades fairly. A lab carries other right answers
 * (`alternatives`: what a learner who did it another way would do) and near misses (`nearMisses`: what a
 * learner who cut a corner would do, each naming the check it must fail and words that check's message
 * must say, so the learner is told their actual mistake). Both are written from the lab's steps, as a
 * learner would work, never from its checks. `packetpath lab validate` replays every case from the
 * start state (fairness.ts); `npm test` runs it for every lab and variant.
 */
import { z } from 'zod';
import { slug } from './localized.ts';

const path = z.string().min(1).describe("A file in the lab's working directory (k8s/web.yaml).");

const Step = z.union([
  z.object({ run: z.string().min(1).describe('A line typed at the prompt.') }).strict(),
  z
    .object({ write: path, content: z.string().describe('The whole file, as saved from the editor.') })
    .strict(),
  z
    .object({
      edit: path,
      replace: z.string().min(1).describe('Text of the file as it is now; it must occur in the file.'),
      with: z.string().describe('What the learner typed instead.'),
    })
    .strict()
    .describe('An edit in the editor: every occurrence of `replace` becomes `with`, then the file is saved.'),
  z.object({ remove: path }).strict(),
  z.object({ wait: z.number().int().positive().describe('Simulated milliseconds let pass.') }).strict(),
]);
export type FairnessStep = z.infer<typeof Step>;

const caseBase = {
  id: slug,
  variant: slug.optional().describe('For a lab with variants: the variant this case plays (required there).'),
  says: z.string().min(1).describe('What the learner did, in a sentence (English, for lab authors).'),
  steps: z.array(Step).min(1).describe('What the learner did from the start state, in order.'),
  quiz: z
    .record(slug, z.array(slug))
    .optional()
    .describe("Quiz answers by check id; the lab's correct answers for the quizzes left out."),
};

const Alternative = z.object(caseBase).strict().describe('Another right answer: it must pass every check.');

const NearMiss = z
  .object({
    ...caseBase,
    fails: slug.describe('The check that must fail (hidden ones included).'),
    mentions: z
      .array(z.string().min(1))
      .min(1)
      .describe(
        "Words the failing check's message (what it expects, what it saw, the hop) must contain in both languages: the mistake, named.",
      ),
  })
  .strict()
  .describe('A plausible wrong answer: it must fail `fails`, with a message that names the mistake.');

export const Fairness = z
  .object({
    $schema: z.string().optional(),
    alternatives: z.array(Alternative).default([]),
    nearMisses: z.array(NearMiss).default([]),
  })
  .strict()
  .superRefine((f, ctx) => {
    const seen = new Set<string>();
    [...f.alternatives, ...f.nearMisses].forEach((c) => {
      if (seen.has(c.id)) ctx.addIssue({ code: 'custom', path: [], message: `duplicate case id "${c.id}"` });
      seen.add(c.id);
    });
  })
  .describe("A lab's fairness cases (labs/<id>/fairness.yaml).");
export type Fairness = z.infer<typeof Fairness>;
export type FairnessCase = Fairness['alternatives'][number] | Fairness['nearMisses'][number];

/** At least this many of each per lab (per variant for a lab with variants). */
export const MIN_CASES = 3;
