/**
 * Serves the built site (dist/) and starts one headless Chromium for every browser test file.
 * Tests read both addresses with `inject('baseURL')` and `inject('wsEndpoint')`.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { serveStatic } from './static-server';

export const CHROMIUM = '/usr/bin/chromium';
// Root in CI, closed network: no sandbox, nothing in the background that would try to reach the internet.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    wsEndpoint: string;
    distDir: string;
  }
}

export default async function setup(project: TestProject) {
  const distDir = fileURLToPath(new URL('../../dist', import.meta.url));
  if (!existsSync(`${distDir}/index.html`)) throw new Error('dist/ is missing: run `npm run build` first.');
  const server = await serveStatic(distDir);
  const browser = await chromium.launchServer({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  project.provide('baseURL', server.url);
  project.provide('wsEndpoint', browser.wsEndpoint());
  project.provide('distDir', distDir);
  return async () => {
    await browser.close();
    await server.close();
  };
}
