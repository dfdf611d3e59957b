import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headersFor, loadHeadersFile, parseHeadersFile } from './headers-file.mjs';

const root = join(import.meta.dirname, '../../..');
const rules = loadHeadersFile(join(root, 'public/_headers'));

describe('public/_headers', () => {
  it('isolates the pages with a lab', () => {
    for (const path of [
      '/pt-br/about-labs/',
      '/en/about-labs/',
      '/en/about-labs',
      '/pt-br/diagnosis/drawing/',
    ]) {
      expect(headersFor(rules, path)).toMatchObject({
        'Cross-Origin-Opener-Policy': 'same-origin',
        'Cross-Origin-Embedder-Policy': 'require-corp',
      });
    }
  });

  it('gives every other page only the site-wide headers, no isolation', () => {
    for (const path of ['/pt-br/', '/en/glossary/', '/en/authoring/', '/']) {
      expect(headersFor(rules, path)).toEqual({
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'strict-origin-when-cross-origin',
      });
    }
  });

  it('sends nosniff and Referrer-Policy everywhere, lab pages and assets included', () => {
    for (const path of ['/en/about-labs/', '/_astro/worker-abc.js', '/pagefind/pagefind.js']) {
      expect(headersFor(rules, path)).toMatchObject({
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'strict-origin-when-cross-origin',
      });
    }
  });

  it('gives scripts (and so workers) COEP, as a require-corp page demands of its workers', () => {
    expect(headersFor(rules, '/_astro/worker-abc.js')).toMatchObject({
      'Cross-Origin-Embedder-Policy': 'require-corp',
    });
  });

  it('lists every page that embeds <Lab>, in both locales', () => {
    const pages: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.mdx$/.test(e.name) && /<Lab\s/.test(readFileSync(p, 'utf8'))) pages.push(p);
      }
    };
    walk(join(root, 'content'));
    expect(pages.length).toBeGreaterThan(0);
    for (const file of pages) {
      const rel = file
        .slice(join(root, 'content').length)
        .replace(/\.mdx$/, '/')
        .replace(/\/index\/$/, '/');
      expect(headersFor(rules, rel), `${rel} embeds a lab: add it to public/_headers`).toMatchObject({
        'Cross-Origin-Embedder-Policy': 'require-corp',
      });
    }
  });
});

describe('parseHeadersFile', () => {
  it('reads patterns, splats and indented headers, skipping comments', () => {
    const r = parseHeadersFile('# c\n/a/*\n  X-One: 1\n/b\n  X-Two: 2\n');
    expect(headersFor(r, '/a/x/y')).toEqual({ 'X-One': '1' });
    expect(headersFor(r, '/b')).toEqual({ 'X-Two': '2' });
    expect(headersFor(r, '/bb')).toEqual({});
  });
});
