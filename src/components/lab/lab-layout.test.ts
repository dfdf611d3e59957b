import { describe, expect, it } from 'vitest';
import { SPLIT_MAX, SPLIT_MIN, clampSplit, splitStep } from './lab-layout.ts';

describe('the splitter', () => {
  it('keeps both panes usable', () => {
    expect(clampSplit(0)).toBe(SPLIT_MIN);
    expect(clampSplit(100)).toBe(SPLIT_MAX);
    expect(clampSplit(49.6)).toBe(50);
  });

  it('moves by the window-splitter keys and ignores others', () => {
    expect(clampSplit(50 + splitStep('ArrowDown'))).toBe(55);
    expect(clampSplit(50 + splitStep('ArrowUp'))).toBe(45);
    expect(clampSplit(50 + splitStep('Home'))).toBe(SPLIT_MIN);
    expect(clampSplit(50 + splitStep('End'))).toBe(SPLIT_MAX);
    expect(splitStep('a')).toBe(0);
  });
});
