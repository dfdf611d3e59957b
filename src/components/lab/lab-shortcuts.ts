/**
 * The lab's own keyboard shortcuts (listed in the toolbar's ? popover, Lab.astro). Alt+Shift with a
 * letter: neither xterm's readline keys nor Monaco's defaults use these. Matched on the physical key
 * (`code`), so they are the same keys on a US and a Brazilian ABNT2 keyboard, whatever Alt types.
 */
export type ShortcutAction = 'check' | 'hint' | 'maximize';

const KEYS: Readonly<Record<string, ShortcutAction>> = { KeyC: 'check', KeyH: 'hint', KeyM: 'maximize' };

export function shortcutFor(
  e: Pick<KeyboardEvent, 'altKey' | 'shiftKey' | 'ctrlKey' | 'metaKey' | 'code'>,
): ShortcutAction | undefined {
  if (!e.altKey || !e.shiftKey || e.ctrlKey || e.metaKey) return undefined;
  return KEYS[e.code];
}
