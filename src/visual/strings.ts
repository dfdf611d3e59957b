/**
 * The visualisation's words come from the site's one catalogue, `src/i18n/<lang>.json` (keys `net.*`,
 * required in every locale by `src/i18n/schema.ts`, so a missing one fails the build). The renderers
 * run in the page, in the worker and in Node tests, where Astro's `t()` does not exist, so they import the
 * JSON files themselves; the type of `PT_BR` makes `tsc` fail as well when pt-BR lacks a key en.json has.
 * `{name}` placeholders are filled by `format`; values are plain text (renderers escape them).
 */
import en from '../i18n/en.json' with { type: 'json' };
import ptBR from '../i18n/pt-BR.json' with { type: 'json' };

export type Locale = 'pt-BR' | 'en';

type NetKey = Extract<keyof typeof en, `net.${string}`>;

/** A visual string's key without its `net.` prefix (`topo.title` is `net.topo.title` in the catalogue). */
export type StringKey = NetKey extends `net.${infer K}` ? K : never;

const EN: Readonly<Record<NetKey, string>> = en;
const PT_BR: Readonly<Record<NetKey, string>> = ptBR;
const DICTIONARIES: Readonly<Record<Locale, Readonly<Record<NetKey, string>>>> = { en: EN, 'pt-BR': PT_BR };

export type Params = Readonly<Record<string, string | number>>;

/** The string for `key` in `locale` with `{name}` placeholders filled (unknown placeholders stay). */
export function format(locale: Locale, key: StringKey, params: Params = {}): string {
  const template = DICTIONARIES[locale][`net.${key}`];
  return template.replace(/\{(\w+)\}/g, (m, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : m,
  );
}

export const translator =
  (locale: Locale) =>
  (key: StringKey, params?: Params): string =>
    format(locale, key, params);

/** The visual keys (without `net.`) a locale's catalogue defines. */
export const dictionaryKeys = (locale: Locale): string[] =>
  Object.keys(locale === 'en' ? en : ptBR)
    .filter((k) => k.startsWith('net.'))
    .map((k) => k.slice(4))
    .sort();

/** `pt-BR` for anything that is not English (the site's default locale). */
export const toLocale = (lang: string | null | undefined): Locale =>
  lang?.toLowerCase().startsWith('en') ? 'en' : 'pt-BR';
