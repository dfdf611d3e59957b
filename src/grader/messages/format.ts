/**
 * Messages as data (`{ key, params }`), rendered per locale at the edge. Results carry messages, never
 * text, so the checks panel can switch language without re-grading and a report stays translatable.
 */
import type { Locale, Localized } from '../localized.ts';
import { CATALOGUE, type Entry, type MessageKey, type Plural } from './catalogue.ts';

export type { MessageKey } from './catalogue.ts';

/** A placeholder value: text, a number, a lab text in both languages, a nested message, or a list. */
export type MessageParam = string | number | Localized | Message | readonly MessageParam[];

export interface Message {
  readonly key: MessageKey;
  readonly params?: Readonly<Record<string, MessageParam>>;
}

export function msg(key: MessageKey, params?: Readonly<Record<string, MessageParam>>): Message {
  return params === undefined ? { key } : { key, params };
}

export function isMessageKey(key: unknown): key is MessageKey {
  return typeof key === 'string' && Object.hasOwn(CATALOGUE, key);
}

function isMessage(v: MessageParam): v is Message {
  return typeof v === 'object' && !Array.isArray(v) && 'key' in v;
}

function isLocalized(v: MessageParam): v is Localized {
  return typeof v === 'object' && !Array.isArray(v) && 'en' in v && 'pt-BR' in v;
}

const pluralRules = new Map<Locale, Intl.PluralRules>();

function pick(locale: Locale, value: string | Plural, count: MessageParam | undefined): string {
  if (typeof value === 'string') return value;
  let rules = pluralRules.get(locale);
  if (!rules) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)));
  return typeof count === 'number' && rules.select(count) === 'one' ? value.one : value.other;
}

function formatParam(locale: Locale, value: MessageParam, depth: number): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) {
    const items = value as readonly MessageParam[];
    const sep = items.some((v) => typeof v === 'object' && !Array.isArray(v)) ? '; ' : ', ';
    return items.map((v) => formatParam(locale, v, depth + 1)).join(sep);
  }
  if (isMessage(value as MessageParam)) return format(locale, value as Message, depth + 1);
  if (isLocalized(value as MessageParam)) return (value as Localized)[locale];
  return '';
}

function format(locale: Locale, message: Message, depth: number): string {
  // Messages may come from a report file: never trust their shape, never recurse without bound.
  if (depth > 8 || !isMessageKey(message.key)) return String(message.key);
  const entry: Entry = CATALOGUE[message.key];
  const params = message.params ?? {};
  const template = pick(locale, entry[locale], params.count);
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const v = Object.hasOwn(params, name) ? params[name] : undefined;
    return v === undefined ? '' : formatParam(locale, v, depth);
  });
}

/** Renders a message in a locale. Unknown keys render as the key itself; missing params as nothing. */
export function formatMessage(locale: Locale, message: Message): string {
  return format(locale, message, 0);
}
