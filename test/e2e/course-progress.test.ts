/**
 * The course progress page (issue 20 item 6), in both locales: every chapter of the course with its
 * lab, the status and percent read from the progress the labs saved in this browser, "continue where
 * you left off", and the whole progress exported and imported as one file.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { focusTerminal, lab, openLab, run, waitForSaved } from './lab-helpers';

const baseURL = inject('baseURL');
let browser: Browser;
beforeAll(async () => {
  browser = await chromium.connect(inject('wsEndpoint'));
});
afterAll(async () => {
  await browser?.close();
});

const PAGES = [
  { locale: 'pt-br', path: '/pt-br/progress/', notStarted: 'Não começado', inProgress: 'Em andamento' },
  { locale: 'en', path: '/en/progress/', notStarted: 'Not started', inProgress: 'In progress' },
] as const;

describe.each(PAGES)('$path', ({ locale, path, notStarted, inProgress }) => {
  it(
    'lists every lab, shows saved work, continues there, exports and imports it all',
    { timeout: 180_000 },
    async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(baseURL + path, { waitUntil: 'load' });
      await page.waitForSelector('pp-course-progress[data-ready]');
      const rows = page.locator('pp-course-progress tr[data-lab]');
      // Every lab of the course has a row (the capstone's among them), all not started.
      const ids = await rows.evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.lab));
      expect(ids.length).toBeGreaterThanOrEqual(10);
      expect(ids).toContain('17-capstone');
      expect(new Set(await rows.locator('[data-status]').allInnerTexts())).toEqual(new Set([notStarted]));
      const { violations } = await new AxeBuilder({ page }).include('main').analyze();
      expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

      // Work in the sandbox lab: one of its five checks passes.
      await page.goto(`${baseURL}/${locale}/about-labs/`, { waitUntil: 'load' });
      await openLab(page, { editor: false });
      if (await lab(page).locator('[data-views]').isVisible())
        await lab(page).getByRole('tab').nth(2).click();
      await focusTerminal(page);
      await run(page, 'kubectl apply -f web.yaml');
      await page.waitForFunction(
        () => document.querySelector('pp-lab')?.getAttribute('data-percent') === '20',
      );
      await waitForSaved(page);

      await page.goto(baseURL + path, { waitUntil: 'load' });
      await page.waitForSelector('pp-course-progress[data-ready]');
      // The sandbox is embedded in several chapters: each of its rows shows the same lab's standing.
      const sandbox = page.locator('pp-course-progress tr[data-lab="00-sandbox"]').first();
      expect(await sandbox.locator('[data-status]').innerText()).toBe(inProgress);
      expect(await sandbox.locator('[data-percent]').innerText()).toMatch(/^1 \S+ 5 \(20%\)$/);
      const cont = page.locator('pp-course-progress [data-continue] a');
      expect(await cont.getAttribute('href')).toBe(`/${locale}/about-labs/`);

      // Export: one file with every lab's record; import it into a fresh browser.
      const download = page.waitForEvent('download');
      await page.locator('pp-course-progress [data-export]').click();
      const file = join(mkdtempSync(join(tmpdir(), 'pp-progress-')), 'progress.json');
      await (await download).saveAs(file);
      const exported = JSON.parse(readFileSync(file, 'utf8')) as {
        format: string;
        labs: { labId: string }[];
      };
      expect(exported.format).toBe('packetpath-progress');
      expect(exported.labs.map((l) => l.labId)).toEqual(['00-sandbox']);

      const fresh = await browser.newContext();
      const other = await fresh.newPage();
      await other.goto(baseURL + path, { waitUntil: 'load' });
      await other.waitForSelector('pp-course-progress[data-ready]');
      expect(await other.locator('tr[data-lab="00-sandbox"] [data-status]').first().innerText()).toBe(
        notStarted,
      );
      await other.setInputFiles('pp-course-progress [data-import-file]', file);
      await other.waitForFunction(
        () =>
          document
            .querySelector('pp-course-progress tr[data-lab="00-sandbox"]')
            ?.getAttribute('data-state') === 'in-progress',
      );
      // A file that is not an export is refused with a message, and nothing changes.
      const bad = join(mkdtempSync(join(tmpdir(), 'pp-progress-')), 'bad.json');
      writeFileSync(bad, '{"hello": 1}');
      await other.setInputFiles('pp-course-progress [data-import-file]', bad);
      await other.waitForFunction(() =>
        /\(/.test(document.querySelector('pp-course-progress [data-summary]')!.textContent!),
      );
      expect(await other.locator('tr[data-lab="00-sandbox"]').first().getAttribute('data-state')).toBe(
        'in-progress',
      );
      await fresh.close();
      await context.close();
    },
  );
});
