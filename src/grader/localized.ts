/** Texts in both course languages, and the slug rule shared by lab and check ids. */
import { z } from 'zod';

export const LOCALES = ['pt-BR', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

const nonEmpty = z.string().trim().min(1);

export const Localized = z
  .object({ 'pt-BR': nonEmpty, en: nonEmpty })
  .strict()
  .describe('A text in both course languages.');
export type Localized = z.infer<typeof Localized>;

export const slug = z
  .string()
  .max(63)
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a lowercase slug (a-z, 0-9, -)')
  .describe('A stable identifier: lowercase letters, digits and dashes.');

export function isLocale(value: unknown): value is Locale {
  return value === 'pt-BR' || value === 'en';
}
