import { describe, expect, it } from 'vitest';
import { shortcutFor } from './lab-shortcuts';

const key = (
  code: string,
  mods: Partial<Record<'altKey' | 'shiftKey' | 'ctrlKey' | 'metaKey', boolean>>,
) => ({
  altKey: false,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  code,
  ...mods,
});

describe('shortcutFor', () => {
  it('maps Alt+Shift+C/H/M to check, hint and full window', () => {
    expect(shortcutFor(key('KeyC', { altKey: true, shiftKey: true }))).toBe('check');
    expect(shortcutFor(key('KeyH', { altKey: true, shiftKey: true }))).toBe('hint');
    expect(shortcutFor(key('KeyM', { altKey: true, shiftKey: true }))).toBe('maximize');
  });

  it('leaves every other chord to the terminal and the editor', () => {
    expect(shortcutFor(key('KeyC', { ctrlKey: true }))).toBeUndefined();
    expect(shortcutFor(key('KeyC', { altKey: true }))).toBeUndefined();
    expect(shortcutFor(key('KeyC', { altKey: true, shiftKey: true, ctrlKey: true }))).toBeUndefined();
    expect(shortcutFor(key('KeyF', { altKey: true, shiftKey: true }))).toBeUndefined();
  });
});
