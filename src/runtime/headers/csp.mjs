// @ts-check
/**
 * The site's Content-Security-Policy, generated after the build from the built pages themselves, so
 * it is always in step with what Starlight and Astro emit: every inline `<script>` in dist/ is allowed
 * by its sha256 hash (CSP Level 3 `hash-source`: base64 of the SHA-256 of the script text as written,
 * UTF-8), and nothing else inline may run. `cspIntegration()` writes the policy into dist/_headers
 * under `/*`, next to the rules copied from public/_headers.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Inline scripts of a page: `<script>` elements without `src`, their text exactly as in the file.
 * (An HTML script element ends at the first `</script`, so a regex finds its text as the parser does.)
 * @param {string} html
 * @returns {string[]}
 */
export function inlineScripts(html) {
  /** @type {string[]} */
  const out = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attrs = m[1] ?? '';
    if (/\ssrc\s*=/i.test(attrs)) continue;
    out.push(m[2] ?? '');
  }
  return out;
}

/** @param {string} text @returns {string} the CSP hash-source for `text` */
export function scriptHash(text) {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * The policy. Each source, and why:
 * - `default-src 'self'`: everything is served by the site itself; no CDN, no analytics.
 * - `script-src 'self' 'wasm-unsafe-eval' <hashes>`: our modules; Pagefind's search compiles its
 *   WebAssembly index reader (wasm needs 'wasm-unsafe-eval', which allows no JS eval); the hashes allow
 *   exactly the inline scripts Starlight/Astro put in the built pages (theme, sidebar, islands).
 * - `style-src 'self' 'unsafe-inline'`: Monaco and xterm create `<style>` elements at run time (Monaco's
 *   theme and decorations, xterm's renderer) and Astro inlines small stylesheets and `style` attributes;
 *   run-time styles cannot be hashed at build time. Styles cannot run code, so this opens no script hole.
 * - `img-src 'self' data:`: Starlight and Expressive Code use data: SVG icons in CSS.
 * - `font-src 'self'`: Monaco's codicon font is a file under /_astro/.
 * - `connect-src 'self'`: Pagefind fetches its index; the lab fetches nothing elsewhere.
 * - `worker-src 'self' blob:`: the engine, Monaco's editor/YAML and Pagefind workers are our files;
 *   Monaco falls back to a blob: bootstrap worker (`createObjectURL` in its worker factory) when a
 *   worker URL is not directly usable, so blob: stays allowed for workers only.
 * - `frame-src https://stackblitz.com`: the optional WebContainer host boots in an iframe from there
 *   (@webcontainer/api `DEFAULT_EDITOR_ORIGIN`); nothing else is framed.
 * - `object-src 'none'`, `base-uri 'self'`, `form-action 'self'`, `frame-ancestors 'self'`: no plugins,
 *   no `<base>` hijack, no form posting elsewhere, no framing of the course by other sites.
 * @param {Iterable<string>} hashes hash-sources from `scriptHash`
 */
export function contentSecurityPolicy(hashes) {
  const sorted = [...new Set(hashes)].sort();
  return [
    "default-src 'self'",
    ["script-src 'self' 'wasm-unsafe-eval'", ...sorted].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    'frame-src https://stackblitz.com',
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** @param {string} dir @returns {string[]} every .html file under dir */
function htmlFiles(dir) {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.html'))
    .map((f) => join(dir, f));
}

/** The policy for a built site: the hashes of every inline script of every page in `dir`. */
/** @param {string} dir */
export function policyForBuild(dir) {
  const hashes = new Set();
  for (const file of htmlFiles(dir))
    for (const script of inlineScripts(readFileSync(file, 'utf8'))) hashes.add(scriptHash(script));
  return { policy: contentSecurityPolicy(hashes), scripts: hashes.size };
}

/**
 * Appends the generated policy to dist/_headers after `astro build` (public/_headers was copied there
 * already). One policy for all pages: the union of their inline scripts, a few Starlight scripts.
 * @returns {import('astro').AstroIntegration}
 */
export function cspIntegration() {
  return {
    name: 'packet-path-csp',
    hooks: {
      'astro:build:done': ({ dir, logger }) => {
        const out = fileURLToPath(dir);
        const { policy, scripts } = policyForBuild(out);
        const file = join(out, '_headers');
        const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
        appendFileSync(
          file,
          (before.endsWith('\n') || before === '' ? '' : '\n') +
            '# Generated by cspIntegration (src/runtime/headers/csp.mjs) from the built pages.\n' +
            `/*\n  Content-Security-Policy: ${policy}\n`,
        );
        logger.info(`Content-Security-Policy written to _headers (${scripts} inline script hashes)`);
      },
    },
  };
}
