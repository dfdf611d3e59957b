import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  gatewayHostMatches,
  gatewayPathMatches,
  ingressHostMatches,
  ingressPathMatches,
  intersectHostnames,
} from './http-match.ts';

// kubernetes.io "Ingress" → "Examples" table (path type, path, request path, matches?).
describe('Ingress path matching (kubernetes.io Ingress examples table)', () => {
  it.each([
    ['Prefix', '/', '/anything/at/all', true],
    ['Exact', '/foo', '/foo', true],
    ['Exact', '/foo', '/bar', false],
    ['Exact', '/foo', '/foo/', false],
    ['Exact', '/foo/', '/foo', false],
    ['Prefix', '/foo', '/foo', true],
    ['Prefix', '/foo', '/foo/', true],
    ['Prefix', '/foo/', '/foo', true],
    ['Prefix', '/foo/', '/foo/', true],
    ['Prefix', '/aaa/bb', '/aaa/bbb', false],
    ['Prefix', '/aaa/bbb', '/aaa/bbb', true],
    ['Prefix', '/aaa/bbb/', '/aaa/bbb', true],
    ['Prefix', '/aaa/bbb', '/aaa/bbb/', true],
    ['Prefix', '/aaa/bbb', '/aaa/bbb/ccc', true],
    ['Prefix', '/aaa/bbb', '/aaa/bbbxyz', false],
    ['Prefix', '/aaa', '/ccc', false],
  ] as const)('%s %s vs %s → %s', (type, path, req, want) => {
    expect(ingressPathMatches(type, path, req)).toBe(want);
  });

  it('Traefik without strictPrefixMatching matches Prefix character-wise (traefik/traefik#11200)', () => {
    expect(ingressPathMatches('Prefix', '/v1', '/v11', true)).toBe(true);
    expect(ingressPathMatches('Prefix', '/v1', '/v11', false)).toBe(false);
  });

  it('ignores the query string', () => {
    expect(ingressPathMatches('Exact', '/foo', '/foo?x=1')).toBe(true);
  });

  it('element-wise prefix: a path always matches its own extensions by whole elements', () => {
    const seg = fc.stringMatching(/^[a-z]{1,4}$/);
    fc.assert(
      fc.property(
        fc.array(seg, { minLength: 1, maxLength: 3 }),
        fc.array(seg, { maxLength: 3 }),
        (p, rest) => {
          const prefix = `/${p.join('/')}`;
          expect(ingressPathMatches('Prefix', prefix, `${prefix}/${rest.join('/')}`)).toBe(true);
          expect(ingressPathMatches('Prefix', prefix, `${prefix}x`)).toBe(false);
        },
      ),
    );
  });
});

describe('host matching', () => {
  it.each([
    ['foo.bar.com', 'foo.bar.com', true],
    ['foo.bar.com', 'FOO.bar.com:8080', true],
    ['*.foo.com', 'bar.foo.com', true],
    ['*.foo.com', 'baz.bar.foo.com', false],
    ['*.foo.com', 'foo.com', false],
  ] as const)('Ingress host %s vs %s → %s', (rule, host, want) => {
    expect(ingressHostMatches(rule, host)).toBe(want);
  });

  it.each([
    ['*.example.com', 'foo.example.com', true],
    ['*.example.com', 'foo.bar.example.com', true],
    ['*.example.com', 'example.com', false],
    ['example.com', 'example.com', true],
  ] as const)('Gateway hostname %s vs %s → %s', (p, host, want) => {
    expect(gatewayHostMatches(p, host)).toBe(want);
  });

  it.each([
    [undefined, 'a.example.com', 'a.example.com'],
    ['*.example.com', 'a.example.com', 'a.example.com'],
    ['a.example.com', '*.example.com', 'a.example.com'],
    ['*.example.com', '*.a.example.com', '*.a.example.com'],
    ['a.example.com', 'b.example.com', undefined],
    ['*.example.com', 'example.com', undefined],
  ] as const)('listener %s ∩ route %s = %s', (l, r, want) => {
    expect(intersectHostnames(l, r)).toBe(want);
  });
});

// Gateway API conformance `httproute-matching` / `httproute-exact-path-matching` style cases.
describe('HTTPRoute path matching', () => {
  it.each([
    ['PathPrefix', '/', '/', true],
    ['PathPrefix', '/v2', '/v2/example', true],
    ['PathPrefix', '/v2', '/v2example', false],
    ['PathPrefix', '/v2/', '/v2', true],
    ['Exact', '/one', '/one', true],
    ['Exact', '/one', '/one/example', false],
    ['RegularExpression', '/v[0-9]+/.*', '/v12/users', true],
    ['RegularExpression', '/v[0-9]+', '/v12/users', false],
    ['RegularExpression', '(', '/(', false],
  ] as const)('%s %s vs %s → %s', (type, value, path, want) => {
    expect(gatewayPathMatches(type, value, path)).toBe(want);
  });
});
