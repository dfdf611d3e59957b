/**
 * A lab's questions on the site (graded quiz checks): the learner ticks a choice with the keyboard and
 * presses Answer; the quiz check turns to passed, and after a reload the answer is still ticked and
 * still counts (it lives in the saved state). axe looks at the questions; screenshots of the checks
 * panel with its question in /tmp/packetpath-shots/lab-quiz.
 */
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { lab, openLab, waitForSaved } from './lab-helpers';

const baseURL = inject('baseURL');
const SHOTS = '/tmp/packetpath-shots/lab-quiz';
let browser: Browser;

beforeAll(async () => {
  browser = await chromium.connect(inject('wsEndpoint'));
  mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
});

describe.each([
  ['pt-br', 'Responder'],
  ['en', 'Answer'],
] as const)('/%s/services/services/: the lab question', (prefix, answerLabel) => {
  it('is answered in the checks panel, counts, and survives a reload', { timeout: 120_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${baseURL}/${prefix}/services/services/`);
    await openLab(page, { editor: false });
    const quiz = lab(page).locator('form[data-quiz="quiz-refused"]');
    const state = lab(page).locator('[data-check-list] li[data-check="quiz-refused"]');
    await quiz.locator('input[value="reject"]').focus();
    await page.keyboard.press('Space');
    await quiz.getByRole('button', { name: answerLabel }).click();
    await expect.poll(() => state.getAttribute('data-state'), { timeout: 30_000 }).toBe('passed');
    await quiz.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/${prefix}-answered.png` });
    const axe = await new AxeBuilder({ page }).include('form[data-quiz]').analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);

    // A wrong answer replaces the right one, and fails again.
    await quiz.locator('input[value="dns"]').check();
    await quiz.getByRole('button', { name: answerLabel }).click();
    await expect.poll(() => state.getAttribute('data-state'), { timeout: 30_000 }).toBe('failed');
    const saved = (await lab(page).getAttribute('data-saved')) ?? undefined;
    await quiz.locator('input[value="reject"]').check();
    await quiz.getByRole('button', { name: answerLabel }).click();
    await expect.poll(() => state.getAttribute('data-state'), { timeout: 30_000 }).toBe('passed');

    await waitForSaved(page, saved);
    await page.reload();
    await openLab(page, { editor: false });
    expect(await quiz.locator('input[value="reject"]').isChecked()).toBe(true);
    await expect.poll(() => state.getAttribute('data-state'), { timeout: 30_000 }).toBe('passed');
    expect(errors).toEqual([]);
    await context.close();
  });
});
