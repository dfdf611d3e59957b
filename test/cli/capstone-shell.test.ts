/**
 * `packetpath shell --lab 17-capstone`: a lab with variants starts one variant, picked with
 * `--variant ID` or drawn by `--seed N` (as the browser draws it from the learner's seed); a bad pick is
 * an error line, never a stack trace.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { drawVariant } from '../../src/grader/index.ts';
import { loadLabFromDir } from '../../src/grader/node/load-lab.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/packetpath.mjs');
const NODE = existsSync(join(ROOT, 'node_modules/.bin/node'))
  ? join(ROOT, 'node_modules/.bin/node')
  : process.execPath;

function cli(args: string[], input = '') {
  const r = spawnSync(NODE, [BIN, ...args], {
    cwd: mkdtempSync(join(tmpdir(), 'packetpath-capstone-')),
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status };
}

const SELECTOR = 'kubectl -n shop get svc api -o jsonpath={.spec.selector.app}\n';

describe('packetpath shell --lab 17-capstone', { timeout: 120_000 }, () => {
  it('--variant starts that variant: selector has the Service select app=shop-api', () => {
    expect(cli(['shell', '--lab', '17-capstone', '--variant', 'selector'], SELECTOR)).toEqual({
      stdout: 'shop-api',
      stderr: '',
      code: 0,
    });
    expect(cli(['shell', '--lab', '17-capstone', '--variant', 'policy'], SELECTOR).stdout).toBe('api');
  });

  it('--seed starts the variant that seed draws', () => {
    const lab = loadLabFromDir(join(ROOT, 'labs/17-capstone')).lab;
    const seed = [...Array(100).keys()].find((s) => drawVariant(lab, s) === 'selector')!;
    expect(cli(['shell', '--lab', '17-capstone', '--seed', String(seed)], SELECTOR).stdout).toBe('shop-api');
  });

  it('refuses an unknown variant, a variant for a lab without variants, and both flags', () => {
    expect(cli(['shell', '--lab', '17-capstone', '--variant', 'mtu'])).toEqual({
      stdout: '',
      stderr:
        'packetpath: lab 17-capstone has no variant "mtu" (variants: dns, kube-proxy, overlay, policy, selector)\n',
      code: 1,
    });
    expect(cli(['shell', '--lab', '00-sandbox', '--variant', 'dns'])).toMatchObject({
      stderr: 'packetpath: lab 00-sandbox has no variants\n',
      code: 1,
    });
    const both = cli(['shell', '--lab', '17-capstone', '--variant', 'dns', '--seed', '3']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --variant or --seed, not both');
    expect(cli(['shell', '--variant', 'dns']).stderr).toContain('--variant needs --lab ID');
  });
});
