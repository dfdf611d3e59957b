import { z } from 'astro/zod';

const key = (description: string) => z.string().min(1).meta({ description });

/**
 * Course UI strings, added to Starlight's i18n schema. Every key is required, so a key missing
 * from `pt-BR.json` or `en.json` fails the build. Keys are flat and dotted.
 */
export const uiStrings = z.object({
  'objectives.heading': key('Heading of the objectives box shown at the top of every chapter.'),
  'glossary.definition': key('Label for a glossary term definition.'),
  'glossary.saidInPortuguese': key('Label for how Brazilian Portuguese speakers say a term.'),
  'glossary.example': key('Label for the example sentence of a glossary term.'),
  'glossary.chapters': key('Label for the list of chapters where a glossary term is used.'),
  'glossary.expansion': key('Label for what an abbreviation stands for.'),
});

export type UiStringKey = keyof z.infer<typeof uiStrings>;
