/**
 * `packetpath grade --kubeconfig FILE LAB [--variant ID | --seed N] [--locale L] [--labs DIR]`:
 * grades a live cluster with the lab's checks. It runs the very verify.sh `packetpath export`
 * writes (in a private temporary folder holding the lab's start files, with KUBECONFIG=FILE) and
 * turns its TAP into a table: PASS, FAIL with what was expected and seen, SKIP with the reason.
 * Exit status: 0 when every check that ran passed, 1 when one failed or the cluster could not be
 * asked, 2 on a usage error or a lab that cannot be loaded.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CliIO } from '../grade-io.ts';
import type { LoadedLab } from '../../../grader/index.ts';
import { loadLabFor, parseLabArgs, writeChecks } from './export.ts';

const USAGE = `usage: packetpath grade --kubeconfig FILE LAB [--variant ID | --seed N] [--locale en|pt-BR] [--labs DIR]

Grades the live cluster FILE points at with the lab's checks, run with kubectl (KUBECTL=PATH picks
another kubectl). Checks only the course can grade are listed as skipped.
`;

export interface LiveResult {
  readonly label: string;
  readonly status: 'pass' | 'fail' | 'skip';
  /** Why it failed, or why it was skipped. */
  readonly why: readonly string[];
}

/** TAP lines from verify.sh into one result per check (notes after a result belong to it). */
export function parseTap(text: string): LiveResult[] {
  const out: { label: string; status: LiveResult['status']; why: string[] }[] = [];
  for (const line of text.split('\n')) {
    const m = /^(not )?ok \d+ - (.*?)(?: # SKIP (.*))?$/.exec(line);
    if (m) {
      const status = m[3] !== undefined ? 'skip' : m[1] ? 'fail' : 'pass';
      out.push({ label: m[2]!, status, why: m[3] !== undefined ? [m[3]] : [] });
      continue;
    }
    const note = /^#\s+(.*)$/.exec(line);
    if (note && out.length > 0) out[out.length - 1]!.why.push(note[1]!);
  }
  return out;
}

function runBash(
  script: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((done) => {
    const child = spawn('bash', [script], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    child.on('error', (e) => done({ stdout, stderr: `${stderr}${e.message}\n`, code: 2 }));
    child.on('close', (code) => done({ stdout, stderr, code: code ?? 1 }));
  });
}

function table(results: readonly LiveResult[]): string {
  const width = Math.max(...results.map((r) => r.label.indexOf(':')), 2);
  return results
    .map((r) => {
      const colon = r.label.indexOf(':');
      const id = colon < 0 ? r.label : r.label.slice(0, colon);
      const title = colon < 0 ? '' : r.label.slice(colon + 1).trim();
      const head = `${r.status.toUpperCase().padEnd(5)} ${id.padEnd(width)}  ${title}\n`;
      return head + r.why.map((w) => `      ${w}\n`).join('');
    })
    .join('');
}

export async function gradeLive(argv: readonly string[], io: CliIO): Promise<number> {
  const args = parseLabArgs(argv, ['--kubeconfig']);
  if (typeof args === 'string') {
    if (args) io.err(`packetpath grade: ${args}\n`);
    io.err(USAGE);
    return args ? 2 : 0;
  }
  const kubeconfig = args.flags.get('--kubeconfig')!;
  if (args.positional.length !== 1) {
    io.err(`packetpath grade: give one lab with --kubeconfig (the cluster is the report)\n${USAGE}`);
    return 2;
  }
  const config = resolve(io.cwd, kubeconfig);
  if (!existsSync(config)) {
    io.err(`packetpath grade: cannot read kubeconfig ${kubeconfig}: no such file or directory\n`);
    return 2;
  }
  const dir = mkdtempSync(join(tmpdir(), 'packetpath-live-'));
  try {
    let loaded: LoadedLab;
    try {
      loaded = loadLabFor(args, args.positional[0]!, io.cwd);
      // No kind config: grading needs only the checks, so a k3s lab grades a k3s cluster.
      writeChecks(loaded, dir, args.locale);
    } catch (e) {
      io.err(`packetpath grade: ${(e as Error).message}\n`);
      return 2;
    }
    const run = await runBash(join(dir, 'verify.sh'), dir, { ...process.env, KUBECONFIG: config });
    const results = parseTap(run.stdout);
    if (run.code === 2 || results.length === 0) {
      io.err(`packetpath grade: ${run.stderr.trim() || 'verify.sh printed no results'}\n`);
      return 1;
    }
    const { lab } = loaded;
    io.out(`Lab ${lab.id} (version ${lab.version}) on the cluster of ${kubeconfig}\n`);
    io.out(table(results));
    const ran = results.filter((r) => r.status !== 'skip');
    const passed = ran.filter((r) => r.status === 'pass').length;
    const skipped = results.length - ran.length;
    io.out(
      `${passed}/${ran.length} checks passed` +
        (skipped ? `; ${skipped} skipped (graded in the course only)` : '') +
        '\n',
    );
    return passed === ran.length ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
