/**
 * The workspace layout (issue 20 item 2), measured: the full-window lab covers the whole viewport
 * above Starlight's header and sidebars and Esc leaves it; at 1280×800 the terminal has ≥ 132 columns
 * and `kubectl get pods -o wide` prints its header on one row; the editor/terminal split is
 * remembered; on a phone the page never scrolls sideways. axe finds nothing in full window.
 */
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { focusTerminal, lab, openLab, openTools, promptLine, run, terminalText } from './lab-helpers';

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
        return cols >= 132;
      });
      expect(await termCols(page)).toBeGreaterThanOrEqual(132);
      await focusTerminal(page);
      await run(page, 'kubectl create deployment web --image=nginx --replicas=2');
      const shown = await run(page, 'kubectl get pods -o wide');
      // Every row of the table is on one terminal row: no line longer than the terminal is wide.
      const cols = await termCols(page);
      expect(shown).toMatch(/NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE/);
      expect(cols).toBeGreaterThanOrEqual(132);
      // Each row of the table (header and pods, ContainerCreating included) starts on its own terminal
      // row: xterm wraps a longer line onto a row that then starts mid-table.
      const table = shown.slice(shown.lastIndexOf('NAME ')).split('\n').slice(0, -1);
      expect(table, `${cols} columns`).toHaveLength(3);
      for (const row of table.slice(1)) expect(row).toMatch(/^web-[a-z0-9]+-[a-z0-9]+\s+\d\/\d\s+\w+/);
      expect(table[1]).toMatch(/ContainerCreating|Running/);
      // The shell knows the terminal's real size.
      const size = await run(page, 'echo "$COLUMNS"; stty size; tput cols');
      const rows = await lab(page).evaluate(
        (el) =>
          (el as unknown as { labApp: { terminal: { term: { rows: number } } } }).labApp.terminal.term.rows,
      );
      expect(size).toContain(`${cols}\n${rows} ${cols}\n${cols}`);
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
    'tabs show one part at a time; the terminal scrolls sideways in its box, back to the prompt; the page never does',
    { timeout: 120_000 },
    async () => {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
      });
      const page = await context.newPage();
      await page.goto(`${baseURL}/en/about-labs/`, { waitUntil: 'load' });
      await openLab(page, { editor: false });
      const tabs = lab(page).getByRole('tablist', { name: 'Lab parts' });
      expect(await tabs.getByRole('tab').allInnerTexts()).toEqual(['Steps', 'Editor', 'Terminal', 'Network']);
      const visible = (selector: string) => lab(page).locator(selector).isVisible();
      // Steps first; the editor and terminal are not on screen.
      expect(await tabs.getByRole('tab', { selected: true }).innerText()).toBe('Steps');
      expect(await visible('.pp-lab__steps')).toBe(true);
      expect(await visible('[data-terminal-pane]')).toBe(false);
      // Arrow keys move between tabs (WAI-ARIA tabs): Steps → Editor → Terminal.
      await tabs.getByRole('tab', { name: 'Steps' }).focus();
      await page.keyboard.press('ArrowRight');
      expect(await visible('[data-view-panel="editor"]')).toBe(true);
      expect(await visible('.pp-lab__steps')).toBe(false);
      await page.keyboard.press('ArrowRight');
      const terminalTab = tabs.getByRole('tab', { name: 'Terminal' });
      expect(await terminalTab.getAttribute('aria-selected')).toBe('true');
      expect(await visible('[data-terminal-pane]')).toBe(true);
      expect(await lab(page).getByRole('tabpanel').count()).toBe(1);

      await focusTerminal(page);
      // A long line: the pane follows the cursor to the right while typing…
      await run(page, 'kubectl create deployment web --image=nginx --replicas=2 --port=80');
      await run(page, 'kubectl get pods -o wide');
      expect(await terminalText(page)).toContain('ContainerCreating');
      const scroller = lab(page).locator('[data-terminal-scroll]');
      const pane = await scroller.evaluate((el) => ({
        scroll: el.scrollWidth,
        client: el.clientWidth,
        left: el.scrollLeft,
        overflow: getComputedStyle(el).overflowX,
      }));
      // …and is back at its left edge with the new prompt (the prompt is not hidden off to the left).
      expect(pane.overflow).toBe('auto');
      expect(pane.scroll).toBeGreaterThan(pane.client);
      expect(pane.left).toBe(0);
      // The terminal keeps a table's width instead of wrapping it, and tells the shell its real size.
      const cols = await termCols(page);
      expect(cols).toBeGreaterThanOrEqual(80);
      const size = await run(page, 'stty size; tput cols');
      expect(size).toContain(`${cols}\n${cols}`);
      // The help under the terminal is outside the sideways scroller: all of it on screen.
      const help = await lab(page)
        .locator('[data-terminal-pane] > .pp-lab__help')
        .evaluate((el) => {
          const r = el.getBoundingClientRect();
          return { left: r.left, right: r.right, scroll: el.scrollWidth, client: el.clientWidth };
        });
      expect(help.left).toBeGreaterThanOrEqual(0);
      expect(help.right).toBeLessThanOrEqual(390);
      expect(help.scroll).toBeLessThanOrEqual(help.client);

      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
      // Touch targets: every visible button of the lab is at least 44 × 44 px.
      const small = await lab(page).evaluate((root) =>
        [...root.querySelectorAll('button')]
          .filter((b) => b.getClientRects().length > 0)
          .map((b) => ({ text: b.textContent?.trim(), r: b.getBoundingClientRect() }))
          .filter(({ r }) => r.width < 44 || r.height < 44)
          .map(({ text, r }) => `${text}: ${Math.round(r.width)}×${Math.round(r.height)}`),
      );
      expect(small).toEqual([]);
      // The Network tab opens the Network view (the toolbar's toggle is not shown on a phone).
      await tabs.getByRole('tab', { name: 'Network' }).click();
      await page.waitForSelector('pp-lab [data-network] pp-network');
      expect(await visible('[data-network]')).toBe(true);
      expect(await visible('[data-terminal-pane]')).toBe(false);
      expect(await visible('[data-action="network"]')).toBe(false);
      const { violations } = await new AxeBuilder({ page }).include('pp-lab').withTags(AXE_TAGS).analyze();
      expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      await context.close();
    },
  );
});

describe('the toolbar', () => {
  it(
    'Check carries the live count; Tools and shortcuts are popovers; Alt+Shift+C checks; a file downloads',
    { timeout: 120_000 },
    async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(`${baseURL}/en/about-labs/`, { waitUntil: 'load' });
      await openLab(page);
      const toolbar = lab(page).getByRole('toolbar', { name: 'Lab actions' });
      // Check first, then hint and solution together; reset apart, in the last group.
      const groups = await toolbar.evaluate((el) =>
        [...el.children]
          .filter((c) => c.getClientRects().length > 0)
          .map((c) =>
            c.matches('button')
              ? [c.getAttribute('data-action')]
              : [...c.querySelectorAll('button')]
                  .filter((b) => b.getClientRects().length > 0)
                  .map((b) => b.getAttribute('data-action') ?? 'menu'),
          ),
      );
      expect(groups).toEqual([
        ['check'],
        ['hint', 'solution'],
        ['network', 'maximize'],
        ['reset', 'menu', 'menu'],
      ]);
      // The report/export/import tools and the name are not on the toolbar, but in the Tools menu.
      expect(await lab(page).locator('[data-action="report"]').isVisible()).toBe(false);
      expect(await lab(page).locator('[data-learner]').isVisible()).toBe(false);
      await focusTerminal(page);
      await run(page, 'kubectl apply -f web.yaml');
      const count = lab(page).locator('[data-check-count]');
      await page.waitForFunction(
        () => document.querySelector('pp-lab [data-check-count]')?.textContent === '1 of 5 checks',
      );
      expect(
        await lab(page)
          .getByRole('button', { name: /^Check/ })
          .getAttribute('aria-describedby'),
      ).toBe(await count.getAttribute('id'));
      // Alt+Shift+C from the terminal runs the checks (the status says so) instead of typing.
      await lab(page)
        .locator('[data-status]')
        .evaluate((el) => (el.textContent = ''));
      await page.keyboard.press('Alt+Shift+KeyC');
      await page.waitForFunction(() =>
        /1 of 5 checks pass/.test(document.querySelector('pp-lab [data-status]')!.textContent!),
      );
      expect(await promptLine(page)).toMatch(/\$$/);

      await openTools(page);
      expect(await lab(page).locator('[data-learner]').isVisible()).toBe(true);
      const download = page.waitForEvent('download');
      await lab(page).locator('[data-action="download-file"]').click();
      const file = await download;
      expect(file.suggestedFilename()).toBe('web.yaml');
      expect(
        await lab(page)
          .locator('[data-tools]')
          .evaluate((el) => el.matches(':popover-open')),
      ).toBe(false);

      await lab(page).locator('[data-keys-button]').click();
      const keys = lab(page).getByRole('dialog', { name: 'Keyboard shortcuts' });
      expect(await keys.isVisible()).toBe(true);
      expect(await keys.locator('dt').count()).toBeGreaterThanOrEqual(10);
      const { violations } = await new AxeBuilder({ page }).include('pp-lab').withTags(AXE_TAGS).analyze();
      expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      await page.keyboard.press('Escape');
      expect(await keys.isVisible()).toBe(false);
      await context.close();
    },
  );
});
