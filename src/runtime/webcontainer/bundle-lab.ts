/** The lab a WebContainer bundle's learner plays: for a lab with variants, the one their seed draws. */
import { parseLab } from '../../grader/lab-parse.ts';
import type { LoadedLab } from '../../grader/lab-schema.ts';
import { labForLearner } from '../../grader/variants.ts';
import type { LabBundle } from './program.ts';

export function bundleLab(bundle: LabBundle): LoadedLab {
  const loaded = parseLab(
    `labs/${bundle.id}/lab.yaml`,
    bundle.yaml,
    bundle.start,
    bundle.solution,
    bundle.variants,
  );
  return labForLearner(loaded, { seed: bundle.seed ?? 0 });
}
