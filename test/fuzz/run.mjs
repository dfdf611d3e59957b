#!/usr/bin/env node
/**
 * `npm run fuzz [-- --runs N] [-- --seed S] [vitest filters…]`: the fuzz properties of test/fuzz with
 * many more cases than `npm test` runs. FUZZ_RUNS (default 1000) scales every property: a property
 * that runs D cases in `npm test` runs D × FUZZ_RUNS / 100 here. Each property prints its case count
 * and seed; a failure prints fast-check's seed and path (replay: FUZZ_SEED=S, and `path` in params).
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const env = { ...process.env, FUZZ_RUNS: process.env.FUZZ_RUNS ?? '1000' };
const rest = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs') env.FUZZ_RUNS = args[++i];
  else if (args[i] === '--seed') env.FUZZ_SEED = args[++i];
  else rest.push(args[i]);
}
const t0 = performance.now();
const r = spawnSync(
  join(root, 'node_modules/.bin/vitest'),
  ['run', '--config', 'vitest.config.ts', ...(rest.length ? rest : ['test/fuzz'])],
  { cwd: root, stdio: 'inherit', env },
);
console.log(
  `fuzz: FUZZ_RUNS=${env.FUZZ_RUNS} seed=${env.FUZZ_SEED ?? 'default'}: ${((performance.now() - t0) / 1000).toFixed(1)} s wall`,
);
process.exit(r.status ?? 1);
