/**
 * Saved progress under stress (issue 9 item 4), in a real browser: two tabs on the same lab in one
 * browser context (BroadcastChannel + IndexedDB compare-and-swap: a clean tab takes the other's save
 * live; when both changed, the later one asks and never overwrites silently), and a full quota
 * (IndexedDB's QuotaExceededError, raised by a stub of IDBObjectStore.put) told in the page's language
 * with the page's work kept and exportable.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { focusTerminal, lab, openLab, run, waitForSaved, waitForTerminal } from './lab-helpers';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await chromium.connect(inject('wsEndpoint'));
});
afterAll(async () => {
  await browser?.close();
});

const tab = (page: Page, file: string) => lab(page).locator(`[data-tabs] [data-file="${file}"]`);

/** A change the learner makes in the editor, made at once (no typing delay) so two tabs overlap. */
function editNow(page: Page, path: string, content: string): Promise<void> {
  return page.evaluate(
    ([p, c]) => {
      const el = document.querySelector('pp-lab') as unknown as {
        labApp: { files: { edited(path: string, content: string): void } };
      };
      el.labApp.files.edited(p!, c!);
    },
    [path, content],
  );
}

/** Brings the tab to the front (a background tab's xterm may not repaint) and focuses its terminal. */
async function useTerminal(page: Page): Promise<void> {
  await page.bringToFront();
  await focusTerminal(page);
}

/** The file as the page holds it (what the editor shows and the host is given). */
function pageFile(page: Page, path: string): Promise<string | undefined> {
  return page.evaluate(
    (p) =>
      (
        document.querySelector('pp-lab') as unknown as {
          labApp: { files: { get(path: string): string | undefined } };
        }
      ).labApp.files.get(p),
    path,
  );
}

/** The file as this origin's IndexedDB holds it (what a reload would find). */
function storedFile(page: Page, path: string): Promise<string | undefined> {
  return page.evaluate(async (p) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('packet-path');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const record = await new Promise<{ files?: Record<string, string> } | undefined>((resolve, reject) => {
      const get = db.transaction('progress').objectStore('progress').get('00-sandbox');
      get.onsuccess = () => resolve(get.result as { files?: Record<string, string> } | undefined);
      get.onerror = () => reject(get.error);
    });
    db.close();
    return record?.files?.[p];
  }, path);
}

async function fileOnHost(page: Page, path: string): Promise<string> {
  await useTerminal(page);
  await page.keyboard.press('Control+L');
  await waitForTerminal(page, (t) => /^\S+\$$/.test(t.trim()), 'a cleared screen');
  return run(page, `cat ${path}`);
}

describe('two tabs on the same lab', () => {
  it('share saves live, and ask instead of overwriting when both changed', { timeout: 180_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const problems: string[] = [];
    const open = async () => {
      const page = await context.newPage();
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      await page.goto(baseURL + '/en/about-labs/', { waitUntil: 'load' });
      await openLab(page);
      return page;
    };
    const a = await open();
    const b = await open();

    // A saves; B had nothing unsaved, so it takes A's work live (file tab, cluster, status).
    await useTerminal(a);
    const savedA = await lab(a).getAttribute('data-saved');
    await run(a, 'echo "from A" > a.txt');
    await waitForSaved(a, savedA ?? undefined);
    await tab(b, 'a.txt').waitFor({ timeout: 20_000 });
    expect(await lab(b).locator('[data-status]').innerText()).toBe(
      'Updated with the work saved in another tab.',
    );
    expect(await fileOnHost(b, 'a.txt')).toContain('from A');

    // B builds on it; A takes that live.
    await useTerminal(b);
    await run(b, 'echo "from B" > b.txt');
    await tab(a, 'b.txt').waitFor({ timeout: 20_000 });

    // Both change the same file before either has saved: exactly one wins, the other asks.
    await Promise.all([editNow(a, 'web.yaml', 'kind: A\n'), editNow(b, 'web.yaml', 'kind: B\n')]);
    const conflicted = (page: Page) => lab(page).getAttribute('data-conflict');
    let loser: Page | undefined;
    for (let i = 0; i < 200 && !loser; i++) {
      if ((await conflicted(a)) === 'true') loser = a;
      else if ((await conflicted(b)) === 'true') loser = b;
      else await a.waitForTimeout(100);
    }
    if (!loser) throw new Error('neither tab reported the conflict');
    const winner = loser === a ? b : a;
    const [mine, theirs] = loser === a ? ['kind: A', 'kind: B'] : ['kind: B', 'kind: A'];
    expect(await conflicted(winner)).toBeNull();
    const notice = lab(loser).locator('[data-notice]');
    expect(await notice.innerText()).toContain('Nothing was overwritten');
    // The loser's edit is still in its page; the store holds the winner's. (Read without typing a
    // command: a command is a change too, and would start a save of its own.)
    expect(await pageFile(loser, 'web.yaml')).toBe(`${mine}\n`);
    expect(await pageFile(winner, 'web.yaml')).toBe(`${theirs}\n`);
    expect(await storedFile(loser, 'web.yaml')).toBe(`${theirs}\n`);

    // Keeping this tab's version is a choice, and the other (clean) tab then takes it live.
    await loser.bringToFront();
    await notice.getByRole('button', { name: 'Keep my version' }).click();
    await winner.waitForFunction(
      (text) =>
        (
          document.querySelector('pp-lab') as unknown as {
            labApp: { files: { get(path: string): string | undefined } };
          }
        ).labApp.files.get('web.yaml') === text,
      `${mine}\n`,
      { timeout: 20_000 },
    );
    expect(await storedFile(winner, 'web.yaml')).toBe(`${mine}\n`);
    expect(await lab(winner).locator('[data-status]').innerText()).toBe(
      'Updated with the work saved in another tab.',
    );
    expect(await conflicted(loser)).toBeNull();

    // A reload of either finds the chosen version, and both earlier files.
    await winner.bringToFront();
    await winner.reload({ waitUntil: 'load' });
    await openLab(winner);
    expect(await lab(winner).locator('[data-tabs] [role="tab"]').allInnerTexts()).toEqual([
      'a.txt',
      'b.txt',
      'web.yaml',
    ]);
    expect(await pageFile(winner, 'web.yaml')).toBe(`${mine}\n`);
    expect(await fileOnHost(winner, 'web.yaml')).toContain(mine);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('a full storage quota', () => {
  it(
    'is told in the page language, keeps the work, offers an export, and saves again once space is back',
    { timeout: 120_000 },
    async () => {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 720 },
        acceptDownloads: true,
      });
      await context.addInitScript(() => {
        const put = IDBObjectStore.prototype.put;
        IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<typeof put>) {
          if ((window as unknown as { __quotaFull?: boolean }).__quotaFull)
            throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
          return put.apply(this, args);
        };
      });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      await page.goto(baseURL + '/pt-br/about-labs/', { waitUntil: 'load' });
      await openLab(page);
      await page.evaluate(() => ((window as unknown as { __quotaFull: boolean }).__quotaFull = true));
      await focusTerminal(page);
      await run(page, 'echo "kept" > kept.txt');
      await page.waitForSelector('pp-lab[data-storage="full"]', { timeout: 20_000 });
      const notice = lab(page).locator('[data-notice]');
      expect(await notice.innerText()).toContain('O armazenamento do navegador para este site está cheio');
      expect(await tab(page, 'kept.txt').count()).toBe(1);

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        notice.getByRole('button', { name: 'Exportar meu progresso' }).click(),
      ]);
      // The browser runs in another process (connected over a websocket): read the download as a stream.
      const chunks: Buffer[] = [];
      for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
      const exported = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        format: string;
        labs: { labId: string; files: Record<string, string>; history: string[] }[];
      };
      expect(exported.format).toBe('packetpath-progress');
      const mine = exported.labs.find((r) => r.labId === '00-sandbox');
      expect(mine?.files['kept.txt']).toBe('kept\n');
      expect(mine?.history).toContain('echo "kept" > kept.txt');

      // Space again: the next save goes through and the notice goes away.
      await page.evaluate(() => ((window as unknown as { __quotaFull: boolean }).__quotaFull = false));
      const before = await lab(page).getAttribute('data-saved');
      await focusTerminal(page);
      await run(page, 'ls');
      await waitForSaved(page, before ?? undefined);
      expect(await lab(page).getAttribute('data-storage')).toBeNull();
      await page.reload({ waitUntil: 'load' });
      await openLab(page);
      expect(await tab(page, 'kept.txt').count()).toBe(1);
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});
