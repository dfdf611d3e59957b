/**
 * The WebContainer host, as far as an offline machine can take it: the headers (only lab pages are
 * cross-origin isolated), the shipped engine program run by its bin scripts under Node, and the
 * fallback when a forced boot cannot reach StackBlitz (the lab stays on the worker, nothing lost).
 * A real WebContainer boot is NOT tested anywhere: it needs stackblitz.com.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildFileTree, type FileSystemTree } from '../../src/runtime/webcontainer/file-tree';
import { focusTerminal, lab, openLab, run } from './lab-helpers';
import { serveWithHeaders } from './static-server';

const distDir = inject('distDir');
let browser: Browser;
let server: { url: string; close: () => Promise<void> };

beforeAll(async () => {
  browser = await chromium.connect(inject('wsEndpoint'));
  server = await serveWithHeaders(distDir);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('cross-origin isolation, scoped by _headers', () => {
  it.each([
    ['/pt-br/about-labs/', true],
    ['/en/about-labs/', true],
    ['/en/glossary/', false],
    ['/pt-br/', false],
  ] as const)('%s isolated: %s', async (path, isolated) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(server.url + path, { waitUntil: 'load' });
    expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(isolated);
    await context.close();
  });

  it('runs the lab (worker, Monaco workers) under require-corp', { timeout: 120_000 }, async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(server.url + '/en/about-labs/', { waitUntil: 'load' });
    await openLab(page);
    await focusTerminal(page);
    expect(await run(page, 'kubectl get ns')).toContain('kube-system');
    expect(await lab(page).locator('[data-action="host"]').isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('falling back when the WebContainer cannot boot', () => {
  it('says so, stays on the worker and keeps the session', { timeout: 120_000 }, async () => {
    const context = await browser.newContext();
    await context.addInitScript(() => {
      localStorage.setItem('packetpath.webcontainer', 'force');
      localStorage.setItem('packetpath.webcontainer.timeout', '3000');
    });
    const page = await context.newPage();
    await page.goto(server.url + '/pt-br/about-labs/', { waitUntil: 'load' });
    await openLab(page, { editor: false });
    await focusTerminal(page);
    await run(page, 'kubectl create namespace before');
    await lab(page).locator('[data-action="host"]').click();
    await page.waitForSelector('pp-lab [data-notice]:not([hidden])', { timeout: 30_000 });
    expect(await lab(page).locator('[data-notice]').innerText()).toMatch(
      /WebContainer não conseguiu iniciar.*nada foi perdido/s,
    );
    expect(await lab(page).locator('[data-host]').innerText()).toMatch(/nesta aba/);
    await focusTerminal(page);
    expect(await run(page, 'kubectl get ns before')).toMatch(/before\s+Active/);
    await context.close();
  });
});

describe('the shipped engine program', () => {
  it('runs under Node from the tree the host mounts, keeping state between invocations', () => {
    const file = readdirSync(join(distDir, '_astro')).find((f) => /^program-.*\.js$/.test(f));
    expect(file, 'dist/_astro/program-*.js').toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), 'pp-wc-dist-'));
    try {
      const start = { 'web.yaml': readFileSync('labs/00-sandbox/start/web.yaml', 'utf8') };
      const tree = buildFileTree({
        program: readFileSync(join(distDir, '_astro', file!), 'utf8'),
        lab: {
          id: '00-sandbox',
          yaml: readFileSync('labs/00-sandbox/lab.yaml', 'utf8'),
          start,
          solution: {},
        },
        files: start,
      });
      const write = (at: string, t: FileSystemTree) => {
        for (const [name, node] of Object.entries(t)) {
          if ('directory' in node) {
            mkdirSync(join(at, name), { recursive: true });
            write(join(at, name), node.directory);
          } else writeFileSync(join(at, name), node.file.contents);
        }
      };
      write(dir, tree);
      const kubectl = (...args: string[]) =>
        spawnSync(process.execPath, [join(dir, '.packetpath/bin/kubectl'), ...args], {
          cwd: dir,
          encoding: 'utf8',
        });
      expect(kubectl('apply', '-f', 'web.yaml')).toMatchObject({
        status: 0,
        stdout: 'deployment.apps/web created\n',
      });
      expect(kubectl('get', 'deploy', 'web').stdout).toMatch(/^web\s+\d\/1/m);
      const host = spawnSync(
        process.execPath,
        [join(dir, '.packetpath/bin/packetpath'), 'host', '{"type":"check","params":{}}'],
        {
          cwd: dir,
          encoding: 'utf8',
        },
      );
      expect(JSON.parse(host.stdout)).toMatchObject({ ok: true, value: { total: 5, passed: 1 } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
