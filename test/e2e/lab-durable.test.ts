/**
 * Durable by construction (issue 20 item 1), in Chromium on the built site: reloads at the worst
 * moments lose nothing. 0 ms after a command's output (before any save), in the middle of a command
 * (the line journaled, its answer not yet shown), and right after typing in the editor. The restored
 * cluster, files and history are read back through the lab itself.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  focusTerminal,
  lab,
  openLab,
  run,
  typeReplicas,
  waitForEditor,
  waitForTerminal,
} from './lab-helpers';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await chromium.connect(inject('wsEndpoint'));
});
afterAll(async () => {
  await browser?.close();
});

const PATH = '/en/about-labs/';

/** The history, read with the Up key from a fresh prompt (newest first). */
async function historyBack(page: Page, n: number): Promise<string[]> {
  const lines: string[] = [];
  await focusTerminal(page);
  for (let i = 0; i < n; i++) {
    await page.keyboard.press('ArrowUp');
    // Wait for a line other than the one recalled before: the previous one is still on screen
    // until xterm paints the next, and a busy machine reads it first.
    const recalled = (t: string) => (t.split('\n').at(-1) ?? '').replace(/^.*?\$ /, '');
    const text = await waitForTerminal(
      page,
      (t) => /\$ \S/.test(t.split('\n').at(-1) ?? '') && recalled(t) !== lines.at(-1),
      'a recalled line',
    );
    lines.push(recalled(text));
  }
  await page.keyboard.press('Control+U');
  return lines;
}

async function reloadNow(page: Page): Promise<void> {
  // No wait for a save: the reload starts the moment the output is on screen.
  await page.reload({ waitUntil: 'load' });
  await openLab(page);
}

describe('a reload at any moment', () => {
  it('keeps a command reloaded 0 ms after its output, and its history', { timeout: 120_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(baseURL + PATH, { waitUntil: 'load' });
    await openLab(page);
    await focusTerminal(page);
    expect(await run(page, 'kubectl create deployment keep --image=nginx')).toContain(
      'deployment.apps/keep created',
    );
    await reloadNow(page);
    expect(await lab(page).getAttribute('data-state')).toBe('ready');
    await focusTerminal(page);
    expect(await run(page, 'kubectl get deploy keep -o name')).toContain('deployment.apps/keep');
    expect(await historyBack(page, 2)).toEqual([
      'kubectl get deploy keep -o name',
      'kubectl create deployment keep --image=nginx',
    ]);
    await context.close();
  });

  it(
    'keeps an edit reloaded right after it was typed, and a command reloaded mid-run',
    { timeout: 120_000 },
    async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(baseURL + PATH, { waitUntil: 'load' });
      await openLab(page);
      await typeReplicas(page, 4);
      await reloadNow(page);
      await waitForEditor(page, 'replicas: 4');
      await focusTerminal(page);
      expect(await run(page, 'grep replicas web.yaml')).toContain('replicas: 4');
      // Mid-command: Enter, then the reload as soon as the line has left the page (its journal entry is
      // written before the host is asked), without waiting for the output.
      await page.keyboard.type('echo mid-run >> marks.txt');
      await page.keyboard.press('Enter');
      await page.waitForFunction(async () => {
        const open = indexedDB.open('packet-path-journal');
        const db = await new Promise<IDBDatabase>((r) => (open.onsuccess = () => r(open.result)));
        const all = await new Promise<unknown[]>((r) => {
          const q = db.transaction('tails').objectStore('tails').getAll();
          q.onsuccess = () => r(q.result as unknown[]);
        });
        db.close();
        return JSON.stringify(all).includes('mid-run');
      });
      await reloadNow(page);
      await focusTerminal(page);
      // Applied exactly once.
      expect(await run(page, 'cat marks.txt')).toMatch(/\$ cat marks.txt\nmid-run\n/);
      await context.close();
    },
  );
});
