/**
 * The watchdog (issue 9 item 3): the engine worker stops answering (the lab's debug hook, installed
 * before the page loads, freezes the worker's transport both ways: to the page exactly a worker
 * spinning in one synchronous step, as a runaway engine bug would), while a command waits and the learner has an unsaved edit in
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

interface FreezableWindow {
  __freezeHost(): void;
  __restarts: { ms: number; warm: boolean; count: number }[];
}

/**
 * Runs in the page before its scripts (addInitScript): the lab's debug option (lab-debug.ts) that
 * wraps every host transport so the test can silence the current one, and records restart timings.
 */
function installFreezableHosts(): void {
  type Transport = { post(m: unknown): void; listen(r: (m: unknown) => void): void; close(): void };
  const w = window as unknown as FreezableWindow & Record<string, unknown>;
  let current: { frozen: boolean } | undefined;
  w.__restarts = [];
  w.__freezeHost = () => {
    if (current) current.frozen = true;
  };
  w.__packetpathLabDebug = {
    transport(inner: Transport): Transport {
      const gate = { frozen: false };
      return {
        post(m) {
          // The newest transport the lab talks to is the one to freeze next.
          current = gate;
          if (!gate.frozen) inner.post(m);
        },
        listen(receive) {
          inner.listen((m) => {
            if (!gate.frozen) receive(m);
          });
        },
        close: () => inner.close(),
      };
    },
    restarted(timing: { ms: number; warm: boolean; count: number }) {
      w.__restarts.push(timing);
    },
  };
}

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
      await page.addInitScript(installFreezableHosts);
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
      await page.evaluate(() => (window as unknown as FreezableWindow).__freezeHost());
      await page.keyboard.press('Enter');
      await page.keyboard.type('kubectl get svc');

      await page.waitForSelector('pp-lab[data-watchdog="restarted"]', { timeout: 30_000 });
      const seenAt = Date.now();
      const [timing] = await page.evaluate(() => (window as unknown as FreezableWindow).__restarts);
      const restartMs = timing?.ms ?? 0;
      const warm = timing?.warm;
      console.log(
        `watchdog ${lang}: restart (new worker loaded from the last save, files written) ${restartMs} ms` +
          ` (replacement warmed before the deadline: ${warm}); ` +
          `hang to lab ready again ${seenAt - hungAt} ms (includes the 2 s silence that declares it dead)`,
      );
      expect(restartMs).toBeGreaterThan(0);
      // The replacement was started while the watchdog still waited (half-way to the deadline).
      expect(warm).toBe(true);
      // The hook is test-only: the lab carries no timing attributes for learners' pages.
      expect(await lab(page).getAttribute('data-restart-ms')).toBeNull();

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
