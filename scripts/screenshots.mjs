#!/usr/bin/env node
/**
 * Screenshots of the lab workspace for review (issue 20 item 7): every combination of 1280×800,
 * 1920×1080 and 390×844, light and dark, pt-BR and en, with a wide `kubectl get pods -o wide` in the
 * terminal; full window on the two desktop sizes, the page itself on the phone (its Steps tab, then its
 * Terminal tab); the Tools menu and the shortcuts popover at 1280×800 and on the phone. Against the built
 * site (run `npm run build` first), with Debian's Chromium. Then the course progress page at each size.
 * Writes test/e2e/screenshots/lab-*.png and progress-*.png.
 *
 *   npm exec -- node scripts/screenshots.mjs
 *
 * With --page, chapters instead of the lab workspace: for each page (a path without the locale, e.g.
 * north-south/packet-path) and optional #anchor, the same viewports, themes and locales, scrolled to
 * the anchor (or to the page's first lab when none is given) once that lab is ready. Writes
 * test/e2e/screenshots/page-<path>-<viewport>-<theme>-<locale>.png.
 *
 *   npm exec -- node scripts/screenshots.mjs --page north-south/packet-path --page services/services#anchor
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serveStatic } from '../test/e2e/static-server.ts';

// As test/e2e/global-setup.ts launches it (that module cannot be imported outside vitest).
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'];

const dist = fileURLToPath(new URL('../dist', import.meta.url));
const out = fileURLToPath(new URL('../test/e2e/screenshots/', import.meta.url));
mkdirSync(out, { recursive: true });

const VIEWPORTS = [
  { name: '1280x800', width: 1280, height: 800, phone: false },
  { name: '1920x1080', width: 1920, height: 1080, phone: false },
  { name: '390x844', width: 390, height: 844, phone: true },
];
const THEMES = ['light', 'dark'];
const LOCALES = ['pt-br', 'en'];

async function typeLine(page, line) {
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
  await page.waitForFunction(
    (l) => {
      const rows = document.querySelector('pp-lab .xterm-rows')?.textContent ?? '';
      const at = rows.lastIndexOf(l);
      return at >= 0 && /\$\s*$/.test(rows.slice(at + l.length).replace(/\u00a0/g, ' '));
    },
    line,
    { timeout: 45_000 },
  );
}

/** The `--page` arguments, as { path, anchor }. */
const pages = process.argv
  .flatMap((arg, i, all) => (arg === '--page' && all[i + 1] ? [all[i + 1]] : []))
  .map((spec) => {
    const [path = '', anchor] = spec.split('#');
    return { path: path.replace(/^\/|\/$/g, ''), anchor };
  });

/** One chapter at one viewport, theme and locale: its lab (or the anchor) in view. */
async function pageShot(context, vp, theme, locale, { path, anchor }) {
  const page = await context.newPage();
  await page.goto(`${server.url}/${locale}/${path}/${anchor ? `#${anchor}` : ''}`, { waitUntil: 'load' });
  const target = anchor ? page.locator(`[id="${anchor}"]`) : page.locator('pp-lab').first();
  await target.scrollIntoViewIfNeeded();
  if (!anchor) await page.waitForSelector('pp-lab[data-state="ready"]', { timeout: 60_000 });
  await target.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(500);
  const file = `${out}page-${path.replace(/\//g, '-')}${anchor ? `-${anchor}` : ''}-${vp.name}-${theme}-${locale}.png`;
  await page.screenshot({ path: file });
  console.log(file);
}

const server = await serveStatic(dist);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
try {
  for (const vp of VIEWPORTS)
    for (const theme of THEMES)
      for (const locale of LOCALES) {
        const context = await browser.newContext({
          viewport: { width: vp.width, height: vp.height },
          colorScheme: theme,
          ...(vp.phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 1 } : {}),
        });
        await context.addInitScript((t) => localStorage.setItem('starlight-theme', t), theme);
        if (pages.length > 0) {
          for (const target of pages) await pageShot(context, vp, theme, locale, target);
          await context.close();
          continue;
        }
        const page = await context.newPage();
        await page.goto(`${server.url}/${locale}/about-labs/`, { waitUntil: 'load' });
        await page.locator('pp-lab [data-panes]').scrollIntoViewIfNeeded();
        await page.waitForSelector('pp-lab[data-state="ready"]', { timeout: 60_000 });
        await page.waitForSelector('pp-lab[data-editor="ready"]', { timeout: 60_000 });
        if (!vp.phone) {
          await page.locator('pp-lab [data-action="maximize"]').click();
          await page.waitForTimeout(300);
        } else {
          // The phone layout shows one part at a time: the Steps tab first.
          await page.locator('pp-lab [data-views]').scrollIntoViewIfNeeded();
          await page.screenshot({ path: `${out}lab-${vp.name}-${theme}-${locale}-steps.png` });
          await page.locator('pp-lab [data-view-tab="terminal"]').click();
        }
        await page.locator('pp-lab .xterm-helper-textarea').focus();
        await typeLine(page, 'kubectl create deployment web --image=nginx --replicas=2');
        await typeLine(page, 'kubectl get pods -o wide');
        await page.locator('pp-lab [data-action="check"]').click();
        // Attached, not visible: on the phone the checks are in the Steps tab.
        await page.waitForSelector(
          'pp-lab [data-check][data-state="failed"], pp-lab [data-check][data-state="passed"]',
          {
            state: 'attached',
          },
        );
        if (vp.phone) await page.locator('pp-lab [data-views]').scrollIntoViewIfNeeded();
        await page.waitForTimeout(300);
        const file = `${out}lab-${vp.name}-${theme}-${locale}.png`;
        await page.screenshot({ path: file });
        console.log(file);
        // The Tools menu and the shortcuts popover, at the laptop size and on the phone.
        if (vp.name !== '1920x1080') {
          await page.locator('pp-lab [data-tools-button]').click();
          await page.waitForTimeout(200);
          await page.screenshot({ path: `${out}lab-${vp.name}-${theme}-${locale}-tools.png` });
          await page.keyboard.press('Escape');
          await page.locator('pp-lab [data-keys-button]').click();
          await page.waitForTimeout(200);
          await page.screenshot({ path: `${out}lab-${vp.name}-${theme}-${locale}-keys.png` });
          await page.keyboard.press('Escape');
        }
        // The course progress page, with the sandbox's work just saved (the same browser context).
        await page.waitForSelector('pp-lab[data-saved]');
        await page.goto(`${server.url}/${locale}/progress/`, { waitUntil: 'load' });
        await page.waitForSelector('pp-course-progress[data-ready]');
        await page.locator('pp-course-progress tr[data-lab="00-sandbox"]').first().scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${out}progress-${vp.name}-${theme}-${locale}.png` });
        await context.close();
      }
} finally {
  await browser.close();
  await server.close();
}
