import { describe, expect, it } from 'vitest';
import {
  formatLabelSelector,
  formatLabels,
  matches,
  matchesLabelSelector,
  matchesMapSelector,
  parseSelector,
  selectorString,
  SelectorParseError,
} from './labels.ts';

// Expected strings follow apimachinery pkg/labels/selector_test.go (TestSelectorParse / String()) and
// metav1 FormatLabelSelector: requirements sorted by key, set values sorted, single '=' for equality.
describe('parseSelector', () => {
  it.each([
    { name: 'equality', input: 'app=web', printed: 'app=web' },
    { name: 'double equals prints as single', input: 'app==web', printed: 'app=web' },
    { name: 'inequality', input: 'tier!=db', printed: 'tier!=db' },
    { name: 'sorted by key', input: 'z=1,a=2', printed: 'a=2,z=1' },
    { name: 'set values sorted', input: 'env in (prod,dev)', printed: 'env in (dev,prod)' },
    { name: 'notin', input: 'env notin (a)', printed: 'env notin (a)' },
    { name: 'exists and not exists', input: 'canary,!legacy', printed: 'canary,!legacy' },
    { name: 'numeric comparison', input: 'replicas>3', printed: 'replicas>3' },
    { name: 'spaces around operators', input: ' app = web , x in ( a , b ) ', printed: 'app=web,x in (a,b)' },
  ])('$name', ({ input, printed }) => {
    expect(selectorString(parseSelector(input))).toBe(printed);
  });

  it.each(['app=web=x', '=web', 'a b', 'app in a,b', '-bad=1', 'app=' + 'x'.repeat(64)])(
    'rejects %s',
    (input) => {
      expect(() => parseSelector(input)).toThrow(SelectorParseError);
    },
  );
});

describe('matching', () => {
  const labels = { app: 'web', tier: 'front', replicas: '5' };
  it.each([
    { sel: 'app=web', want: true },
    { sel: 'app=api', want: false },
    { sel: 'tier!=db', want: true },
    { sel: 'missing!=x', want: true },
    { sel: 'app in (api,web)', want: true },
    { sel: 'app notin (web)', want: false },
    { sel: 'missing notin (web)', want: true },
    { sel: 'app', want: true },
    { sel: '!app', want: false },
    { sel: 'replicas>3', want: true },
    { sel: 'replicas<3', want: false },
    { sel: 'app=web,tier=back', want: false },
    { sel: '', want: true },
  ])('$sel → $want', ({ sel, want }) => {
    expect(matches(parseSelector(sel), labels)).toBe(want);
  });

  it('LabelSelector: matchLabels and matchExpressions must all hold; empty matches all', () => {
    const ls = {
      matchLabels: { app: 'web' },
      matchExpressions: [{ key: 'tier', operator: 'In', values: ['front'] }],
    };
    expect(matchesLabelSelector(ls, labels)).toBe(true);
    expect(matchesLabelSelector(ls, { app: 'web' })).toBe(false);
    expect(matchesLabelSelector({}, {})).toBe(true);
    expect(matchesLabelSelector({ matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] }, labels)).toBe(
      true,
    );
  });

  it('map selectors need every pair', () => {
    expect(matchesMapSelector({ app: 'web' }, labels)).toBe(true);
    expect(matchesMapSelector({ app: 'web', x: 'y' }, labels)).toBe(false);
  });
});

describe('printing', () => {
  it('FormatLabelSelector', () => {
    expect(formatLabelSelector({ matchLabels: { app: 'web' } })).toBe('app=web');
    expect(
      formatLabelSelector({ matchExpressions: [{ key: 'pod', operator: 'In', values: ['c', 'b'] }] }),
    ).toBe('pod in (b,c)');
    expect(formatLabelSelector({})).toBe('<none>');
    expect(formatLabelSelector(undefined)).toBe('<none>');
  });

  it('FormatLabels', () => {
    expect(formatLabels({ tier: 'db', app: 'web' })).toBe('app=web,tier=db');
    expect(formatLabels({})).toBe('<none>');
  });
});
