/**
 * The capstone in the browser, in each locale: the page starts the variant the learner's draw seed
 * picks (the seed comes from crypto.getRandomValues, fixed here by an init script), shows that
 * variant's start in the editor and the terminal, keeps it across Reset, hides the fault's name until
 * the lab is passed, grades it (the downloaded report names the variant and seed, and re-grades as
 * that variant), and "New fault" draws another.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { drawFrom } from '../../src/grader/draw.ts';
import { engine, parseReport, regradeReport, resolveVariant } from '../../src/grader/index.ts';
import { loadLabFromDir } from '../../src/grader/node/load-lab.ts';
import { focusTerminal, lab, openLab, openTools, run, waitForSaved } from './lab-helpers';

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
const LAB = loadLabFromDir(join(import.meta.dirname, '../../labs/17-capstone'));
const IDS = (LAB.lab.variants ?? []).map((v) => v.id);
const seedFor = (id: string) => {
  for (let s = 1000; ; s++) if (drawFrom('17-capstone', IDS, s) === id) return s;
};

const CASES = [
  {
    path: '/en/capstone/final-challenge/',
    lang: 'en' as const,
    variant: 'selector',
    file: 'api-service.yaml',
    fault: 'app: shop-api',
    curl: 'curl: (7) Failed to connect to api port 80',
  },
  {
    path: '/pt-br/capstone/final-challenge/',
    lang: 'pt-BR' as const,
    variant: 'dns',
    file: 'policies.yaml',
    fault: 'port: 5353',
    curl: 'curl: (28) Resolving timed out',
  },
];

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.connect(inject('wsEndpoint'));
});
afterAll(async () => {
  await browser?.close();
});

/** The draw seed saved with the lab's progress in IndexedDB. */
function storedSeed(page: Page): Promise<unknown> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('packet-path');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction('progress').objectStore('progress').get('17-capstone');
          get.onsuccess = () => resolve((get.result as { drawSeed?: number } | undefined)?.drawSeed);
          get.onerror = () => reject(get.error);
        };
      }),
  );
}

async function confirmAction(page: Page, action: string): Promise<void> {
  await lab(page).locator(`[data-action="${action}"]`).click();
  await lab(page).locator('[data-dialog-yes]').click();
}

describe.each(CASES)('the capstone on $path', ({ path, lang, variant, file, fault, curl }) => {
  it(
    'starts the drawn variant, keeps it on Reset, grades it, then draws another',
    { timeout: 240_000 },
    async () => {
      const seed = seedFor(variant);
      const context = await browser.newContext({
        viewport: { width: 1920, height: 1000 },
        acceptDownloads: true,
      });
      // The lab's draw seed is one Uint32 from crypto.getRandomValues: make those seed, seed + 1, …
      await context.addInitScript((first: number) => {
        const original = crypto.getRandomValues.bind(crypto);
        let next = first;
        crypto.getRandomValues = (<T extends ArrayBufferView | null>(array: T): T => {
          if (array instanceof Uint32Array && array.length === 1) {
            array[0] = next++;
            return array;
          }
          return original(array as never) as T;
        }) as typeof crypto.getRandomValues;
      }, seed);
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));

      await page.goto(baseURL + path, { waitUntil: 'load' });
      await openLab(page);
      expect(await lab(page).getAttribute('data-variant')).toBe('drawn');
      expect(await lab(page).locator('[data-action="new-fault"]').isVisible()).toBe(true);

      // The variant's start: its file in the editor, its symptom at the terminal, failing checks, no name.
      await lab(page).locator(`[data-tabs] [data-file="${file}"]`).click();
      await focusTerminal(page);
      expect(await run(page, `grep -F '${fault}' ${file}`)).toContain(fault);
      const out = await run(page, 'kubectl exec -n shop deploy/web -- curl -sS -m 5 api');
      expect(out).toContain(curl);
      // The first command saves the lab's progress, draw seed included.
      await waitForSaved(page);
      expect(await storedSeed(page)).toBe(seed);
      await page.waitForSelector('pp-lab [data-check="web-reaches-api"][data-state="failed"]');
      expect(await lab(page).locator('[data-variant]').isHidden()).toBe(true);

      // Reset brings the same fault back.
      await confirmAction(page, 'reset');
      await page.waitForFunction(
        (done) => document.querySelector('pp-lab [data-status]')?.textContent === done,
        STRINGS[lang]['lab.resetDone'],
      );
      await focusTerminal(page);
      expect(await run(page, `grep -F '${fault}' ${file}`)).toContain(fault);
      expect(await storedSeed(page)).toBe(seed);

      // The solution (the variant's own) passes every check; then the fault is named, in the page's language.
      await confirmAction(page, 'solution');
      await lab(page).locator('[data-solution] button').click();
      const total = resolveVariant(LAB, variant).lab.checks.length;
      await page.waitForFunction(
        (n) => document.querySelectorAll('pp-lab [data-check][data-state="passed"]').length === n,
        total,
        { timeout: 120_000 },
      );
      const title = LAB.lab.variants!.find((v) => v.id === variant)!.title[lang].replace(/`/g, '');
      await page.waitForSelector('pp-lab [data-variant]:not([hidden])');
      expect(await lab(page).locator('[data-variant]').innerText()).toContain(title);
      // Rendered like check titles: `code` spans, no raw backticks.
      expect(await lab(page).locator('[data-variant] code').count()).toBeGreaterThan(0);
      expect(await lab(page).getAttribute('data-variant')).toBe(variant);

      // The report names the variant and the seed, and re-grades as that variant.
      const download = page.waitForEvent('download');
      await openTools(page);
      await lab(page).locator('[data-action="report"]').click();
      // The browser runs in another process (connected remotely): save the download here.
      const saved = join(mkdtempSync(join(tmpdir(), 'pp-capstone-')), 'report.json');
      await (await download).saveAs(saved);
      const report = parseReport(readFileSync(saved, 'utf8'));
      expect(report.lab).toMatchObject({ id: '17-capstone', variant, seed });
      expect(report.locale).toBe(lang);
      const g = regradeReport(LAB, report, { engine });
      // The built site's engine may be older than the source's (the snapshot is then compared with a
      // different simulator's): what must agree is every check's result and the score.
      expect(g.flags.filter((f) => f.kind !== 'snapshot')).toEqual([]);
      expect(g.score.percent).toBe(100);

      // New fault: another seed, drawing another variant, and the lab back at its start.
      await confirmAction(page, 'new-fault');
      await page.waitForFunction(
        (done) => document.querySelector('pp-lab [data-status]')?.textContent === done,
        STRINGS[lang]['lab.newFaultDone'],
        { timeout: 60_000 },
      );
      const next = await storedSeed(page);
      expect(typeof next === 'number' && next !== seed).toBe(true);
      expect(drawFrom('17-capstone', IDS, next as number)).not.toBe(variant);
      expect(await lab(page).locator('[data-variant]').isHidden()).toBe(true);
      await page.waitForSelector('pp-lab [data-check="order-accepted"][data-state="failed"]');
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});
