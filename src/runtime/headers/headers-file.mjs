// @ts-check
/**
 * Reads a Netlify/Cloudflare-style `_headers` file (path patterns with `*` splats, then indented
 * `Name: value` lines) and tells which headers a URL path gets. Used by the dev server plugin in
 * astro.config.mjs and by the browser tests' server, so both behave like the static host.
 */
import { readFileSync } from 'node:fs';

/** @typedef {{ pattern: RegExp, source: string, headers: [string, string][] }} HeaderRule */

/** @param {string} text @returns {HeaderRule[]} */
export function parseHeadersFile(text) {
  /** @type {HeaderRule[]} */
  const rules = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\s+$/, '');
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      const source = line.trim();
      const pattern = new RegExp(
        '^' +
          source
            .split('*')
            .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
            .join('.*') +
          '$',
      );
      rules.push({ pattern, source, headers: [] });
    } else {
      const m = /^\s+([^:]+):\s*(.*)$/.exec(line);
      const rule = rules[rules.length - 1];
      if (m && rule) rule.headers.push([(m[1] ?? '').trim(), (m[2] ?? '').trim()]);
    }
  }
  return rules;
}

/** @param {HeaderRule[]} rules @param {string} path @returns {Record<string, string>} */
export function headersFor(rules, path) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const rule of rules) {
    // `/x/*` also matches `/x` and `/x/` on Netlify and Cloudflare.
    const bare = rule.source.endsWith('/*') ? rule.source.slice(0, -2) : undefined;
    if (rule.pattern.test(path) || (bare !== undefined && (path === bare || path === `${bare}/`))) {
      for (const [k, v] of rule.headers) out[k] = v;
    }
  }
  return out;
}

/** @param {string} file */
export function loadHeadersFile(file) {
  return parseHeadersFile(readFileSync(file, 'utf8'));
}
