import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, inlineScripts, policyForBuild, scriptHash } from './csp.mjs';
import { headersFor, parseHeadersFile } from './headers-file.mjs';

describe('scriptHash', () => {
  it('gives the hash-source of the CSP specification’s example', () => {
    // CSP Level 3, "hash-source" example: <script>alert('Hello, world.');</script>
    expect(scriptHash("alert('Hello, world.');")).toBe(
      "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='",
    );
  });

  it('hashes the text exactly as written: whitespace counts', () => {
    expect(scriptHash(" alert('Hello, world.');")).not.toBe(scriptHash("alert('Hello, world.');"));
  });
});

describe('inlineScripts', () => {
  it('finds inline scripts of any type with their exact text, and skips external ones', () => {
    const html = [
      '<script>a()</script>',
      '<script src="/_astro/x.js"></script>',
      '<script type="module">\n\tb()\n</script>',
      '<SCRIPT >c()</SCRIPT >',
      '<script type="module" src="/y.js"></script>',
    ].join('');
    expect(inlineScripts(html)).toEqual(['a()', '\n\tb()\n', 'c()']);
  });
});

describe('contentSecurityPolicy', () => {
  it('allows exactly the hashed inline scripts, once each, and keeps the fixed sources', () => {
    const policy = contentSecurityPolicy([scriptHash('b'), scriptHash('a'), scriptHash('b')]);
    const directives = Object.fromEntries(
      policy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)] as const),
    );
    expect(directives['script-src']).toEqual([
      "'self'",
      "'wasm-unsafe-eval'",
      ...[scriptHash('a'), scriptHash('b')].sort(),
    ]);
    expect(directives['script-src']).not.toContain("'unsafe-inline'");
    expect(directives['script-src']).not.toContain("'unsafe-eval'");
    expect(directives['worker-src']).toEqual(["'self'", 'blob:']);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['default-src']).toEqual(["'self'"]);
  });
});

describe('policyForBuild', () => {
  it('collects the inline scripts of every page of a built site, and the result parses as _headers', () => {
    const dir = mkdtempSync(join(tmpdir(), 'csp-'));
    mkdirSync(join(dir, 'en', 'a'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<script>one()</script><script src="/x.js"></script>');
    writeFileSync(
      join(dir, 'en', 'a', 'index.html'),
      '<script>one()</script><script type="module">two()</script>',
    );
    const { policy, scripts } = policyForBuild(dir);
    expect(scripts).toBe(2);
    expect(policy).toContain(scriptHash('one()'));
    expect(policy).toContain(scriptHash('two()'));
    const rules = parseHeadersFile(`/*\n  Content-Security-Policy: ${policy}\n/en/*\n  X-Other: 1\n`);
    expect(headersFor(rules, '/en/a/')['Content-Security-Policy']).toBe(policy);
  });
});
