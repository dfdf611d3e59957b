/**
 * The lab, the way a learner uses it, in each locale: open the page, type commands with the keyboard
 * (history, Tab completion), edit the manifest in Monaco, apply it from the terminal, see a shell-made
 * file appear in the editor, reload and find everything as left, reset. Plus: the page reads fine
 * before the lab loads, keyboard-only use, and axe with the lab open in both themes.
 */
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  LAB_PAGES,
  EDITOR_INPUT,
  editorText,
  focusTerminal,
  lab,
  waitForEditor,
  openLab,
  promptLine,
  run,
  terminalText,
  waitForSaved,
  waitForTerminal,
  typeReplicas,
} from './lab-helpers';

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

async function freshPage(
  opts: { colorScheme?: 'light' | 'dark'; viewport?: { width: number; height: number } } = {},
) {
  const context: BrowserContext = await browser.newContext({
    colorScheme: opts.colorScheme ?? 'light',
    viewport: opts.viewport ?? { width: 1280, height: 720 },
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  return { context, page, problems };
}

describe.each(LAB_PAGES)('the sandbox lab on $path', ({ path, lang }) => {
  it('shows the steps and the starting file before the lab loads, and loads nothing heavy', async () => {
    const { context, page } = await freshPage();
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    await page.goto(baseURL + path, { waitUntil: 'load' });
    const steps = lab(page).locator('.pp-lab__steps li');
    expect(await steps.count()).toBe(4);
    expect(await steps.first().innerText()).toMatch(lang === 'en' ? /Open web\.yaml/ : /Abra web\.yaml/);
    expect(await lab(page).locator('[data-static] pre').innerText()).toContain('kind: Deployment');
    expect(await lab(page).getAttribute('data-state')).toBeNull();
    expect(scripts.filter((u) => /lab-app|editor|worker|xterm/.test(u))).toEqual([]);
    await context.close();
  });

  it('takes a learner from the first command to a reload and a reset', { timeout: SLOW }, async () => {
    const { context, page, problems } = await freshPage();
    await page.goto(baseURL + path, { waitUntil: 'load' });
    await openLab(page);
    expect(await promptLine(page)).toBe('learner@packetpath:~$');

    // Commands, history, Tab completion.
    await focusTerminal(page);
    expect(await run(page, 'kubectl get nodes')).toContain('kind-control-plane');
    await page.keyboard.press('ArrowUp');
    await waitForTerminal(page, (t) => t.endsWith('$ kubectl get nodes'), 'the recalled line');
    await page.keyboard.press('Control+U');
    await page.keyboard.type('kubectl get deployme');
    await page.keyboard.press('Tab');
    await waitForTerminal(page, (t) => t.endsWith('$ kubectl get deployment'), 'the completed word');
    await page.keyboard.press('Control+U');
    await page.keyboard.type('kubectl appl');
    await page.keyboard.press('Tab');
    await waitForTerminal(page, (t) => t.endsWith('$ kubectl apply'), 'the completed verb');
    await page.keyboard.press('Control+U');

    // Edit the manifest in Monaco with the keyboard: replicas 1 → 2.
    expect(await editorText(page)).toContain('replicas: 1');
    await typeReplicas(page, 2);

    // Apply what the editor holds, from the terminal.
    await focusTerminal(page);
    expect(await run(page, 'kubectl apply -f web.yaml')).toContain('deployment.apps/web created');
    expect(await run(page, 'kubectl get deploy web')).toMatch(/web\s+\d\/2/);

    // A file written by the shell shows up in the editor. The save mark is read before the command:
    // on a loaded machine the save that follows it can land before the test reads the mark again, and
    // a wait for "a save other than the one after the command" would then wait for nothing.
    const saved = await lab(page).getAttribute('data-saved');
    await run(page, 'echo "kind: ConfigMap" > notes.yaml');
    await page.waitForSelector('pp-lab [data-tabs] [data-file="notes.yaml"]');

    // Checks run after each command.
    await page.waitForSelector('pp-lab [data-check="deployment-exists"][data-state="passed"]');
    expect(await lab(page).locator('[data-check="three-replicas"]').getAttribute('data-state')).toBe(
      'failed',
    );

    // Reload: files, cluster, history and checks are as left.
    await waitForSaved(page, saved ?? undefined);
    await page.reload({ waitUntil: 'load' });
    await openLab(page);
    expect(await lab(page).locator('[data-tabs] [role="tab"]').allInnerTexts()).toEqual([
      'notes.yaml',
      'web.yaml',
    ]);
    await waitForEditor(page, 'replicas: 2');
    expect(await lab(page).locator('[data-check="deployment-exists"]').getAttribute('data-state')).toBe(
      'passed',
    );
    await focusTerminal(page);
    await page.keyboard.press('ArrowUp');
    await waitForTerminal(
      page,
      (t) => t.endsWith('$ echo "kind: ConfigMap" > notes.yaml'),
      'the last command, recalled after reload',
    );
    await page.keyboard.press('Control+U');
    expect(await run(page, 'kubectl get deploy web')).toMatch(/web\s+2\/2/);

    // Reset (confirmed) returns to the start.
    await lab(page).locator('[data-action="reset"]').click();
    await lab(page).locator('[data-dialog-yes]').click();
    await page.waitForFunction(() => !document.querySelector('pp-lab [data-tabs] [data-file="notes.yaml"]'));
    await waitForEditor(page, 'replicas: 1');
    await focusTerminal(page);
    expect(await run(page, 'kubectl get deploy')).toContain('No resources found in default namespace.');
    // stdout and stderr in the order the line wrote them (bash 5.2 prints one, the error, two).
    expect(await run(page, 'echo one; ls /nope; echo two')).toContain(
      "$ echo one; ls /nope; echo two\none\nls: cannot access '/nope': No such file or directory\ntwo\n",
    );
    expect(await lab(page).locator('[data-check="deployment-exists"]').getAttribute('data-state')).toBe(
      'failed',
    );
    expect(problems).toEqual([]);
    await context.close();
  });

  it('gives progressive hints and the solution only after confirming', { timeout: SLOW }, async () => {
    const { context, page } = await freshPage();
    await page.goto(baseURL + path, { waitUntil: 'load' });
    await openLab(page, { editor: false });
    const hint = lab(page).locator('[data-action="hint"]');
    for (let n = 1; n <= 3; n++) {
      await hint.click();
      expect(await lab(page).locator('[data-hint-list] li').count()).toBe(n);
    }
    await lab(page).locator('[data-action="solution"]').click();
    await lab(page).locator('[data-dialog] button[value="no"]').click();
    expect(await lab(page).locator('[data-solution]').isHidden()).toBe(true);
    await lab(page).locator('[data-action="solution"]').click();
    await lab(page).locator('[data-dialog-yes]').click();
    await lab(page).locator('[data-solution] button').click();
    await page.waitForSelector('pp-lab [data-check="looked-at-slices"][data-state="passed"]', {
      timeout: 30_000,
    });
    await page.waitForFunction(
      () => document.querySelectorAll('pp-lab [data-check][data-state="passed"]').length === 5,
    );
    await lab(page).locator('[data-action="check"]').click();
    await page.waitForFunction(
      (l) =>
        (document.querySelector('pp-lab [data-status]')?.textContent ?? '').includes(
          l === 'en' ? 'Every check passes' : 'Todas as verificações',
        ),
      lang,
    );
    await context.close();
  });
});

describe('keyboard only', () => {
  it(
    'reaches the toolbar, the terminal and the editor with Tab, and leaves the terminal with Esc then Tab',
    { timeout: SLOW },
    async () => {
      const { context, page } = await freshPage();
      await page.goto(baseURL + '/en/about-labs/', { waitUntil: 'load' });
      await openLab(page);
      await lab(page).locator('[data-action="check"]').focus();
      await page.keyboard.press('Enter');
      await page.waitForFunction(() =>
        /checks pass|Every check/.test(document.querySelector('pp-lab [data-status]')?.textContent ?? ''),
      );
      // Tab onwards to the editor; Ctrl+M (Monaco's tab focus mode) lets Tab leave it; on to the terminal.
      const focused = (cls: string) => page.evaluate((c) => document.activeElement?.matches(c) ?? false, cls);
      const isTerminal = () => focused('.xterm-helper-textarea');
      let steps = 0;
      while (!(await focused(EDITOR_INPUT)) && steps++ < 40) await page.keyboard.press('Tab');
      expect(await focused(EDITOR_INPUT)).toBe(true);
      await page.keyboard.press('Control+M');
      steps = 0;
      while (!(await isTerminal()) && steps++ < 10) await page.keyboard.press('Tab');
      expect(await isTerminal()).toBe(true);
      await page.keyboard.type('kubectl get ns');
      await page.keyboard.press('Enter');
      await waitForTerminal(page, (t) => t.includes('kube-system'), 'the namespaces');
      await page.keyboard.press('Tab'); // completes, stays
      expect(await isTerminal()).toBe(true);
      await page.keyboard.press('Escape');
      await page.keyboard.press('Tab');
      expect(await isTerminal()).toBe(false);
      // The splitter resizes with the arrow keys.
      const splitter = lab(page).locator('[data-splitter]');
      await splitter.focus();
      await page.keyboard.press('ArrowDown');
      expect(await splitter.getAttribute('aria-valuenow')).toBe('55');
      await context.close();
    },
  );
});

describe('typing in the terminal', () => {
  it('keeps the terminal in place when the check results above it grow', { timeout: SLOW }, async () => {
    const { context, page } = await freshPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(baseURL + '/en/about-labs/', { waitUntil: 'load' });
    await openLab(page);
    await focusTerminal(page);
    const terminalTop = () =>
      lab(page)
        .locator('.xterm-rows')
        .evaluate((el) => Math.round(el.getBoundingClientRect().top));
    const before = await terminalTop();
    const checksAbove = await lab(page)
      .locator('[data-check-list]')
      .evaluate((el) => el.getBoundingClientRect().bottom);
    expect(checksAbove).toBeLessThan(before); // one-column layout: the checks are above the terminal
    await run(page, 'echo hi');
    // The check run after the command fills in why each check fails, which makes the list taller.
    await lab(page)
      .locator('[data-check-list] li[data-state="failed"] .pp-lab__check-message')
      .first()
      .waitFor();
    expect(await terminalTop()).toBe(before);
    expect(await promptLine(page)).toMatch(/\$$/);
    await context.close();
  });
});

describe('axe with the lab open', () => {
  it.each(['light', 'dark'] as const)(
    'has no violation in the %s theme',
    { timeout: SLOW },
    async (theme) => {
      const { context, page } = await freshPage({ colorScheme: theme });
      await page.goto(baseURL + '/pt-br/about-labs/', { waitUntil: 'load' });
      await openLab(page);
      await focusTerminal(page);
      await run(page, 'kubectl get nodes');
      await lab(page).locator('[data-action="hint"]').click();
      await lab(page).locator('[data-action="check"]').click();
      await page.waitForSelector('pp-lab [data-check][data-state="failed"]');
      const { violations } = await new AxeBuilder({ page }).include('pp-lab').withTags(AXE_TAGS).analyze();
      expect(
        violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
      await context.close();
    },
  );
});

describe('on a phone', () => {
  it('shows the lab in tabs and still runs commands', { timeout: SLOW }, async () => {
    const { context, page } = await freshPage({ viewport: { width: 390, height: 844 } });
    await page.goto(baseURL + '/en/about-labs/', { waitUntil: 'load' });
    await openLab(page, { editor: false });
    const width = await lab(page).evaluate((el) => el.getBoundingClientRect().width);
    expect(width).toBeLessThanOrEqual(390);
    await lab(page).getByRole('tab', { name: 'Terminal' }).click();
    await focusTerminal(page);
    expect(await run(page, 'kubectl get ns')).toContain('default');
    expect(await terminalText(page)).not.toContain('undefined');
    await context.close();
  });
});
