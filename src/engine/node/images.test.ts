import { describe, expect, it } from 'vitest';
import { formatImageRef, parseImageRef } from '../api/image-ref.ts';
import { resolveImage } from './images.ts';

describe('image references (distribution/reference normalisation)', () => {
  it.each([
    { name: 'official image', image: 'nginx', want: 'docker.io/library/nginx:latest' },
    { name: 'tag', image: 'nginx:1.27', want: 'docker.io/library/nginx:1.27' },
    { name: 'user repository', image: 'hashicorp/http-echo', want: 'docker.io/hashicorp/http-echo:latest' },
    { name: 'registry host', image: 'registry.k8s.io/pause:3.10.1', want: 'registry.k8s.io/pause:3.10.1' },
    { name: 'host with port', image: 'localhost:5000/app', want: 'localhost:5000/app:latest' },
  ])('$name: $image → $want', ({ image, want }) => {
    const r = parseImageRef(image);
    expect('ref' in r && formatImageRef(r.ref)).toBe(want);
  });

  it('rejects upper case the way the runtime words it', () => {
    expect(parseImageRef('Nginx')).toEqual({
      error: 'invalid reference format: repository name (library/Nginx) must be lowercase',
    });
    expect(parseImageRef('nginx:')).toEqual({ error: 'invalid reference format' });
  });
});

describe('the catalogue rule', () => {
  it.each([
    { name: 'catalogued', image: 'nginx:1.27-alpine', kind: 'ok', known: true },
    { name: 'typo of an official image', image: 'ngnix', kind: 'not-found' },
    { name: 'tag that cannot exist', image: 'nginx:latestt', kind: 'not-found' },
    {
      name: 'agnhost has no latest tag',
      image: 'registry.k8s.io/e2e-test-images/agnhost',
      kind: 'not-found',
    },
    { name: 'unknown non-library image', image: 'ghcr.io/acme/shop:1.0', kind: 'ok', known: false },
    { name: 'invalid', image: 'Nginx', kind: 'invalid' },
  ])('$name ($image) → $kind', ({ image, kind, known }) => {
    const r = resolveImage(image);
    expect(r.kind).toBe(kind);
    if (r.kind === 'ok') expect(r.known).toBe(known);
  });

  it('alpine variants carry musl; the official nginx image is glibc with bash; http-echo has no shell', () => {
    const get = (i: string) => {
      const r = resolveImage(i);
      if (r.kind !== 'ok') throw new Error(i);
      return r.profile;
    };
    expect(get('nginx:alpine')).toMatchObject({ libc: 'musl', shell: 'sh' });
    expect(get('nginx')).toMatchObject({ libc: 'glibc', shell: 'bash' });
    expect(get('hashicorp/http-echo').shell).toBeUndefined();
    expect(get('nicolaka/netshoot').tools).toEqual(
      expect.arrayContaining(['dig', 'curl', 'tcpdump', 'iptables']),
    );
    expect(get('ubuntu').tools).not.toContain('ping');
  });
});
