/**
 * The grade report and live progress in the browser, in each locale: the learner types their name in
 * the labelled "Your name" field with the keyboard, runs a command and sees the checks panel's percent
 * (text and a named progress bar) follow, downloads the report and finds their name in its `learner`,
 * then reloads and finds the name still in the field; cleared, the next report has none. axe looks at
 * the new field and the progress bar.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseReport } from '../../src/grader/index.ts';
import {
  LAB_PAGES,
  focusEditor,
  focusTerminal,
  lab,
  openLab,
  openTools,
  run,
  waitForEditor,
} from './lab-helpers';

const baseURL = inject('baseURL');
const STRINGS = {
  en: JSON.parse(readFileSync(join(import.meta.dirname, '../../src/i18n/en.json'), 'utf8')) as Record<
    string,
    string
  >,
  'pt-BR': JSON.parse(readFileSync(join(import.meta.dirname, '../../src/i18n/pt-BR.json'), 'utf8')) as Record<
    string,
    string
  >,
};
// The summary line as a learner reads it, from the i18n templates (one place says the wording).
const summary = (lang: 'en' | 'pt-BR', passed: number, total: number, percent: number) =>
  STRINGS[lang]['lab.checkSummary']!.replace('{passed}', String(passed))
    .replace('{total}', String(total))
    .replace('{percent}', String(percent));

let browser: Browser;

beforeAll(async () => {
  browser = await chromium.connect(inject('wsEndpoint'));
});

afterAll(async () => {
  await browser?.close();
});

async function waitForSummary(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (want) => document.querySelector('pp-lab [data-check-summary]')?.textContent === want,
    text,
    { timeout: 30_000 },
  );
}

describe.each(LAB_PAGES)('report and progress on $path', ({ path, lang }) => {
  it(
    'shows the percent after a command, puts the typed name in the report, keeps it across a reload',
    { timeout: 120_000 },
    async () => {
      const context = await browser.newContext({ acceptDownloads: true });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      await page.goto(baseURL + path, { waitUntil: 'load' });
      await openLab(page, { editor: false });

      // The name field, in the Tools menu: found by its label (its accessible name), described by the help line.
      await openTools(page);
      const name = lab(page).getByRole('textbox', { name: STRINGS[lang]['lab.learnerLabel']! });
      expect(await name.count()).toBe(1);
      const helpId = await name.getAttribute('aria-describedby');
      expect(await page.locator(`#${helpId}`).innerText()).toBe(STRINGS[lang]['lab.learnerHelp']);
      expect(await name.inputValue()).toBe('');

      // Live progress: a command that creates the Deployment passes 1 of the sandbox's 5 checks.
      await focusTerminal(page);
      await run(page, 'kubectl apply -f web.yaml');
      await waitForSummary(page, summary(lang, 1, 5, 20));
      const bar = lab(page).getByRole('progressbar', { name: STRINGS[lang]['lab.checkProgress']! });
      expect(await bar.evaluate((el: HTMLProgressElement) => [el.value, el.max, el.hidden])).toEqual([
        1,
        5,
        false,
      ]);
      await run(page, 'kubectl expose deployment web --port=80');
      await waitForSummary(page, summary(lang, 2, 5, 40));
      expect(await bar.evaluate((el: HTMLProgressElement) => el.value)).toBe(2);

      // The learner types a name with the keyboard.
      await openTools(page);
      await name.focus();
      await page.keyboard.type('Ana Souza');
      const download = page.waitForEvent('download');
      await lab(page).locator('[data-action="report"]').click();
      // The browser runs in another process (connected remotely): save the download here.
      const saved = join(mkdtempSync(join(tmpdir(), 'pp-report-')), 'report.json');
      await (await download).saveAs(saved);
      const report = parseReport(readFileSync(saved, 'utf8'));
      expect(report.learner).toBe('Ana Souza');
      expect(report.locale).toBe(lang);
      expect(report.lab.id).toBe('00-sandbox');
      expect(report.score).toEqual({ passed: 2, total: 5, percent: 40 });

      const axe = await new AxeBuilder({ page })
        .include('pp-lab [data-learner-box]')
        .include('pp-lab [data-check-progress]')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
        .analyze();
      expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

      // Reload: the name is still there (kept site-wide, in this browser).
      await page.reload({ waitUntil: 'load' });
      await openLab(page, { editor: false });
      await openTools(page);
      expect(await name.inputValue()).toBe('Ana Souza');

      // Cleared, the next report has no learner.
      await name.fill('');
      await openTools(page);
      const again = page.waitForEvent('download');
      await lab(page).locator('[data-action="report"]').click();
      const saved2 = join(mkdtempSync(join(tmpdir(), 'pp-report-')), 'report.json');
      await (await again).saveAs(saved2);
      expect(parseReport(readFileSync(saved2, 'utf8')).learner).toBeUndefined();
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});

describe('the debounced checks', () => {
  it(
    'a burst of editor keystrokes re-runs the checks once, after the burst',
    { timeout: 120_000 },
    async () => {
      const context = await browser.newContext();
      // Counts the `check` requests the page sends its engine worker (the protocol's only way to run them).
      await context.addInitScript(() => {
        const w = window as unknown as { ppChecks: number };
        w.ppChecks = 0;
        const post = Worker.prototype.postMessage;
        Worker.prototype.postMessage = function (this: Worker, ...args: unknown[]) {
          const m = args[0] as { kind?: unknown; type?: unknown } | null;
          if (m && m.kind === 'request' && m.type === 'check') w.ppChecks++;
          (post as (...a: unknown[]) => void).apply(this, args);
        };
      });
      const page = await context.newPage();
      await page.goto(baseURL + '/en/about-labs/', { waitUntil: 'load' });
      await openLab(page);
      const checks = () => page.evaluate(() => (window as unknown as { ppChecks: number }).ppChecks);
      expect(await checks()).toBe(0);

      // 24 keystrokes, each an editor change that may change a verdict (an output check can read files).
      const comment = '# edited in one burst';
      await focusEditor(page);
      await page.keyboard.press('Control+End');
      await page.keyboard.type(comment);
      await waitForEditor(page, comment);
      await page.waitForFunction(() => (window as unknown as { ppChecks: number }).ppChecks > 0, null, {
        timeout: 20_000,
      });
      // Nothing else is scheduled: give a stray second run twice the debounce to show up.
      await page.waitForTimeout(1000);
      // One run per burst; two only if this loaded machine paused the typing for longer than the debounce.
      expect(await checks()).toBeGreaterThanOrEqual(1);
      expect(await checks()).toBeLessThanOrEqual(2);
      await waitForSummary(page, summary('en', 0, 5, 0));
      await context.close();
    },
  );
});
