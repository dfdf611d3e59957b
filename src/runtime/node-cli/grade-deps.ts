/** The grader API the CLI subcommands use (one import site, so the CLI never reaches into grader internals). */
export {
  createStarter,
  engine,
  flagText,
  labContentHash,
  labForReport,
  parseReport,
  regradeReport,
  ReplayCache,
  validateFairness,
  validateLab,
  type FairnessCounts,
  type GradeReport,
  type LoadedLab,
  type Locale,
} from '../../grader/index.ts';
import type { Locale } from '../../grader/index.ts';

export function isLocaleArg(v: string | undefined): v is Locale {
  return v === 'en' || v === 'pt-BR';
}
