/**
 * Hostile input in the browser (issue 9 item 2): markup typed by a learner is shown as text everywhere it
 * is rendered — the terminal, the editor's files, the checks panel, the network diagram, the glossary
 * filter — and escape sequences in terminal output change neither the page title nor the clipboard. A
 * trap (`window.__pwned`) counts any script that runs from the payloads.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { focusTerminal, lab, openLab, run, terminalText } from './lab-helpers';

const baseURL = inject('baseURL');
const SLOW = 120_000;
const XSS_IMG = '<img src=x onerror="window.__pwned=(window.__pwned||0)+1">';
const XSS_SCRIPT = '<script>window.__pwned=(window.__pwned||0)+1</script>';

let browser: Browser;

beforeAll(async () => {
  browser = await chromium.connect(inject('wsEndpoint'));
});

afterAll(async () => {
  await browser?.close();
});

async function page(): Promise<{ page: Page; dialogs: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const p = await context.newPage();
  const dialogs: string[] = [];
  p.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await p.addInitScript(() => {
    (window as unknown as { __pwned: number }).__pwned = 0;
  });
  return { page: p, dialogs };
}

const pwned = (p: Page) => p.evaluate(() => (window as unknown as { __pwned: number }).__pwned);

describe('hostile input in the lab (sandbox, /en/about-labs/)', () => {
  it(
    'markup in commands, files and annotations is text in the terminal, checks panel and diagram',
    async () => {
      const { page: p, dialogs } = await page();
      await p.goto(`${baseURL}/en/about-labs/`);
      await openLab(p);
      await focusTerminal(p);
      // Echoed markup, a file named and filled with markup, an annotation value with markup.
      await run(p, `echo '${XSS_SCRIPT}'`);
      await run(p, `echo '${XSS_IMG}' > 'x${'<b>'}.yaml'`);
      await run(p, `kubectl apply -f web.yaml`);
      await run(p, `kubectl annotate deployment web note='${XSS_IMG}'`);
      await run(p, `kubectl get deployment web -o jsonpath='{.metadata.annotations.note}'`);
      const text = await terminalText(p);
      expect(text).toContain(XSS_SCRIPT);
      expect(text).toContain('onerror=');
      // The file made by the shell gets an editor tab whose label is its name, as text.
      await expect
        .poll(() => lab(p).locator('[data-tabs] [role="tab"]').allTextContents(), { timeout: 10_000 })
        .toContain('x<b>.yaml');
      expect(await lab(p).locator('[data-tabs] b').count()).toBe(0);
      // The checks panel and the network diagram render what the cluster holds as text.
      await p.waitForTimeout(500);
      expect(await lab(p).locator('img[src="x"], script:not([src])').count()).toBe(0);
      expect(await pwned(p)).toBe(0);
      expect(dialogs).toEqual([]);
    },
    SLOW,
  );

  it(
    'escape sequences in output neither retitle the page, nor link, nor move the cursor',
    async () => {
      const { page: p, dialogs } = await page();
      await p.goto(`${baseURL}/en/about-labs/`);
      await openLab(p);
      const title = await p.title();
      await focusTerminal(p);
      // Title change (OSC 0), clipboard write (OSC 52), a hyperlink (OSC 8), cursor moves faking a prompt.
      await run(
        p,
        `printf '\\033]0;pwned\\007\\033]52;c;ZXZpbA==\\007\\033]8;;http://evil/\\033\\\\link\\033]8;;\\033\\\\\\n'`,
      );
      await run(p, `printf '\\033[2K\\033[1Gfake$ \\n'`);
      const text = await terminalText(p);
      // The neutralised sequences are shown in caret notation, not obeyed.
      expect(text).toContain('^[]0;pwned^G');
      expect(text).toContain('^[[2K^[[1Gfake$');
      expect(await p.title()).toBe(title);
      expect(await lab(p).locator('.xterm-rows a').count()).toBe(0);
      expect(await pwned(p)).toBe(0);
      expect(dialogs).toEqual([]);
    },
    SLOW,
  );
});

describe('hostile input in the glossary filter', () => {
  it('a query with markup is shown as text in the live count', async () => {
    const { page: p, dialogs } = await page();
    await p.goto(`${baseURL}/en/glossary/`);
    const input = p.locator('[data-pp-filter] input');
    await input.fill(XSS_IMG);
    const status = p.locator('[data-pp-count]');
    await expect.poll(() => status.textContent(), { timeout: 5_000 }).toContain('onerror=');
    expect(await p.locator('main img[src="x"]').count()).toBe(0);
    expect(await pwned(p)).toBe(0);
    expect(dialogs).toEqual([]);
  });
});
