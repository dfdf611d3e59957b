/**
 * The instructor page (issue 21 item 4) in Chromium, served with the site's headers (CSP included):
 * reports chosen from disk are re-graded by the worker with no network (the context goes offline
 * once the grader is ready), shown as the cohort report's table and chart, and the downloads equal
 * what `packetpath grade` writes for the same reports. Axe in both themes on the graded page;
 * screenshots in /tmp/packetpath-shots/instructors for review.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openSession } from '../../src/grader/index.ts';
import { loadLabFromDir } from '../../src/grader/node/load-lab.ts';
import { runGrade } from '../../src/runtime/node-cli/grade.ts';
import { serveWithHeaders } from './static-server';

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const LAB = join(import.meta.dirname, '../../labs/04-empty-endpoints');
const SHOTS = '/tmp/packetpath-shots/instructors';
let browser: Browser;
let server: Awaited<ReturnType<typeof serveWithHeaders>>;
let dir: string;
let reports: string[];

beforeAll(async () => {
  server = await serveWithHeaders(inject('distDir'));
  browser = await chromium.connect(inject('wsEndpoint'));
  dir = mkdtempSync(join(tmpdir(), 'packetpath-instructor-page-'));
  mkdirSync(SHOTS, { recursive: true });
  const loaded = loadLabFromDir(LAB);
  const meta = (learner: string) => ({
    locale: 'en' as const,
    learner,
    startedAt: '2026-03-01T10:00:00Z',
    submittedAt: '2026-03-01T10:30:00Z',
  });
  const ana = openSession(loaded);
  ana.solve();
  const bruno = openSession(loaded);
  bruno.exec('kubectl -n shop get endpointslices');
  const carla = openSession(loaded).report(meta('Carla'));
  reports = [
    ['ana.json', JSON.stringify(ana.report(meta('Ana Souza')))],
    ['bruno.json', JSON.stringify(bruno.report(meta('Bruno')))],
    ['carla.json', JSON.stringify({ ...carla, score: { passed: 7, total: 7, percent: 100 } })],
  ].map(([name, text]) => {
    writeFileSync(join(dir, name!), text!);
    return join(dir, name!);
  });
  writeFileSync(
    join(dir, 'roster.csv'),
    'name,email,id\nAna Souza,ana@uni.example,1\nBruno,bruno@uni.example,2\nCarla,carla@uni.example,3\n',
  );
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.each([
  ['pt-br', 'pt-BR', 'Corrigidos com o lab 04-empty-endpoints.'],
  ['en', 'en', 'Re-graded against lab 04-empty-endpoints.'],
] as const)('/%s/instructors/', (prefix, locale, done) => {
  it(
    're-grades offline in a worker, shows the table and chart, and downloads what the CLI writes',
    { timeout: 120_000 },
    async () => {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 800 },
        acceptDownloads: true,
      });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      await page.goto(`${server.url}/${prefix}/instructors/`);
      await page.waitForSelector('packetpath-instructor[data-ready="true"]', { timeout: 60_000 });
      await context.setOffline(true);
      await page.setInputFiles('[data-roster]', join(dir, 'roster.csv'));
      await page.setInputFiles('[data-files]', reports);
      await page.waitForFunction(
        (text) => document.querySelector('[data-status]')?.textContent === text,
        done,
        { timeout: 60_000 },
      );
      expect(await page.locator('[data-results] tbody tr').first().locator('td').first().textContent()).toBe(
        'ana.json',
      );
      // One bar per check of lab 04.
      expect(await page.locator('[data-results] svg rect.bar').count()).toBe(8);
      // Carla's edited score: flagged in the learner table and listed again under the problems.
      expect(await page.locator('[data-results] td.flagged').count()).toBe(2);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.click('[data-format="canvas"]'),
      ]);
      await download.saveAs(join(dir, `page-${prefix}.csv`));
      const fromPage = readFileSync(join(dir, `page-${prefix}.csv`), 'utf8');
      await runGrade(
        [
          LAB,
          ...reports,
          '--roster',
          join(dir, 'roster.csv'),
          '--format',
          'canvas',
          '--out',
          join(dir, 'cli.csv'),
          '--locale',
          locale,
        ],
        {
          cwd: dir,
          out: () => {},
          err: () => {},
        },
      );
      expect(fromPage).toBe(readFileSync(join(dir, 'cli.csv'), 'utf8'));
      expect(problems).toEqual([]);
      await context.close();
    },
  );

  it(
    'works offline after one visit: reloaded with no network, the page re-grades a dropped report',
    { timeout: 120_000 },
    async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(`${server.url}/${prefix}/instructors/`);
      // The service worker has kept the page, its grading worker and the labs.
      await page.waitForSelector('packetpath-instructor[data-offline="ready"]', { timeout: 60_000 });
      await context.setOffline(true);
      await page.reload();
      await page.waitForSelector('packetpath-instructor[data-ready="true"]', { timeout: 60_000 });
      // Still kept, and said so, with no network.
      await page.waitForSelector('packetpath-instructor[data-offline="ready"]', { timeout: 30_000 });
      expect(await page.title()).toMatch(/\S/);
      // Dropped, as from a file manager, onto the drop zone.
      const bytes = readFileSync(reports[0]!, 'utf8');
      const dropped = await page.evaluateHandle((text) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], 'ana.json', { type: 'application/json' }));
        return dt;
      }, bytes);
      await page.dispatchEvent('[data-drop]', 'drop', { dataTransfer: dropped });
      await page.waitForFunction(
        (text) => document.querySelector('[data-status]')?.textContent === text,
        done,
        { timeout: 60_000 },
      );
      expect(await page.locator('[data-results] tbody tr').first().locator('td').first().textContent()).toBe(
        'ana.json',
      );
      expect(problems).toEqual([]);
      await context.close();
    },
  );

  it(
    'has no axe violation once graded, in light and dark; screenshots at three sizes',
    { timeout: 180_000 },
    async () => {
      for (const theme of ['light', 'dark'] as const) {
        for (const [w, h] of [
          [1280, 800],
          [1920, 1080],
          [390, 844],
        ] as const) {
          const context = await browser.newContext({ viewport: { width: w, height: h }, colorScheme: theme });
          await context.addInitScript((t) => localStorage.setItem('starlight-theme', t), theme);
          const page = await context.newPage();
          await page.goto(`${server.url}/${prefix}/instructors/`);
          await page.waitForSelector('packetpath-instructor[data-ready="true"]', { timeout: 60_000 });
          await page.setInputFiles('[data-files]', reports);
          await page.waitForFunction(
            (text) => document.querySelector('[data-status]')?.textContent === text,
            done,
            { timeout: 60_000 },
          );
          expect(await page.getAttribute('html', 'data-theme')).toBe(theme);
          if (w === 1280) {
            const { violations } = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
            expect(
              violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
            ).toEqual([]);
          }
          await page.locator('packetpath-instructor').scrollIntoViewIfNeeded();
          await page.screenshot({
            path: join(SHOTS, `${prefix}-${theme}-${w}x${h}.png`),
            fullPage: w === 390 ? false : true,
          });
          await context.close();
        }
      }
    },
  );
});
