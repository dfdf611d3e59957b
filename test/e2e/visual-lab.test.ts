/**
 * The Network view inside the lab island (About the labs, the sandbox lab): the toolbar's "Network"
 * button opens `<pp-network>` fed by the worker host over the protocol (`network` and `trace`
 * requests); the diagram follows `kubectl apply`, the trace form plays a walk, and axe stays clean.
 */
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { focusTerminal, lab, openLab, run } from './lab-helpers';

const baseURL = inject('baseURL');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const SLOW = 120_000;

let browser: Browser;

beforeAll(async () => {
  browser = await chromium.connect(inject('wsEndpoint'));
});

afterAll(async () => {
  await browser?.close();
});

describe('Network view in the lab', () => {
  it.each([
    { path: '/en/about-labs/', theme: 'light', button: 'Network', walkTab: 'Packet walk' },
    { path: '/pt-br/about-labs/', theme: 'dark', button: 'Rede', walkTab: 'Caminho do pacote' },
  ] as const)(
    '$path: opens from the toolbar, follows an apply, traces, passes axe ($theme)',
    { timeout: SLOW },
    async ({ path, theme, button, walkTab }) => {
      const context = await browser.newContext({
        colorScheme: theme,
        viewport: { width: 1280, height: 900 },
      });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(baseURL + path, { waitUntil: 'load' });
      await openLab(page, { editor: false });
      const toggle = lab(page).locator('[data-action="network"]');
      expect((await toggle.textContent())?.trim()).toBe(button);
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      const svg = lab(page).locator('pp-network pp-topology svg');
      await svg.waitFor({ timeout: 20_000 });
      expect(await svg.locator('g[data-el^="node-"]').count()).toBeGreaterThan(0);
      const before = await svg.locator('g[data-el^="pod-default-"]').count();

      await focusTerminal(page);
      await run(page, 'kubectl apply -f web.yaml');
      await run(page, 'kubectl expose deployment web --port 80');
      await run(page, 'kubectl rollout status deployment/web');
      await expect
        .poll(() => svg.locator('g[data-el^="pod-default-web-"]').count(), { timeout: 20_000 })
        .toBeGreaterThan(before);
      await expect.poll(() => svg.locator('g[data-el^="svc-default-web-"]').count()).toBe(1);
      const ips = await svg.locator('g[data-el^="pod-default-web-"] text.ppt-m').allTextContents();
      expect(ips.every((ip) => /^\d+\.\d+\.\d+\.\d+$/.test(ip))).toBe(true);

      const net = lab(page).locator('pp-network');
      expect((await net.locator('[role=tab][aria-selected=true]').textContent())?.trim()).toBe(walkTab);
      await net.locator('select[name=from]').selectOption({ index: 0 });
      await net.locator('input[name=to]').fill('web');
      await net.locator('input[name=port]').fill('80');
      await net.locator('input[name=port]').press('Enter');
      const steps = net.locator('.pp-walk__list li');
      await steps.first().waitFor({ timeout: 20_000 });
      const kinds = await steps.evaluateAll((lis) => lis.map((li) => (li as HTMLElement).dataset.kind));
      expect(kinds).toContain('service');
      expect(kinds.at(-1)).toBe('delivered');
      await net.locator('.pp-walk__list').focus();
      await page.keyboard.press('End');
      expect(await net.locator('li[aria-current=step]').getAttribute('data-kind')).toBe('delivered');

      // A `trace` typed in the terminal plays in the walk too.
      await focusTerminal(page);
      // (Typed, not `run()`: the trace's output scrolls the typed line off the terminal's screen.)
      await page.keyboard.type('trace web -- curl -s http://web');
      await page.keyboard.press('Enter');
      await expect
        .poll(() => net.locator('.pp-walk__title').textContent(), { timeout: 20_000 })
        .toContain('curl -s http://web');

      // The matrix's Services mode, computed by the worker: the new Service is a column, and a cell click
      // replays its probe through the protocol and names the kube-proxy rule.
      await net.locator('[role=tab][data-tab=matrix]').click();
      await net.locator('input[type=radio][value=services]').check();
      const grid = net.locator('table[role=grid][data-mode=services]');
      await grid.waitFor({ timeout: 20_000 });
      const cols = await grid.locator('thead th').allTextContents();
      const web = cols.findIndex((c) => /^default\/web \d+\.\d+\.\d+\.\d+:80$/.test(c));
      expect(web).toBeGreaterThanOrEqual(0);
      expect(await grid.locator(`td[data-c="${web}"][data-verdict=allowed]`).count()).toBeGreaterThan(0);
      await grid.locator(`td[data-r="0"][data-c="${web}"]`).click();
      await expect
        .poll(() => net.locator('[data-decision]').textContent(), { timeout: 20_000 })
        .toMatch(/^(Decided by|Decidido por): Service: /);

      const { violations } = await new AxeBuilder({ page }).include('pp-lab').withTags(AXE_TAGS).analyze();
      expect(
        violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});
