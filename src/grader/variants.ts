/**
 * Labs with variants: one story, several faults. A learner gets one variant, drawn from a seed of
 * their own (made once and kept with their progress) and the lab id, so the same learner always meets
 * the same fault in a lab, different learners meet different ones, and an instructor can rebuild the
 * very start state from the (seed, variant) a grade report records.
 */
import { drawFrom } from './draw.ts';
import { LabError } from './lab-parse.ts';
import type { Lab, LoadedLab } from './lab-schema.ts';

export { isDrawSeed, MAX_DRAW_SEED, redrawSeed } from './draw.ts';

/** The variant ids of a lab, in lab order (empty for a lab without variants). */
export function variantIds(lab: Lab): string[] {
  return (lab.variants ?? []).map((v) => v.id);
}

/** The variant a seed draws for a lab (draw.ts); undefined for a lab without variants. */
export function drawVariant(lab: Lab, seed: number): string | undefined {
  return drawFrom(lab.id, variantIds(lab), seed);
}

/**
 * One variant's plain lab: the shared setup then the variant's, the shared checks and hints then the
 * variant's, the variant's solution, and the variant's files over the lab's. The result has no
 * `variants` and carries `variant`, so starting, grading and reports need nothing else.
 */
export function resolveVariant(loaded: LoadedLab, id: string): LoadedLab {
  const { variants, ...shared } = loaded.lab;
  const v = variants?.find((x) => x.id === id);
  if (!variants) throw new LabError(`lab ${loaded.lab.id} has no variants`);
  if (!v)
    throw new LabError(
      `lab ${loaded.lab.id} has no variant "${id}" (variants: ${variants.map((x) => x.id).join(', ')})`,
    );
  const files = loaded.variantFiles?.[id];
  return {
    lab: {
      ...shared,
      setup: [...shared.setup, ...v.setup],
      checks: [...shared.checks, ...v.checks],
      hints: [...shared.hints, ...v.hints],
      solution: v.solution,
    },
    startFiles: { ...loaded.startFiles, ...files?.startFiles },
    solutionFiles: { ...loaded.solutionFiles, ...files?.solutionFiles },
    variant: { id: v.id, title: v.title, of: variants.map((x) => x.id) },
  };
}

/**
 * The lab a learner plays: a lab without variants as it is; otherwise the variant asked for, or the
 * one the seed draws (seed 0 when neither is given).
 */
export function labForLearner(loaded: LoadedLab, pick: { variant?: string; seed?: number } = {}): LoadedLab {
  if (!loaded.lab.variants) {
    if (pick.variant !== undefined) throw new LabError(`lab ${loaded.lab.id} has no variants`);
    return loaded;
  }
  return resolveVariant(loaded, pick.variant ?? drawVariant(loaded.lab, pick.seed ?? 0)!);
}
