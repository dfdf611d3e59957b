/**
 * Helpers for the lab's browser tests: open the lab, wait for it, drive and read the terminal and
 * the editor. Waits are on states the lab publishes (`data-state`, `data-editor`, `data-saved`), never
 * on time.
 */
import type { Locator, Page } from 'playwright-core';

export const LAB_PAGES = [
  { prefix: 'pt-br', lang: 'pt-BR', path: '/pt-br/about-labs/' },
  { prefix: 'en', lang: 'en', path: '/en/about-labs/' },
] as const;

export const lab = (page: Page): Locator => page.locator('pp-lab');

/** Scrolls the lab into view and waits until the prompt accepts input (and, optionally, the editor). */
export async function openLab(page: Page, opts: { editor?: boolean } = {}): Promise<void> {
  await lab(page).locator('[data-panes]').scrollIntoViewIfNeeded();
  await page.waitForSelector('pp-lab[data-state="ready"]', { timeout: 30_000 });
  if (opts.editor !== false) await page.waitForSelector('pp-lab[data-editor="ready"]', { timeout: 30_000 });
}

/** The terminal's visible text, rows joined by newlines, trailing blanks trimmed. */
export async function terminalText(page: Page): Promise<string> {
  const text = await lab(page).locator('.xterm-rows').innerText();
  return text
    .replace(/\u00a0/g, ' ')
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .trimEnd();
}

/** The line the prompt is on (the last non-empty row). */
export async function promptLine(page: Page): Promise<string> {
  const rows = (await terminalText(page)).split('\n').filter((l) => l.trim() !== '');
  return rows[rows.length - 1] ?? '';
}

export async function waitForTerminal(
  page: Page,
  test: (text: string) => boolean,
  what: string,
): Promise<string> {
  // Generous: on a loaded 2-core machine a lab's check run can hold the worker for several seconds.
  const deadline = Date.now() + 45_000;
  let text = '';
  while (Date.now() < deadline) {
    text = await terminalText(page);
    if (test(text)) return text;
    await page.waitForTimeout(50);
  }
  // What the lab says of itself, and whether the terminal is on screen (xterm stops painting when not).
  const state = await lab(page).evaluate((el: HTMLElement) => {
    const { strings: _strings, ...dataset } = el.dataset;
    const rows = el.querySelector('.xterm-rows')?.getBoundingClientRect();
    return {
      dataset,
      status: el.querySelector('[data-status]')?.textContent ?? '',
      terminal: rows && { top: Math.round(rows.top), bottom: Math.round(rows.bottom), viewport: innerHeight },
    };
  });
  throw new Error(`terminal never showed ${what}; it shows:\n${text}\nlab: ${JSON.stringify(state)}`);
}

/** Opens the toolbar's Tools menu (name, report, download, export, import), a popover. */
export async function openTools(page: Page): Promise<void> {
  if (
    await lab(page)
      .locator('[data-tools]')
      .evaluate((el) => el.matches(':popover-open'))
  )
    return;
  await lab(page).locator('[data-tools-button]').click();
  await page.waitForFunction(() => document.querySelector('pp-lab [data-tools]')?.matches(':popover-open'));
}

export async function focusTerminal(page: Page): Promise<void> {
  await lab(page).locator('.xterm-helper-textarea').focus();
}

/** Types a line with the keyboard, presses Enter, waits for the next prompt below it. */
export async function run(page: Page, line: string): Promise<string> {
  const before = (await terminalText(page)).split('\n').length;
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
  return waitForTerminal(
    page,
    (t) => {
      const rows = t.split('\n');
      return (
        rows.length > before &&
        /\$ ?$/.test(rows[rows.length - 1] ?? '') &&
        t.replace(/\n/g, '').includes(line)
      );
    },
    `the prompt after "${line}"`,
  );
}

/** Monaco's input element: an EditContext div in Chromium (Monaco ≥ 0.55), a textarea elsewhere. */
export const EDITOR_INPUT = '.monaco-editor .native-edit-context, .monaco-editor textarea.inputarea';

export async function focusEditor(page: Page): Promise<void> {
  await lab(page).locator(EDITOR_INPUT).first().focus();
}

/** Types a new `replicas:` count over the sandbox's web.yaml (line 8, one digit) with the keyboard. */
export async function typeReplicas(page: Page, replicas: number): Promise<void> {
  await focusEditor(page);
  await page.keyboard.press('Control+Home');
  for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(String(replicas));
  await waitForEditor(page, `replicas: ${replicas}`);
}

/** The text of the editor's current model as Monaco renders it. */
export async function editorText(page: Page): Promise<string> {
  const text = await lab(page).locator('.monaco-editor .view-lines').innerText();
  return text.replace(/\u00a0/g, ' ');
}

export async function waitForSaved(page: Page, after?: string): Promise<string> {
  const handle = await page.waitForFunction(
    (prev) => {
      const saved = document.querySelector('pp-lab')?.getAttribute('data-saved');
      return saved && saved !== prev ? saved : undefined;
    },
    after ?? null,
    { timeout: 20_000 },
  );
  return (await handle.jsonValue()) as string;
}

/** Waits until the editor shows `text` (Monaco renders on the next frame). */
export async function waitForEditor(page: Page, text: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  let shown = '';
  while (Date.now() < deadline) {
    shown = await editorText(page);
    if (shown.includes(text)) return;
    await page.waitForTimeout(50);
  }
  throw new Error(`editor never showed "${text}"; it shows:\n${shown}`);
}
