/**
 * The watchdog (issue 9 item 3): the engine worker is made to spin forever (the protocol's `hang` test
 * hook, as a runaway engine bug would), while a command waits and the learner has an unsaved edit in
 * the editor and a half-typed line. The lab must notice, replace the worker from the last saved state,
 * say so in the terminal and the status (page language), and keep the files, history and typed line.
 * The restart time is measured and printed (recorded in BENCHMARKS.md § Lab), not asserted.
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  LAB_PAGES,
  focusTerminal,
  lab,
  openLab,
  run,
  waitForEditor,
  waitForSaved,
  waitForTerminal,
  typeReplicas,
} from './lab-helpers';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await chromium.connect(inject('wsEndpoint'));
});
afterAll(async () => {
  await browser?.close();
});

const TEXT = {
  en: {
    status: 'The engine was restarted from your last save',
    terminal: '[lab] The engine stopped answering',
  },
  'pt-BR': {
    status: 'O motor foi reiniciado a partir do último salvamento',
    terminal: '[lab] O motor parou de responder',
  },
} as const;

describe.each(LAB_PAGES)('the watchdog on $path', ({ path, lang }) => {
  it(
    'restarts a spinning worker from the last save and loses nothing typed or edited',
    { timeout: 120_000 },
    async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
      });
      await page.goto(baseURL + path, { waitUntil: 'load' });
      await openLab(page);

      // Saved work: a Deployment in the cluster.
      await focusTerminal(page);
      const saved = await lab(page).getAttribute('data-saved');
      expect(await run(page, 'kubectl apply -f web.yaml')).toContain('deployment.apps/web created');
      await waitForSaved(page, saved ?? undefined);

      // Unsaved work: replicas 1 → 3 in the editor, and a command typed (not yet run).
      await typeReplicas(page, 3);
      await focusTerminal(page);
      await page.keyboard.type('kubectl get deploy web');
      // The engine spins; at once the command is run (so it waits on the stuck worker however slowly the
      // keyboard types on a loaded machine), and another line is half typed while waiting.
      const hungAt = Date.now();
      await page.evaluate(() => {
        const el = document.querySelector('pp-lab') as unknown as {
          labApp: { client: { request(type: string, params: object): Promise<unknown> } };
        };
        void el.labApp.client.request('hang', {}).catch(() => {});
      });
      await page.keyboard.press('Enter');
      await page.keyboard.type('kubectl get svc');

      await page.waitForSelector('pp-lab[data-watchdog="restarted"]', { timeout: 30_000 });
      const seenAt = Date.now();
      const restartMs = Number(await lab(page).getAttribute('data-restart-ms'));
      const warm = await lab(page).getAttribute('data-restart-warm');
      console.log(
        `watchdog ${lang}: restart (new worker loaded from the last save, files written) ${restartMs} ms` +
          ` (replacement warmed before the deadline: ${warm}); ` +
          `hang to lab ready again ${seenAt - hungAt} ms (includes the 2 s silence that declares it dead)`,
      );
      expect(restartMs).toBeGreaterThan(0);
      // The replacement was started while the watchdog still waited (half-way to the deadline).
      expect(warm).toBe('true');

      // Told in the status (aria-live) and in the terminal, in the page's language.
      expect(await lab(page).locator('[data-status]').innerText()).toContain(TEXT[lang].status);
      expect(await lab(page).locator('[data-status]').getAttribute('role')).toBe('status');
      // The half-typed line is still at the prompt, below the notice.
      const shown = await waitForTerminal(
        page,
        (t) => t.includes(TEXT[lang].terminal) && t.endsWith('$ kubectl get svc'),
        'the notice and the half-typed line',
      );
      expect(shown.indexOf(TEXT[lang].terminal)).toBeGreaterThan(shown.indexOf('$ kubectl get deploy web'));

      // The new worker has the saved cluster and the unsaved edit. (Ctrl+L between commands: the
      // `run` helper counts the terminal's visible rows.)
      const cleared = async () => {
        await page.keyboard.press('Control+U');
        await page.keyboard.press('Control+L');
        await waitForTerminal(page, (t) => t.trim() === 'learner@packetpath:~$', 'a cleared screen');
      };
      await cleared();
      expect(await run(page, 'kubectl get deploy web')).toMatch(/web\s+\d\/1/);
      await cleared();
      expect(await run(page, 'grep replicas web.yaml')).toContain('replicas: 3');
      await waitForEditor(page, 'replicas: 3');
      await cleared();
      expect(await run(page, 'kubectl apply -f web.yaml')).toContain('deployment.apps/web configured');
      // History kept, the unanswered line included.
      for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowUp');
      await waitForTerminal(page, (t) => t.endsWith('$ kubectl get deploy web'), 'the history');
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});
