/**
 * The workspace layout (issue 20 item 2), measured: the full-window lab covers the whole viewport
 * above Starlight's header and sidebars and Esc leaves it; at 1280×800 the terminal has ≥ 120 columns
 * and `kubectl get pods -o wide` prints its header on one row; the editor/terminal split is
 * remembered; on a phone the page never scrolls sideways. axe finds nothing in full window.
 */
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { focusTerminal, lab, openLab, run, terminalText } from './lab-helpers';

const baseURL = inject('baseURL');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
let browser: Browser;

beforeAll(async () => {
  browser = await chromium.connect(inject('wsEndpoint'));
});
afterAll(async () => {
  await browser?.close();
});

/** What is on top at a 5×5 grid of points over the viewport: inside the lab, or site chrome. */
function pointsOnLab(page: Page): Promise<{ inside: number; outside: string[] }> {
  return page.evaluate(() => {
    const root = document.querySelector('pp-lab')!;
    const outside: string[] = [];
    let inside = 0;
    for (let i = 0; i < 5; i++)
      for (let j = 0; j < 5; j++) {
        const x = Math.round(((i + 0.5) / 5) * innerWidth);
        const y = Math.round(((j + 0.5) / 5) * innerHeight);
        const el = document.elementFromPoint(x, y);
        if (el && root.contains(el)) inside++;
        else outside.push(`${x},${y}: ${el?.tagName.toLowerCase()}.${el?.className}`);
      }
    return { inside, outside };
  });
}

const termCols = (page: Page) =>
  lab(page).evaluate(
    (el) => (el as unknown as { labApp: { terminal: { term: { cols: number } } } }).labApp.terminal.term.cols,
  );

describe.each(['en', 'pt-br'] as const)('full window (%s)', (locale) => {
  it(
    'covers the viewport above the site chrome, fits a wide table, and Esc leaves',
    { timeout: 120_000 },
    async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(`${baseURL}/${locale}/about-labs/`, { waitUntil: 'load' });
      await openLab(page);
      const maximize = lab(page).locator('[data-action="maximize"]');
      await maximize.click();
      await page.waitForFunction(() => document.querySelector('pp-lab')?.matches('.pp-lab--max'));
      expect(await pointsOnLab(page)).toEqual({ inside: 25, outside: [] });
      // The page behind does not scroll.
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('hidden');
      await page.waitForFunction(() => {
        const cols = (
          document.querySelector('pp-lab') as unknown as { labApp: { terminal: { term: { cols: number } } } }
        ).labApp.terminal.term.cols;
        return cols >= 120;
      });
      expect(await termCols(page)).toBeGreaterThanOrEqual(120);
      await focusTerminal(page);
      await run(page, 'kubectl create deployment web --image=nginx --replicas=2');
      const shown = await run(page, 'kubectl get pods -o wide');
      // Every row of the table is on one terminal row: no line longer than the terminal is wide.
      const cols = await termCols(page);
      expect(shown).toMatch(/NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE/);
      expect(cols).toBeGreaterThanOrEqual(120);
      const { violations } = await new AxeBuilder({ page }).include('pp-lab').withTags(AXE_TAGS).analyze();
      expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      // Esc belongs to the terminal and the editor while they have the focus; anywhere else it leaves.
      await page.keyboard.press('Escape');
      expect(await lab(page).evaluate((el) => el.matches('.pp-lab--max'))).toBe(true);
      await lab(page).locator('[data-action="check"]').focus();
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => !document.querySelector('pp-lab')?.matches('.pp-lab--max'));
      expect(await maximize.getAttribute('aria-pressed')).toBe('false');
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe(
        'hidden',
      );
      expect((await pointsOnLab(page)).outside.length).toBeGreaterThan(0);
      await context.close();
    },
  );
});

describe('the editor/terminal split', () => {
  it('is remembered across pages', { timeout: 120_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${baseURL}/en/about-labs/`, { waitUntil: 'load' });
    await openLab(page);
    const splitter = lab(page).locator('[data-splitter]');
    await splitter.focus();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await splitter.getAttribute('aria-valuenow')).toBe('40');
    await page.reload({ waitUntil: 'load' });
    await openLab(page);
    expect(await lab(page).locator('[data-splitter]').getAttribute('aria-valuenow')).toBe('40');
    await context.close();
  });
});

describe('on a phone', () => {
  it(
    'never scrolls the page sideways; the terminal keeps 80 columns and scrolls in its pane',
    { timeout: 120_000 },
    async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(`${baseURL}/en/about-labs/`, { waitUntil: 'load' });
      await openLab(page, { editor: false });
      await focusTerminal(page);
      await run(page, 'kubectl get ns');
      expect(await terminalText(page)).toContain('kube-system');
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
      // The terminal keeps a table's width and scrolls sideways inside its pane instead of wrapping.
      expect(await termCols(page)).toBeGreaterThanOrEqual(80);
      const pane = await lab(page)
        .locator('[data-terminal-pane]')
        .evaluate((el) => ({
          scroll: el.scrollWidth,
          client: el.clientWidth,
          overflow: getComputedStyle(el).overflowX,
        }));
      expect(pane.overflow).toBe('auto');
      expect(pane.scroll).toBeGreaterThan(pane.client);
      await context.close();
    },
  );
});
