/**
 * The glossary: the filter on the glossary page (both locales, accent-insensitive, Escape, live count,
 * no JavaScript), the term links in chapters and their tooltips (focus, hover, Escape, target), axe with
 * the filter used and with a tooltip open, and Pagefind results for glossary entries.
 */
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { searchFor } from './search-helpers';

const baseURL = inject('baseURL');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

let browser: Browser;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  browser = await chromium.connect(inject('wsEndpoint'));
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

async function open(path: string, theme: 'light' | 'dark' = 'light') {
  problems.length = 0;
  await page.emulateMedia({ colorScheme: theme });
  await page.goto(baseURL + path, { waitUntil: 'load' });
  return page;
}

async function axe(p: Page) {
  const { violations } = await new AxeBuilder({ page: p }).withTags(AXE_TAGS).analyze();
  return violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

const entries = (p: Page) => p.locator('[data-pp-entry]');
const visibleEntries = (p: Page) => p.locator('[data-pp-entry]:not([hidden])');
const filter = (p: Page) => p.locator('#pp-glossary-filter');
const status = (p: Page) => p.locator('[data-pp-count]');

/** The folded text the filter searches, for every visible entry. */
const visibleTexts = (p: Page) =>
  visibleEntries(p).evaluateAll((els) =>
    els.map((el) =>
      [...el.querySelectorAll('[data-pp-field]')]
        .map((f) => f.textContent ?? '')
        .join(' ')
        .normalize('NFD')
        .replace(/\p{M}/gu, '')
        .toLowerCase(),
    ),
  );

describe('glossary filter', () => {
  it.each([
    { path: '/pt-br/glossary/', label: 'Filtrar termos', query: 'conntrack', one: /termos? encontrados?/ },
    { path: '/en/glossary/', label: 'Filter terms', query: 'ndots', one: /terms? found/ },
  ])('$path: typing narrows the list and announces the count', async ({ path, label, query, one }) => {
    const p = await open(path);
    const total = await entries(p).count();
    expect(total).toBeGreaterThan(60);
    await expect.poll(() => filter(p).isVisible()).toBe(true);
    expect(await p.getByLabel(label).count()).toBe(1);
    expect(await status(p).getAttribute('aria-live')).toBe('polite');

    await filter(p).pressSequentially(query);
    const shown = await visibleEntries(p).count();
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(total);
    expect(await p.locator(`[id="${query}"]`).isVisible()).toBe(true);
    for (const text of await visibleTexts(p)) expect(text).toContain(query);
    await expect.poll(() => status(p).textContent()).toMatch(one);
    expect(problems).toEqual([]);
  });

  it('matches without accents: "conexao" finds the entries with "conexão"', async () => {
    const p = await open('/pt-br/glossary/');
    await filter(p).fill('conexão');
    const withAccent = await visibleEntries(p).count();
    expect(withAccent).toBeGreaterThan(0);
    await filter(p).fill('');
    await filter(p).pressSequentially('conexao');
    expect(await visibleEntries(p).count()).toBe(withAccent);
    for (const text of await visibleTexts(p)) expect(text).toContain('conexao');
  });

  it('matches every word typed, in any field (expansion, how Brazilians say it)', async () => {
    const p = await open('/en/glossary/');
    await filter(p).fill('network interface');
    expect(await p.locator('[id="cni"]').isVisible()).toBe(true);
    await filter(p).fill('cê-ene-í');
    expect(await p.locator('[id="cni"]').isVisible()).toBe(true);
  });

  it('Escape clears the filter and shows every term again', async () => {
    const p = await open('/pt-br/glossary/');
    const total = await entries(p).count();
    await filter(p).fill('vxlan');
    expect(await visibleEntries(p).count()).toBeLessThan(total);
    await filter(p).press('Escape');
    expect(await filter(p).inputValue()).toBe('');
    expect(await visibleEntries(p).count()).toBe(total);
    await expect.poll(() => status(p).textContent()).toBe(`Mostrando todos os ${total} termos.`);
    // Focus stays in the field, and Tab leaves it (no trap).
    expect(await p.evaluate(() => document.activeElement?.id)).toBe('pp-glossary-filter');
    await p.keyboard.press('Tab');
    expect(await p.evaluate(() => document.activeElement?.id)).not.toBe('pp-glossary-filter');
  });

  it('says when nothing matches, in the page language', async () => {
    const p = await open('/en/glossary/');
    await filter(p).fill('zzzzqqq');
    expect(await visibleEntries(p).count()).toBe(0);
    await expect.poll(() => status(p).textContent()).toBe('No terms match “zzzzqqq”.');
    expect(await p.locator('[data-pp-letter]:not([hidden])').count()).toBe(0);
  });

  it.each(['light', 'dark'] as const)(
    'has no axe violation with the filter used (%s theme)',
    async (theme) => {
      const p = await open('/pt-br/glossary/', theme);
      await filter(p).fill('dns');
      await expect.poll(() => status(p).textContent()).toMatch(/encontrado/);
      expect(await axe(p)).toEqual([]);
    },
  );

  it('without JavaScript shows the whole list and no filter', async () => {
    const noJs = await browser.newContext({ javaScriptEnabled: false });
    try {
      const p = await noJs.newPage();
      await p.goto(baseURL + '/en/glossary/');
      const total = await entries(p).count();
      expect(total).toBeGreaterThan(60);
      expect(await visibleEntries(p).count()).toBe(total);
      expect(await filter(p).isVisible()).toBe(false);
      expect(await p.locator('[id="conntrack"]').isVisible()).toBe(true);
    } finally {
      await noJs.close();
    }
  });
});

describe('term links in chapters', () => {
  const chapter = '/en/k3s/cluster-networking/';
  const link = (p: Page, id: string) =>
    p.locator(`.sl-markdown-content a.pp-term__link[data-pp-term="${id}"]`);
  const tip = (p: Page, id: string) => p.locator(`#pp-term-tip-${id}`);
  const isOpen = (p: Page, id: string) => tip(p, id).evaluate((el) => el.matches(':popover-open'));

  it('links the first occurrence of chapter terms, never in headings, code blocks or the objectives', async () => {
    const p = await open(chapter);
    expect(await p.locator('a.pp-term__link').count()).toBeGreaterThan(3);
    expect(await link(p, 'cni').count()).toBe(1);
    const misplaced = await p
      .locator('a.pp-term__link')
      .evaluateAll(
        (links) =>
          links.filter((a) => a.closest('h1, h2, h3, h4, h5, h6, pre, figure, svg, .pp-objectives, a a'))
            .length,
      );
    expect(misplaced).toBe(0);
    expect(await link(p, 'cni').getAttribute('href')).toBe('/en/glossary/#cni');
  });

  it('shows the definition on keyboard focus, and Escape hides it', async () => {
    const p = await open(chapter);
    const cni = link(p, 'cni');
    expect(await cni.getAttribute('aria-describedby')).toBe('pp-term-tip-cni');
    expect(await isOpen(p, 'cni')).toBe(false);
    // Reach the link with the keyboard: focus the element just before it, then Tab.
    await cni.evaluate((a) => {
      const all = [...document.querySelectorAll<HTMLElement>('a[href], button, input, [tabindex="0"]')];
      const before = all[all.indexOf(a as HTMLElement) - 1];
      before?.focus();
    });
    await p.keyboard.press('Tab');
    expect(await cni.evaluate((a) => a === document.activeElement)).toBe(true);
    await expect.poll(() => isOpen(p, 'cni')).toBe(true);
    expect(await tip(p, 'cni').innerText()).toMatch(/container runtime/i);
    expect(await tip(p, 'cni').getAttribute('role')).toBe('tooltip');
    await p.keyboard.press('Escape');
    await expect.poll(() => isOpen(p, 'cni')).toBe(false);
    expect(await cni.evaluate((a) => a === document.activeElement)).toBe(true);
  });

  it('shows the definition on hover, stays while the pointer is on it, hides when it leaves', async () => {
    const p = await open(chapter);
    await link(p, 'cni').hover();
    await expect.poll(() => isOpen(p, 'cni')).toBe(true);
    const box = (await tip(p, 'cni').boundingBox())!;
    await p.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
    await p.waitForTimeout(500);
    expect(await isOpen(p, 'cni')).toBe(true);
    await p.keyboard.press('Escape');
    await expect.poll(() => isOpen(p, 'cni')).toBe(false);
    await link(p, 'cni').hover();
    await p.mouse.move(5, 5, { steps: 5 });
    await expect.poll(() => isOpen(p, 'cni')).toBe(false);
  });

  it('shows the pt-BR definition on the Portuguese chapter', async () => {
    const p = await open('/pt-br/k3s/cluster-networking/');
    await link(p, 'cni').focus();
    await expect.poll(() => isOpen(p, 'cni')).toBe(true);
    expect(await tip(p, 'cni').innerText()).toMatch(/runtime de contêineres/);
    expect(await link(p, 'cni').getAttribute('href')).toBe('/pt-br/glossary/#cni');
  });

  it('goes to the entry on the glossary page', async () => {
    const p = await open(chapter);
    await Promise.all([p.waitForURL(baseURL + '/en/glossary/#cni'), link(p, 'cni').click()]);
    expect(await p.locator('[id="cni"]').isVisible()).toBe(true);
    expect(await p.locator('[id="cni"]').textContent()).toBe('CNI');
  });

  it.each(['light', 'dark'] as const)(
    'has no axe violation with a tooltip open (%s theme)',
    async (theme) => {
      const p = await open(chapter, theme);
      await link(p, 'cni').focus();
      await expect.poll(() => isOpen(p, 'cni')).toBe(true);
      expect(await axe(p)).toEqual([]);
    },
  );

  it('pages without glossary terms load no glossary script', async () => {
    const p = await open('/en/about-labs/');
    expect(await p.locator('.pp-term').count()).toBe(0);
    const scripts = await p.locator('script').evaluateAll((els) => els.map((s) => s.textContent ?? ''));
    expect(scripts.some((s) => s.includes('showPopover') || s.includes('data-pp-filter'))).toBe(false);
  });
});

describe('search finds glossary entries', () => {
  it.each([
    { path: '/pt-br/', query: 'ndots', expected: '/pt-br/glossary/' },
    { path: '/en/', query: 'ndots', expected: '/en/glossary/' },
  ])('"$query" from $path lists $expected', { timeout: 90_000 }, async ({ path, query, expected }) => {
    const p = await open(path);
    await searchFor(p, query);
    const results = p.locator('.pagefind-ui__result-link');
    await results.first().waitFor({ timeout: 15_000 });
    await expect
      .poll(async () =>
        (await results.evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href))).map(
          (href) => {
            const url = new URL(href);
            return url.pathname + url.hash;
          },
        ),
      )
      .toContain(`${expected}#${query}`);
  });

  it.each(['pt-br', 'en'])('the Pagefind API gives the entry anchor for "conntrack" (%s)', async (lang) => {
    const p = await open(`/${lang}/`);
    const urls: string[] = await p.evaluate(`(async () => {
      const pagefind = await import('/pagefind/pagefind.js');
      await pagefind.init();
      const search = await pagefind.search('conntrack');
      const data = await Promise.all(search.results.map((r) => r.data()));
      return data.flatMap((d) => [d.url, ...d.sub_results.map((s) => s.url)]);
    })()`);
    expect(urls).toContain(`/${lang}/glossary/`);
    expect(urls).toContain(`/${lang}/glossary/#conntrack`);
  });
});
