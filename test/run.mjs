#!/usr/bin/env node
/**
 * `npm test`: the one test command. Runs, in order, and stops at the first stage that fails:
 *
 *   a. Chromium present at /usr/bin/chromium (the browser tests need it; nothing is downloaded)
 *   b. type checks: `astro check`, then `tsc --noEmit -p src/engine/tsconfig.json` when that file exists
 *   c. unit tests: `vitest run` with ./vitest.config.ts
 *   d. `astro build`
 *   e. browser tests: `vitest run` with test/e2e/vitest.config.ts (serves dist/, drives Chromium)
 *
 * Ends with the line `N passed, N failed`, summed over the unit and browser tests. A stage that is not
 * a test run (b, d) and fails counts as one failed test, so the closing line never reads as a pass.
 * Run through npm, so node_modules/.bin (and its Node 24) comes first on PATH.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = '/usr/bin/chromium';
const resultsDir = join(root, 'test-results');
const bin = (name) => join(root, 'node_modules', '.bin', name);

if (!existsSync(CHROMIUM)) {
  console.log(
    `Chromium not found at ${CHROMIUM}: install it with 'apt-get install -y chromium' (or run .ci/run)`,
  );
  process.exit(1);
}

const totals = { passed: 0, failed: 0 };

function finish() {
  console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
  process.exit(totals.failed > 0 ? 1 : 0);
}

/** Runs a command with inherited output; returns its exit code. */
function run(title, command, args) {
  console.log(`\n=== ${title}: ${[command, ...args].map((a) => a.replace(root + '/', '')).join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (result.error) console.error(result.error.message);
  return result.status ?? 1;
}

/** A stage that is not a test run: on failure, count one failed test and stop. */
function stage(title, command, args) {
  if (run(title, command, args) !== 0) {
    console.log(`\n${title} failed.`);
    totals.failed += 1;
    finish();
  }
}

/**
 * A vitest run with the JSON reporter next to the default one. Counts passed and failed tests;
 * a test file that fails to load counts as one failed test; so does a non-zero exit with no failure
 * reported (an unhandled error, for instance).
 */
function vitest(title, config, reportName) {
  const report = join(resultsDir, `${reportName}.json`);
  rmSync(report, { force: true });
  const code = run(title, bin('vitest'), [
    'run',
    '--config',
    config,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ]);
  let passed = 0;
  let failed = 0;
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    passed = json.numPassedTests ?? 0;
    failed = json.numFailedTests ?? 0;
    for (const file of json.testResults ?? []) {
      const failedTests = (file.assertionResults ?? []).filter((a) => a.status === 'failed').length;
      if (file.status === 'failed' && failedTests === 0) failed += 1;
    }
  }
  if (code !== 0 && failed === 0) failed = 1;
  totals.passed += passed;
  totals.failed += failed;
  console.log(`${title}: ${passed} passed, ${failed} failed`);
  if (failed > 0) finish();
}

mkdirSync(resultsDir, { recursive: true });

stage('Type check (astro check)', bin('astro'), ['check']);
if (existsSync(join(root, 'src/engine/tsconfig.json'))) {
  stage('Type check (engine)', bin('tsc'), ['--noEmit', '-p', 'src/engine/tsconfig.json']);
}
vitest('Unit tests', 'vitest.config.ts', 'unit');
stage('Build', bin('astro'), ['build']);
vitest('Browser tests', 'test/e2e/vitest.config.ts', 'e2e');
finish();
