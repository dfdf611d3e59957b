import { defineCollection } from 'astro:content';
import { file, glob } from 'astro/loaders';
import type { Loader } from 'astro/loaders';
import { z } from 'astro/zod';
import { docsSchema, i18nSchema } from '@astrojs/starlight/schema';
import { uiStrings } from './i18n/schema';

/**
 * Course fields added to Starlight's frontmatter. A page with `sourceNote` is a chapter.
 * The unit test `test/unit/content.test.ts` imports these exports and checks every page with them.
 */
export const courseFrontmatter = z.object({
  sourceNote: z
    .string()
    .regex(
      /^\d{3}_[0-9a-f]{16}\.txt$/,
      'sourceNote must be a seed file name such as 000_a56fd7953ca4c6b4.txt',
    )
    .optional()
    .describe('File name of the source note this chapter was written from. Required on chapters only.'),
  objectives: z
    .array(z.string().min(1))
    .default([])
    .describe('What the reader can do after the chapter. Chapters need at least one.'),
  labs: z
    .array(z.string().min(1))
    .default([])
    .describe('Ids of the labs embedded in or linked from the page.'),
  glossaryTerms: z
    .array(z.string().min(1))
    .default([])
    .describe('Ids of the glossary terms (keys of content/glossary/terms.yaml) the page uses.'),
});

/** Cross-field rules zod cannot express per field. */
export function checkChapterRules(
  data: { sourceNote?: string | undefined; objectives: string[] },
  ctx: z.RefinementCtx,
): void {
  if (data.sourceNote !== undefined && data.objectives.length === 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['objectives'],
      message: 'A chapter (a page with `sourceNote`) needs at least one entry in `objectives`.',
    });
  }
}

const localized = z.object({ en: z.string().min(1), 'pt-BR': z.string().min(1) });

/** One entry of content/glossary/terms.yaml (the key is the term id). */
export const glossaryTerm = z.object({
  term: z.string().min(1).describe('The term as written in English (and, nearly always, in Portuguese too).'),
  expansion: z.string().optional().describe('What the abbreviation stands for, if it is one.'),
  definition: localized.describe('A one- or two-sentence definition per language.'),
  saidInPortuguese: z.string().min(1).describe('How Brazilian Portuguese speakers say or write the term.'),
  saidInPortugueseEn: z
    .string()
    .min(1)
    .describe(
      'The same note for English readers: a pronunciation they can decode (English spelling, stress in capitals) and the gender Portuguese gives the term.',
    ),
  example: localized.describe('An example sentence per language.'),
  chapters: z
    .array(z.string())
    .default([])
    .describe('Slugs (without locale) of the chapters that use the term.'),
});

/**
 * Loads the UI strings from `src/i18n/<lang>.json`.
 *
 * Starlight keys user translations by the file path relative to `src/content/i18n/`, or by
 * the entry id when an entry has no `filePath` (dist/utils/translations.js). Our files live
 * in `src/i18n/`, so this loader reuses the glob loader and drops `filePath`: the id
 * (the file name, which must equal the locale's `lang` tag) becomes the key.
 */
function i18nLoader(): Loader {
  const inner = glob({
    base: './src/i18n',
    pattern: '*.json',
    generateId: ({ entry }) => entry.replace(/\.json$/, ''),
  });
  return {
    name: 'packet-path-i18n-loader',
    load: (context) =>
      inner.load({
        ...context,
        store: new Proxy(context.store, {
          get(target, prop, receiver) {
            if (prop === 'set') {
              return (entry: Parameters<typeof target.set>[0]) =>
                target.set({ ...entry, filePath: undefined });
            }
            const value: unknown = Reflect.get(target, prop, receiver);
            return typeof value === 'function' ? value.bind(target) : value;
          },
        }),
      }),
  };
}

export const collections = {
  // content/pt-br/** and content/en/**. Entry ids (`en/k3s/cluster-networking`) start with the
  // locale, which is what Starlight routes on. Files starting with `_` are skipped. content/404.mdx is
  // the bilingual "not found" page Starlight looks up under the id `404`.
  docs: defineCollection({
    loader: glob({ base: './content', pattern: ['{pt-br,en}/**/[^_]*.{md,mdx}', '404.{md,mdx}'] }),
    schema: (context) => docsSchema({ extend: courseFrontmatter })(context).superRefine(checkChapterRules),
  }),
  i18n: defineCollection({ loader: i18nLoader(), schema: i18nSchema({ extend: uiStrings }) }),
  glossary: defineCollection({ loader: file('content/glossary/terms.yaml'), schema: glossaryTerm }),
};
