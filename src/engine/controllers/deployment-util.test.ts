import { describe, expect, it } from 'vitest';
import { computeHash, equalIgnoringHash, surgeAndUnavailable } from './deployment-util.ts';
import type { Deployment } from '../api/objects.ts';
import { NAME_ALPHABET } from '../util/rng.ts';

const dep = (replicas: number, maxSurge?: number | string, maxUnavailable?: number | string) =>
  ({
    spec: { replicas, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable } } },
  }) as unknown as Deployment;

describe('rolling update fenceposts (ResolveFenceposts)', () => {
  it.each([
    { name: 'defaults 25%/25% of 4', d: dep(4), want: { maxSurge: 1, maxUnavailable: 1 } },
    {
      name: 'surge rounds up, unavailable down (3 replicas)',
      d: dep(3),
      want: { maxSurge: 1, maxUnavailable: 0 },
    },
    { name: 'both zero becomes unavailable 1', d: dep(3, 0, 0), want: { maxSurge: 0, maxUnavailable: 1 } },
    { name: 'absolute numbers', d: dep(10, 3, 2), want: { maxSurge: 3, maxUnavailable: 2 } },
  ])('$name', ({ d, want }) => {
    expect(surgeAndUnavailable(d)).toEqual(want);
  });
});

describe('pod-template-hash', () => {
  it('is SafeEncodeString of a decimal FNV-32a: only the safe alphabet, stable, template-sensitive', () => {
    const t = {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx' }] },
    };
    const h = computeHash(t);
    expect(h).toMatch(new RegExp(`^[${NAME_ALPHABET}]{1,10}$`));
    expect(computeHash(JSON.parse(JSON.stringify(t)))).toBe(h);
    expect(computeHash({ ...t, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } })).not.toBe(h);
    expect(computeHash(t, 1)).not.toBe(h);
  });
});

describe('EqualIgnoreHash', () => {
  const template = (labels: Record<string, string> | undefined, image = 'nginx') => ({
    metadata: labels ? { labels } : {},
    spec: { containers: [{ name: 'web', image }] },
  });

  it('ignores only the pod-template-hash label', () => {
    expect(
      equalIgnoringHash(template({ app: 'a' }), template({ app: 'a', 'pod-template-hash': '7d4c9b8d5' })),
    ).toBe(true);
    expect(equalIgnoringHash(template(undefined), template({ 'pod-template-hash': '7d4c9b8d5' }))).toBe(true);
    expect(equalIgnoringHash(template({ app: 'a' }), template({ app: 'b', 'pod-template-hash': '1' }))).toBe(
      false,
    );
    expect(equalIgnoringHash(template({ app: 'a' }), template({ app: 'a' }, 'httpd'))).toBe(false);
  });
});
