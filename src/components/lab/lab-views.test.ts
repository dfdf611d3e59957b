import { describe, expect, it } from 'vitest';
import { scrollForCursor, viewForKey } from './lab-views';

describe('the phone tabs', () => {
  it('arrows wrap, Home and End go to the ends, other keys do nothing', () => {
    expect(viewForKey('ArrowRight', 'steps')).toBe('editor');
    expect(viewForKey('ArrowRight', 'network')).toBe('steps');
    expect(viewForKey('ArrowLeft', 'steps')).toBe('network');
    expect(viewForKey('Home', 'terminal')).toBe('steps');
    expect(viewForKey('End', 'editor')).toBe('network');
    expect(viewForKey('Enter', 'editor')).toBeUndefined();
  });
});

describe('the sideways terminal pane', () => {
  it('rests at its left edge while the cursor is within the first screenful', () => {
    expect(scrollForCursor(0, 360, 32)).toBe(0);
    expect(scrollForCursor(328, 360, 32)).toBe(0);
  });

  it('scrolls just far enough to show a cursor beyond it, with the margin', () => {
    expect(scrollForCursor(500, 360, 32)).toBe(172);
  });
});
