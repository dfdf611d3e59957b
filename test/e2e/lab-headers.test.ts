/**
 * The security headers (issue 9 item 6) as a browser meets them: the built site served with
 * dist/_headers applied (public/_headers plus the Content-Security-Policy generated from the built
 * pages), a chapter with a lab used end to end (prompt, a command, the editor, the Network view) and the
 * search (Pagefind's WebAssembly), with no CSP violation reported by the page, its workers or the console.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { serveWithHeaders } from './static-server';
import { focusTerminal, lab, openLab, promptLine, run } from './lab-helpers';

let browser: Browser;
let server: Awaited<ReturnType<typeof serveWithHeaders>>;

beforeAll(async () => {
  server = await serveWithHeaders(inject('distDir'));
  browser = await chromium.connect(inject('wsEndpoint'));
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A page that records every CSP violation (securitypolicyviolation events) and every console error. */
async function watchedPage(): Promise<{
  page: Page;
  problems: string[];
  violations: () => Promise<string[]>;
}> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(
        `${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`,
      ),
    );
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content Security Policy/i.test(m.text()))
      problems.push(`console: ${m.text()}`);
  });
  const violations = () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
  return { page, problems, violations };
}

describe('headers served with dist/_headers', () => {
  it('sends the CSP, nosniff and Referrer-Policy everywhere and isolates only lab pages', async () => {
    const lab = await fetch(server.url + '/en/one-node/network-model/');
    const plain = await fetch(server.url + '/en/glossary/');
    const asset = await fetch(server.url + '/pagefind/pagefind.js');
    for (const r of [lab, plain, asset]) {
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      const csp = r.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/script-src 'self' 'wasm-unsafe-eval'( 'sha256-[A-Za-z0-9+/]{43}=')+;/);
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    }
    expect(lab.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(lab.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    expect(plain.headers.get('cross-origin-opener-policy')).toBeNull();
    expect(plain.headers.get('cross-origin-embedder-policy')).toBeNull();
  });

  it(
    'runs a chapter’s lab under the policy: prompt, a command, the editor, the Network view',
    { timeout: 120_000 },
    async () => {
      const { page, problems, violations } = await watchedPage();
      await page.goto(server.url + '/en/one-node/network-model/', { waitUntil: 'load' });
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
      await openLab(page);
      expect(await promptLine(page)).toBe('learner@packetpath:~$');
      await focusTerminal(page);
      expect(await run(page, 'kubectl get nodes')).toMatch(/\sReady\s/);
      expect(await lab(page).locator('.monaco-editor .view-lines').count()).toBe(1);
      await lab(page).locator('[data-action="network"]').click();
      const svg = lab(page).locator('pp-network pp-topology svg');
      await svg.waitFor({ timeout: 20_000 });
      expect(await svg.locator('g[data-el^="node-"]').count()).toBeGreaterThan(0);
      // The theme switch runs Starlight's inline theme scripts again (hashed).
      await page.locator('starlight-theme-select select').first().selectOption('dark');
      expect(await violations()).toEqual([]);
      expect(problems).toEqual([]);
      await page.context().close();
    },
  );

  it('searches with Pagefind (WebAssembly in a worker) under the policy', { timeout: 60_000 }, async () => {
    const { page, problems, violations } = await watchedPage();
    await page.goto(server.url + '/en/glossary/', { waitUntil: 'load' });
    await page.locator('button[data-open-modal]').first().click();
    await page.locator('.pagefind-ui__search-input').fill('Klipper');
    await page.locator('.pagefind-ui__result-link').first().waitFor({ timeout: 15_000 });
    expect(await violations()).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
