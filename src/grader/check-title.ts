/** A check's title as the checks panel shows it (pure: the page's lab info uses it without the grader's evaluators). */
import type { Check } from './lab-schema.ts';
import type { Locale } from './localized.ts';
import { formatMessage, msg } from './messages/format.ts';

/** The lab's title for the check, or "Hidden traffic probe" for a hidden check. */
export function checkTitle(check: Check, locale: Locale): string {
  return check.hidden ? formatMessage(locale, msg('check.hidden.title')) : check.title[locale];
}
