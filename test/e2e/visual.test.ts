/**
 * The network views in a real page of the built site (its Starlight theme, both locales), mounted
 * the way the lab island mounts them: the components bundled on their own, fed by a `NetworkHost`
 * whose state and traces come from a real engine cluster running here in Node (as the worker would).
 * Checks: the diagram matches the cluster and updates after an apply; the walk steps through a
 * cross-node Service call by keyboard; matrix cells trace by keyboard and name the deciding rule;
 * axe in the light and the dark theme; and the page bundle holds no engine code.
 */
import AxeBuilder from '@axe-core/playwright';
import { build } from 'esbuild';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { networkState, networkTrace, type NetworkTraceRequest } from '../../src/visual/host.ts';
import { serviceMatrixView } from '../../src/visual/matrix/index.ts';
import type { Cluster } from '../../src/engine/index.ts';
import { apply, crossNode, CROSS_NODE_HOPS, echoAllowClient, manyNodes } from '../unit/visual-fixtures.ts';

const baseURL = inject('baseURL');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const ROOT = new URL('../..', import.meta.url).pathname;

let browser: Browser;
let bundle: string;
let inputs: string[];

beforeAll(async () => {
  const out = await build({
    entryPoints: [`${ROOT}src/components/visual/index.ts`],
    bundle: true,
    format: 'iife',
    globalName: 'ppVisual',
    write: false,
    metafile: true,
    target: 'es2022',
    logLevel: 'silent',
  });
  bundle = out.outputFiles[0]!.text;
  inputs = Object.keys(out.metafile.inputs);
  browser = await chromium.connect(inject('wsEndpoint'));
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/** A page of the site with `<pp-network>` mounted on a live engine cluster (calico, a Service `only-b` on kind-worker2). */
async function mount(
  lang: 'en' | 'pt-br',
  theme: 'light' | 'dark' = 'light',
  make: () => Cluster = () => crossNode('calico'),
  width = 1280,
) {
  const cluster = make();
  const context: BrowserContext = await browser.newContext({
    colorScheme: theme,
    viewport: { width, height: 900 },
  });
  const page: Page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  await page.exposeFunction('ppState', () => networkState(cluster));
  await page.exposeFunction('ppTrace', (req: NetworkTraceRequest) => networkTrace(cluster, req));
  await page.goto(`${baseURL}/${lang}/`);
  await page.addScriptTag({ content: bundle });
  await page.evaluate(async () => {
    const w = window as unknown as {
      ppVisual: { defineVisualElements(): void };
      ppState(): Promise<unknown>;
      ppTrace(r: unknown): Promise<unknown>;
    };
    w.ppVisual.defineVisualElements();
    const el = document.createElement('pp-network') as HTMLElement & {
      connectHost(h: unknown): Promise<void>;
    };
    el.id = 'net';
    (document.querySelector('main .sl-markdown-content') ?? document.querySelector('main'))!.prepend(el);
    await el.connectHost({ state: () => w.ppState(), trace: (r: unknown) => w.ppTrace(r) });
  });
  return { cluster, context, page, problems };
}

/** `mount`, then `echoAllowClient` applied, the view refreshed and the matrix tab open. */
async function openMatrix(lang: 'en' | 'pt-br') {
  const mounted = await mount(lang);
  apply(mounted.cluster, [echoAllowClient]);
  await mounted.page.evaluate(() =>
    (document.getElementById('net') as HTMLElement & { refresh(): Promise<void> }).refresh(),
  );
  await mounted.page.click('#net [role=tab][data-tab=matrix]');
  const grid = mounted.page.locator('#net table[role=grid]');
  await grid.waitFor();
  return { ...mounted, grid };
}

describe('network views in a page', () => {
  it('the page bundle has the renderers and no engine code', () => {
    expect(inputs.some((i) => i.includes('src/visual/topology/svg.ts'))).toBe(true);
    expect(inputs.filter((i) => i.includes('src/engine/'))).toEqual([]);
    expect(inputs.filter((i) => /src\/visual\/(host|topology\/model)\.ts/.test(i))).toEqual([]);
  });

  it('draws the cluster: every pod with its IP, every node with its CIDR; updates after an apply', async () => {
    const { cluster, context, page, problems } = await mount('en');
    const model = networkState(cluster).topology;
    const svg = page.locator('#net pp-topology svg');
    await svg.waitFor();
    const pods = model.nodes.flatMap((n) => n.pods);
    expect(await svg.locator('g[data-el^="pod-"]').count()).toBe(pods.length);
    for (const p of pods)
      expect(await svg.locator(`g[data-el="${p.id}"] text`).allTextContents()).toContain(p.ip);
    for (const n of model.nodes)
      expect(await svg.locator(`g[data-el="${n.id}"]`).textContent()).toContain(`pods ${n.podCIDR}`);
    const text = page.locator('#net pp-topology details');
    await text.locator('summary').click();
    expect(await text.textContent()).toContain(
      `Pod default/echo-b, IP ${pods.find((p) => p.name === 'echo-b')!.ip}`,
    );

    apply(cluster, [echoAllowClient]);
    await page.evaluate(() =>
      (document.getElementById('net') as HTMLElement & { refresh(): Promise<void> }).refresh(),
    );
    expect(await svg.locator('g[data-el^="pol-"]').textContent()).toContain('default/echo-allow-client');
    expect(await svg.locator('path.ppt-e-pol[data-from]').count()).toBe(2);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('walks a cross-node Service call hop by hop with the keyboard, lighting the diagram', async () => {
    const { context, page, problems } = await mount('en');
    await page.locator('#net pp-topology svg').waitFor();
    await page.selectOption('#net select[name=from]', 'default/client');
    await page.fill('#net input[name=to]', 'only-b');
    await page.fill('#net input[name=port]', '80');
    await page.press('#net input[name=port]', 'Enter');
    const list = page.locator('#net .pp-walk__list');
    await list.waitFor();
    const kinds = await list
      .locator('li')
      .evaluateAll((lis) => lis.map((li) => (li as HTMLElement).dataset.kind));
    expect(kinds.filter((k, i) => k !== kinds[i - 1])).toEqual(CROSS_NODE_HOPS);
    await list.focus();
    const current = () => list.locator('li[aria-current=step]').getAttribute('data-kind');
    expect(await current()).toBe('resolv-conf');
    const live = page.locator('#net [data-now]');
    expect(await live.getAttribute('aria-live')).toBe('polite');
    while ((await current()) !== 'service') await page.keyboard.press('ArrowRight');
    expect(await live.textContent()).toContain("kube-proxy's iptables rules");
    const hot = await page
      .locator('#net svg .is-hot')
      .evaluateAll((els) => els.map((e) => (e as SVGElement).dataset.el ?? 'edge'));
    expect(hot.some((h) => h.startsWith('svc-default-only-b'))).toBe(true);
    expect(hot.some((h) => h.startsWith('pod-default-echo-b'))).toBe(true);
    while ((await current()) !== 'route') await page.keyboard.press('ArrowRight');
    expect(await live.textContent()).toMatch(
      /IP-in-IP to kind-worker2\. Outer header 172\.18\.0\.3 → 172\.18\.0\.4/,
    );
    expect(await page.locator('#net svg [data-el^="overlay-"].is-hot').count()).toBe(1);
    await page.keyboard.press('ArrowLeft');
    expect(await current()).toBe('network-policy');
    await page.keyboard.press('End');
    expect(await current()).toBe('delivered');
    expect(await page.locator('#net button[data-action=next]').isDisabled()).toBe(true);
    await page.click('#net button[data-action=first]');
    expect(await current()).toBe('resolv-conf');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('matrix: arrow keys move between cells, Enter traces the pair and names the deciding rule', async () => {
    const { cluster, context, page, problems, grid } = await openMatrix('pt-br');
    const state = networkState(cluster);
    expect(await grid.locator('td[data-verdict=blocked]').count()).toBe(
      state.matrix.filter((c) => c.verdict === 'blocked').length,
    );
    expect(await grid.locator('td[data-verdict=allowed]').count()).toBe(
      state.matrix.filter((c) => c.verdict === 'allowed').length,
    );
    expect(await grid.locator('td[tabindex="0"]').count()).toBe(1);
    // Keyboard to the alpine → echo-b:8080 cell (blocked: alpine is not run=client).
    const rows = await grid.locator('tbody th').allTextContents();
    const cols = await grid.locator('thead th').allTextContents();
    const r = rows.indexOf('default/alpine');
    const c = cols.indexOf('default/echo-b:8080');
    await grid.locator('td[tabindex="0"]').focus();
    for (let i = 0; i < r; i++) await page.keyboard.press('ArrowDown');
    for (let i = 0; i < c; i++) await page.keyboard.press('ArrowRight');
    const focused = page.locator('#net td:focus');
    expect(await focused.getAttribute('data-verdict')).toBe('blocked');
    expect(await focused.textContent()).toContain('✕');
    expect(await focused.textContent()).toContain('default/alpine → default/echo-b porta 8080: bloqueado');
    await page.keyboard.press('Enter');
    const decision = page.locator('#net [data-decision]');
    await expect.poll(() => decision.textContent()).toContain('Decidido por: NetworkPolicy');
    expect(await decision.textContent()).toContain('BLOQUEADA. Selecionado por default/echo-allow-client');
    expect(await page.locator('#net .pp-matrix__summary').textContent()).toMatch(
      /pares permitidos, \d+ bloqueados/,
    );
    expect(problems).toEqual([]);
    await context.close();
  });

  it('matrix, Services mode: the radio group switches by keyboard, a cell click traces through the ClusterIP', async () => {
    const { cluster, context, page, problems, grid } = await openMatrix('en');
    expect(await grid.getAttribute('data-mode')).toBe('pods');
    // A native radio group: focus the checked radio, arrow to the other one.
    const pods = page.getByRole('radio', { name: 'Pods (pod IP:port)' });
    const services = page.getByRole('radio', { name: 'Services (ClusterIP:port)' });
    expect(await page.getByRole('group', { name: 'Columns' }).count()).toBe(1);
    await pods.focus();
    await page.keyboard.press('ArrowDown');
    expect(await services.isChecked()).toBe(true);
    await expect.poll(() => grid.getAttribute('data-mode')).toBe('services');

    const state = networkState(cluster);
    const only = cluster.store.get('services', 'default', 'only-b')!.spec!.clusterIP!;
    const cols = await grid.locator('thead th').allTextContents();
    expect(cols).toContain(`default/only-b ${only}:80`);
    expect(cols.length).toBe(new Set(state.services.map((c) => `${c.service}:${c.port}/${c.protocol}`)).size);
    for (const v of ['allowed', 'blocked', 'refused'] as const)
      expect(await grid.locator(`td[data-verdict=${v}]`).count()).toBe(
        state.services.filter((c) => c.verdict === v).length,
      );

    // Keyboard to alpine → only-b:80, blocked by the policy on echo-b.
    const rows = await grid.locator('tbody th').allTextContents();
    await grid.locator('td[tabindex="0"]').focus();
    for (let i = 0; i < rows.indexOf('default/alpine'); i++) await page.keyboard.press('ArrowDown');
    for (let i = 0; i < cols.indexOf(`default/only-b ${only}:80`); i++)
      await page.keyboard.press('ArrowRight');
    const focused = page.locator('#net td:focus');
    expect(await focused.getAttribute('data-verdict')).toBe('blocked');
    expect(await focused.textContent()).toContain(
      `default/alpine → Service default/only-b ${only}:80: blocked`,
    );
    await page.keyboard.press('Enter');
    const decision = page.locator('#net [data-decision]');
    await expect.poll(() => decision.textContent()).toContain('Decided by: Service');
    expect(await decision.textContent()).toContain("kube-proxy's iptables rules");
    expect(await decision.textContent()).toContain('BLOCKED. Selected by default/echo-allow-client');
    // The diagram lights the deciding hop: the policy and echo-b.
    const hot = await page
      .locator('#net svg .is-hot')
      .evaluateAll((els) => els.map((e) => (e as SVGElement).dataset.el ?? 'edge'));
    expect(hot.some((h) => h.startsWith('pod-default-echo-b'))).toBe(true);

    // A click on another cell traces that pair; the button opens its walk at the deciding hop.
    const c = cols.indexOf(`default/only-b ${only}:80`);
    await grid.locator(`td[data-r="${rows.indexOf('default/client')}"][data-c="${c}"]`).click();
    await expect
      .poll(() => decision.textContent())
      .toContain('allowed by NetworkPolicy default/echo-allow-client');
    await decision.getByRole('button', { name: 'Show the packet walk' }).click();
    expect(await page.locator('#net [role=tab][data-tab=walk]').getAttribute('aria-selected')).toBe('true');
    const list = page.locator('#net .pp-walk__list');
    expect(await list.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.locator('#net .pp-walk__title').textContent()).toContain(`nc -z -w 2 ${only} 80`);
    const kinds = await list
      .locator('li')
      .evaluateAll((lis) => lis.map((li) => (li as HTMLElement).dataset.kind));
    expect(kinds).toContain('service');
    expect(kinds.at(-1)).toBe('delivered');
    expect(await list.locator('li[aria-current=step]').getAttribute('data-kind')).toBe('network-policy');

    // Simulated time moves with every command, and kube-proxy's endpoint choice with it: at the same
    // store revision the Services cells are redrawn with what a click would now replay.
    cluster.tick(2000);
    expect(networkState(cluster).revision).toBe(state.revision);
    await page.evaluate(() =>
      (document.getElementById('net') as HTMLElement & { refresh(): Promise<void> }).refresh(),
    );
    const now = serviceMatrixView(networkState(cluster).services, 'en');
    expect(JSON.stringify(now.grid)).not.toBe(JSON.stringify(serviceMatrixView(state.services, 'en').grid));
    expect(
      await grid.locator('td[data-r]').evaluateAll((tds) => tds.map((td) => (td as HTMLElement).title)),
    ).toEqual(now.grid.flatMap((row) => row.map((c) => `${c!.label}: ${c!.reason}`)));

    const axe = await new AxeBuilder({ page }).include('#net').withTags(AXE_TAGS).analyze();
    await page.click('#net [role=tab][data-tab=matrix]');
    const axeMatrix = await new AxeBuilder({ page }).include('#net').withTags(AXE_TAGS).analyze();
    expect([...axe.violations, ...axeMatrix.violations].map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('six nodes at lab size: frames in two rows, one overlay, an actual-size toggle that scrolls', async () => {
    const { context, page, problems } = await mount('pt-br', 'light', () => manyNodes(6, 10), 720);
    const svg = page.locator('#net pp-topology svg');
    await svg.waitFor();
    const frames = await svg
      .locator('g[data-el^="node-"] > rect')
      .evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('y'))));
    expect(frames).toHaveLength(6);
    expect(new Set(frames).size).toBe(2);
    expect(await svg.locator('g[data-el^="overlay-"] path.ppt-overlay').count()).toBe(1);
    const region = page.getByRole('region', { name: 'Diagrama da rede' });
    const fits = await region.evaluate((el) => el.scrollWidth <= el.clientWidth);
    expect(fits).toBe(true);
    const zoom = page.getByRole('button', { name: 'Tamanho real' });
    expect(await zoom.getAttribute('aria-pressed')).toBe('false');
    await zoom.click();
    expect(await zoom.getAttribute('aria-pressed')).toBe('true');
    expect(await svg.evaluate((el) => Math.round(el.getBoundingClientRect().width))).toBe(900);
    expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    // The region takes the keyboard (tabindex 0) so it scrolls without a mouse.
    expect(await region.getAttribute('tabindex')).toBe('0');
    const axe = await new AxeBuilder({ page }).include('#net').withTags(AXE_TAGS).analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it.each([
    ['en', 'light'],
    ['pt-br', 'dark'],
  ] as const)(
    'has no axe violation (%s, %s theme), walk and matrix open',
    async (lang, theme) => {
      const { context, page } = await mount(lang, theme);
      await page.locator('#net pp-topology svg').waitFor();
      await page.selectOption('#net select[name=from]', 'default/client');
      await page.fill('#net input[name=to]', 'only-b');
      await page.fill('#net input[name=port]', '80');
      await page.press('#net input[name=port]', 'Enter');
      await page.locator('#net .pp-walk__list').waitFor();
      await page.locator('#net pp-topology summary').click();
      const walk = await new AxeBuilder({ page }).include('#net').withTags(AXE_TAGS).analyze();
      await page.click('#net [role=tab][data-tab=matrix]');
      const matrix = await new AxeBuilder({ page }).include('#net').withTags(AXE_TAGS).analyze();
      await page.check('#net input[type=radio][value=services]');
      await page.locator('#net table[role=grid][data-mode=services]').waitFor();
      const services = await new AxeBuilder({ page }).include('#net').withTags(AXE_TAGS).analyze();
      const fmt = (v: typeof walk.violations) =>
        v.map((x) => `${x.id}: ${x.help} — ${x.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect([...fmt(walk.violations), ...fmt(matrix.violations), ...fmt(services.violations)]).toEqual([]);
      await context.close();
    },
    60_000,
  );
});
