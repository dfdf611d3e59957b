#!/usr/bin/env node
/**
 * `npm run bench:lab`: the lab's budgets, measured on the built site (run `npm run build` first)
 * with Playwright + Debian Chromium and Lighthouse. A benchmark, not a test: it prints medians of
 * several runs and a Markdown block for BENCHMARKS.md, and exits 0 whatever the numbers are.
 *
 *   1. JavaScript a page with a lab loads before the lab nears the viewport, compressed (gzip -9), on
 *      top of what the same page without a lab loads (Starlight's own scripts). Budget 30 KB.
 *   2. Prompt ready: from scrolling the lab into view to the terminal accepting input (worker host,
 *      a fresh browser context each run, so a cold cache). Budget 1 s.
 *   3. Editor ready: same start, until Monaco shows the file. Budget 3 s.
 *   4. Lighthouse (mobile defaults) performance and accessibility on the page with the lab, both
 *      locales. Budgets 95 and 100.
 *
 * Options: --runs N (default 5), --lighthouse-runs N (default 3), --no-lighthouse.
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { serveWithHeaders } from '../test/e2e/static-server.ts';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const RUNS = opt('--runs', 5);
const LH_RUNS = opt('--lighthouse-runs', 3);
const LIGHTHOUSE = !args.includes('--no-lighthouse');
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
const PAGES = [
  { locale: 'pt-br', lab: '/pt-br/about-labs/', plain: '/pt-br/glossary/' },
  { locale: 'en', lab: '/en/about-labs/', plain: '/en/glossary/' },
];

if (!existsSync(join(dist, 'index.html'))) {
  console.error('dist/ is missing: run `npm run build` first.');
  process.exit(1);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const gz = (buf) => gzipSync(buf, { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/** Every script a page runs after load without scrolling: external (gzip of the body) and inline. */
async function scriptsOf(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const external = new Map();
  page.on('response', async (r) => {
    if (r.request().resourceType() === 'script') external.set(new URL(r.url()).pathname, gz(await r.body()));
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  const inline = await page.evaluate(() =>
    [...document.querySelectorAll('script:not([src])')]
      .filter((s) => !s.type || s.type === 'module' || s.type === 'text/javascript')
      .map((s) => s.textContent ?? ''),
  );
  const labState = await page.evaluate(
    () => document.querySelector('pp-lab')?.getAttribute('data-state') ?? null,
  );
  await context.close();
  return { external, inline, labState };
}

async function jsBudget(browser, base, { lab, plain }) {
  const withLab = await scriptsOf(browser, base + lab);
  const without = await scriptsOf(browser, base + plain);
  const extra = [...withLab.external].filter(([path]) => !without.external.has(path));
  const inlineExtra = withLab.inline.filter((s) => !without.inline.includes(s));
  const bytes =
    extra.reduce((n, [, size]) => n + size, 0) + inlineExtra.reduce((n, s) => n + gz(Buffer.from(s)), 0);
  const heavy = extra.map(([p]) => p).filter((p) => /lab-app|editor|worker|program|xterm/.test(p));
  return {
    bytes,
    files: extra.map(([p, s]) => `${p} (${kb(s)})`),
    inline: inlineExtra.length,
    heavy,
    labState: withLab.labState,
  };
}

async function timeToReady(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'networkidle' });
  const start = await page.evaluate(() => {
    const t = performance.now();
    document.querySelector('pp-lab [data-panes]')?.scrollIntoView({ block: 'center' });
    return t;
  });
  await page.waitForSelector('pp-lab[data-state="ready"]', { timeout: 60_000 });
  await page.waitForSelector('pp-lab[data-editor="ready"]', { timeout: 60_000 });
  const marks = await page.evaluate(() =>
    Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])),
  );
  await context.close();
  return { prompt: marks['pp-lab:prompt'] - start, editor: marks['pp-lab:editor'] - start };
}

/** Attempts per Lighthouse run: on a loaded machine a run can die (NO_NAVSTART, a protocol timeout). */
const LH_ATTEMPTS = 3;

/**
 * One Lighthouse run, tried again when it fails or reports a runtime error (its scores are then
 * null); the failures are counted in the row, so a flaky run is visible rather than hidden.
 */
async function lighthouseRun(url) {
  const failures = [];
  for (let attempt = 1; attempt <= LH_ATTEMPTS; attempt++) {
    try {
      const scores = await lighthouseOnce(url);
      return failures.length ? { ...scores, failedAttempts: failures } : scores;
    } catch (e) {
      failures.push(String(e instanceof Error ? e.message : e).split('\n')[0].slice(0, 200));
      console.error(`lighthouse ${url}: attempt ${attempt} failed: ${failures.at(-1)}`);
    }
  }
  return { performance: undefined, accessibility: undefined, failedAttempts: failures };
}

async function lighthouseOnce(url) {
  const dir = mkdtempSync(join(tmpdir(), 'pp-lh-'));
  const out = join(dir, 'lh.json');
  try {
    await promisify(execFile)(
      join(root, 'node_modules/.bin/lighthouse'),
      [
        url,
        `--chrome-flags=--headless=new ${FLAGS.join(' ')}`,
        '--only-categories=performance,accessibility',
        '--output=json',
        `--output-path=${out}`,
        '--quiet',
      ],
      { env: { ...process.env, CHROME_PATH: CHROMIUM } },
    );
    const report = JSON.parse(readFileSync(out, 'utf8'));
    if (report.runtimeError) throw new Error(`${report.runtimeError.code}: ${report.runtimeError.message}`);
    if (report.categories.performance.score === null) throw new Error('no performance score');
    return {
      performance: Math.round(report.categories.performance.score * 100),
      accessibility: Math.round(report.categories.accessibility.score * 100),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The median of the runs that produced a score (a run that failed every attempt has none). */
const scored = (runs, key) => {
  const values = runs.map((x) => x[key]).filter((v) => v !== undefined);
  return values.length ? median(values) : undefined;
};

const server = await serveWithHeaders(dist);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
const rows = [];
try {
  for (const p of PAGES) {
    const js = await jsBudget(browser, server.url, p);
    const times = [];
    for (let i = 0; i < RUNS; i++) times.push(await timeToReady(browser, server.url + p.lab));
    const lh = [];
    if (LIGHTHOUSE) for (let i = 0; i < LH_RUNS; i++) lh.push(await lighthouseRun(server.url + p.lab));
    const row = {
      page: p.lab,
      js: js.bytes,
      jsFiles: js.files,
      heavyBeforeView: js.heavy,
      labStateBeforeView: js.labState,
      prompt: median(times.map((t) => t.prompt)),
      promptRuns: times.map((t) => Math.round(t.prompt)),
      editor: median(times.map((t) => t.editor)),
      editorRuns: times.map((t) => Math.round(t.editor)),
      performance: scored(lh, 'performance'),
      accessibility: scored(lh, 'accessibility'),
      lighthouseRuns: lh,
    };
    rows.push(row);
    console.log(JSON.stringify(row, null, 2));
  }
} finally {
  await browser.close();
  await server.close();
}

const version = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8' }).stdout.trim();
const ok = (cond) => (cond ? 'within' : '**over**');
console.log(`\n### Lab (\`npm run bench:lab\`), ${new Date().toISOString().slice(0, 10)}\n`);
console.log(
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GB RAM; ${version}; Node ${process.version}.`,
);
console.log(
  `Medians of ${RUNS} cold runs (Lighthouse: ${LIGHTHOUSE ? `${LH_RUNS} runs, mobile defaults` : 'skipped'}).\n`,
);
console.log(
  '| Page | JS before the lab nears view (gzip, over Starlight) | Prompt ready | Editor ready | Lighthouse perf | Lighthouse a11y |',
);
console.log('| --- | --- | --- | --- | --- | --- |');
for (const r of rows) {
  console.log(
    `| ${r.page} | ${kb(r.js)} (${ok(r.js <= 30 * 1024)} 30 KB) | ${Math.round(r.prompt)} ms (${ok(r.prompt <= 1000)} 1 s) | ${Math.round(r.editor)} ms (${ok(r.editor <= 3000)} 3 s) | ${r.performance ?? '–'} | ${r.accessibility ?? '–'} |`,
  );
}
