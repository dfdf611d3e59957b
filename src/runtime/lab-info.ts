/**
 * What the page shows of a lab (titles, steps, hints, check titles), from its parsed definition. Pure
 * data mapping with no engine behind it: the WebContainer host runs in the page's main thread and
 * builds it there (test/e2e/page-chunks.test.ts checks that no engine code comes with it).
 */
import { checkTitle } from '../grader/check-title.ts';
import type { LoadedLab } from '../grader/lab-schema.ts';
import type { LabInfo } from './protocol.ts';

export function labInfo(loaded: LoadedLab, drawSeed = 0): LabInfo {
  const { lab } = loaded;
  const { variant } = loaded;
  return {
    id: lab.id,
    version: lab.version,
    title: lab.title,
    summary: lab.summary,
    steps: lab.steps,
    hints: lab.hints,
    solution: { commands: lab.solution?.commands ?? [], files: loaded.solutionFiles },
    startFiles: loaded.startFiles,
    checks: lab.checks.map((c) => ({
      id: c.id,
      title: { 'pt-BR': checkTitle(c, 'pt-BR'), en: checkTitle(c, 'en') },
      hidden: c.hidden,
      ...(c.type === 'quiz'
        ? { quiz: { question: c.question, choices: c.choices, multiple: c.multiple } }
        : {}),
    })),
    ...(variant ? { variant: { id: variant.id, title: variant.title, seed: drawSeed, of: variant.of } } : {}),
  };
}
