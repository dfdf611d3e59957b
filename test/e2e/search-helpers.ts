import type { Page } from 'playwright-core';

/**
 * Opens Starlight's search dialog and types a query. Starlight's `<site-search>` wires its button when
 * its module runs and builds Pagefind's UI in an idle callback, so on a loaded machine either can lag
 * the load event: wait for the element, then give the UI time to appear.
 */
export async function searchFor(page: Page, query: string): Promise<void> {
  await page.evaluate(() => customElements.whenDefined('site-search'));
  await page.locator('button[data-open-modal]').first().click();
  const input = page.locator('.pagefind-ui__search-input');
  await input.waitFor({ state: 'visible', timeout: 45_000 });
  await input.fill(query);
}
