/**
 * Every built page in both locales: loads cleanly, declares its language, links to its counterpart
 * in the other locale, and passes axe (WCAG 2.0/2.1 A+AA, 2.2 AA) in the light and the dark theme.
 * Plus search in each language, the diagrams, and the root redirect.
 */
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { builtPages } from './pages';
import { searchFor } from './search-helpers';

const baseURL = inject('baseURL');
const pages = builtPages(inject('distDir'));
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

let browser: Browser;
const contexts = new Map<'light' | 'dark', { context: BrowserContext; page: Page; problems: string[] }>();

beforeAll(async () => {
  browser = await chromium.connect(inject('wsEndpoint'));
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ colorScheme, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
    contexts.set(colorScheme, { context, page, problems });
  }
});

afterAll(async () => {
  for (const { context } of contexts.values()) await context.close();
  await browser?.close();
});

/** Opens a path in the given theme and returns the page, with the list of problems seen while loading. */
async function open(path: string, theme: 'light' | 'dark' = 'light') {
  const tab = contexts.get(theme)!;
  tab.problems.length = 0;
  const response = await tab.page.goto(baseURL + path, { waitUntil: 'load' });
  return { page: tab.page, status: response?.status(), problems: tab.problems };
}

function formatViolations(violations: Awaited<ReturnType<AxeBuilder['analyze']>>['violations']) {
  return violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

it('found the pages of both locales in dist/', () => {
  expect(pages.filter((p) => p.prefix === 'pt-br').length).toBeGreaterThanOrEqual(4);
  expect(pages.filter((p) => p.prefix === 'en').length).toBe(
    pages.filter((p) => p.prefix === 'pt-br').length,
  );
});

describe.each(pages)('$path', ({ path, lang, counterpart }) => {
  it(`loads with status 200, lang="${lang}" and no console error`, async () => {
    const { page, status, problems } = await open(path);
    expect(status).toBe(200);
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    expect(problems).toEqual([]);
  });

  it(`its language picker leads to ${counterpart}`, async () => {
    const { page } = await open(path);
    const select = page.locator('starlight-lang-select select').first();
    const other = await select.locator('option:not([selected])').getAttribute('value');
    expect(other).toBe(counterpart);
    await Promise.all([page.waitForURL(baseURL + counterpart), select.selectOption(other!)]);
    expect(await page.getAttribute('html', 'lang')).not.toBe(lang);
  });

  it.each(['light', 'dark'] as const)('has no axe violation in the %s theme', async (theme) => {
    const { page } = await open(path, theme);
    expect(await page.getAttribute('html', 'data-theme')).toBe(theme);
    const { violations } = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
    expect(formatViolations(violations)).toEqual([]);
  });
});

describe('search', () => {
  it.each([
    // Words of the chapters' body text (Pagefind does not index diagram labels).
    { path: '/pt-br/', query: 'Klipper', expected: '/pt-br/k3s/cluster-networking/' },
    { path: '/en/', query: 'Klipper', expected: '/en/k3s/cluster-networking/' },
  ])(
    'finds "$query" from $path, only in that language',
    { timeout: 90_000 },
    async ({ path, query, expected }) => {
      const { page } = await open(path);
      await searchFor(page, query);
      const results = page.locator('.pagefind-ui__result-link');
      await results.first().waitFor({ timeout: 15_000 });
      const hrefs = await results.evaluateAll((links) =>
        links.map((a) => new URL((a as HTMLAnchorElement).href).pathname),
      );
      expect(hrefs).toContain(expected);
      const prefix = expected.split('/')[1];
      expect(hrefs.every((href) => href.startsWith(`/${prefix}/`))).toBe(true);
    },
  );

  it.each([
    { path: '/pt-br/', lang: 'pt-br' },
    { path: '/en/', lang: 'en' },
  ])('the Pagefind API on $path searches the $lang index', async ({ path, lang }) => {
    const { page } = await open(path);
    // A string, so the dynamic import reaches the browser as written (Vite rewrites import() in functions).
    const urls: string[] = await page.evaluate(`(async () => {
      const pagefind = await import('/pagefind/pagefind.js');
      await pagefind.init();
      const search = await pagefind.search('Klipper');
      return Promise.all(search.results.map(async (r) => (await r.data()).url));
    })()`);
    expect(urls.length).toBeGreaterThan(0);
    expect(urls.every((url) => url.startsWith(`/${lang}/`))).toBe(true);
  });
});

describe('diagrams', () => {
  it.each(['/pt-br/k3s/cluster-networking/', '/en/k3s/cluster-networking/'])(
    '%s has three inline SVG diagrams with a text alternative and no script',
    async (path) => {
      const { page } = await open(path);
      const figures = page.locator('figure.pp-diagram');
      expect(await figures.count()).toBe(3);
      for (const figure of await figures.all()) {
        const svg = figure.locator('svg[role="img"]');
        expect(await svg.count()).toBe(1);
        const titleId = await svg.getAttribute('aria-labelledby');
        const title = (await figure.locator(`title[id="${titleId}"]`).textContent()) ?? '';
        expect(title.length).toBeGreaterThan(40);
        expect(await figure.locator('script').count()).toBe(0);
      }
      const names = await page.getByRole('img').evaluateAll((els) => els.length);
      expect(names).toBeGreaterThanOrEqual(3);
    },
  );

  it('follows the site theme: node text is dark on light and light on dark', async () => {
    const luminance = async (theme: 'light' | 'dark') => {
      const { page } = await open('/en/k3s/cluster-networking/', theme);
      return page
        .locator('figure.pp-diagram svg g.node text')
        .first()
        .evaluate((el) => {
          const [r, g, b] = getComputedStyle(el)
            .fill.match(/\d+(\.\d+)?/g)!
            .map(Number);
          return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
        });
    };
    expect(await luminance('light')).toBeLessThan(0.3);
    expect(await luminance('dark')).toBeGreaterThan(0.7);
  });
});

describe('root', () => {
  it('/ redirects to /pt-br/', async () => {
    const { page } = await open('/');
    await page.waitForURL(baseURL + '/pt-br/');
    expect(await page.getAttribute('html', 'lang')).toBe('pt-BR');
  });

  it('an unknown path gets the 404 page', async () => {
    const { status } = await open('/pt-br/nao-existe/');
    expect(status).toBe(404);
  });
});

describe('render-blocking stylesheets', () => {
  // Monaco's ~135 KB of CSS once reached every page's <head> (Astro links the CSS of dynamic imports);
  // it must come with the lazily loaded editor instead (src/components/lab/monaco/css-on-demand.mjs).
  it.each(['/en/about-labs/', '/pt-br/', '/en/glossary/'])('%s links no editor stylesheet', async (path) => {
    const { page } = await open(path);
    const hrefs = await page.$$eval('link[rel="stylesheet"]', (links) =>
      links.map((l) => (l as HTMLLinkElement).href),
    );
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) {
      const css = await (await page.request.get(href)).text();
      expect(css, href).not.toContain('.monaco-editor');
    }
  });
});
