/**
 * `packetpath export` and `packetpath grade --kubeconfig` against the closest thing to a real
 * cluster this machine has: `packetpath serve` (frozen clock) driven by the real kubectl v1.35.
 * For each lab: export it, create the served cluster from the exported kind.yaml, run setup.sh,
 * and verify.sh must fail where the course's grader fails the start state; after the lab's solution
 * (its files copied in, its kubectl lines run by the real kubectl) verify.sh and grade --kubeconfig
 * must pass every check that ran, and the checks they skip are only those no cluster can answer.
 */
import { describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createCluster, parseClusterConfig, type ClusterConfig } from '../../../src/engine/index.ts';
import { runExport } from '../../../src/runtime/node-cli/live/export.ts';
import { parseTap, type LiveResult } from '../../../src/runtime/node-cli/live/grade-live.ts';
import { portableLine } from '../../../src/runtime/node-cli/live/verify-script.ts';
import { loadLabFromDir } from '../../../src/grader/node/load-lab.ts';
import { startDifferential } from './harness.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const NODE = existsSync(join(ROOT, 'node_modules/.bin/node'))
  ? join(ROOT, 'node_modules/.bin/node')
  : process.execPath;
const BIN = join(ROOT, 'bin/packetpath.mjs');

function exportLab(id: string): { dir: string; out: string; err: string; code: number } {
  const dir = join(mkdtempSync(join(tmpdir(), 'packetpath-export-')), id);
  let out = '';
  let err = '';
  const code = runExport([id, dir], {
    cwd: ROOT,
    out: (t) => void (out += t),
    err: (t) => void (err += t),
  });
  return { dir, out, err, code };
}

const byStatus = (results: readonly LiveResult[], status: LiveResult['status']): string[] =>
  results.filter((r) => r.status === status).map((r) => r.label.split(':')[0]!);

/** Exports a lab, serves its kind.yaml, runs setup.sh; returns what verify.sh says before and after the solution. */
async function roundTrip(id: string) {
  const exported = exportLab(id);
  expect(exported.err).toBe('');
  expect(exported.code).toBe(0);
  const { dir } = exported;
  const loaded = loadLabFromDir(join(ROOT, 'labs', id));
  // kind.yaml turns kindnet off for the lab's CNI, installed by hand on kind (README step 2); the
  // simulator installs that CNI itself, so the served cluster is the lab's own definition. kind.yaml
  // must describe the same nodes, subnets and proxy mode.
  const lab = loaded.lab.cluster ? parseClusterConfig(loaded.lab.cluster) : undefined;
  const kind = parseClusterConfig(readFileSync(join(dir, 'kind.yaml'), 'utf8'));
  expect(kind.disableDefaultCNI).toBe(true);
  const shape = (c: ClusterConfig) => ({
    nodes: c.nodes.map((n) => [n.name, n.role]),
    podSubnet: c.podSubnet,
    serviceSubnet: c.serviceSubnet,
    kubeProxyMode: c.kubeProxyMode,
  });
  const cluster = createCluster(lab, { seed: loaded.lab.seed });
  expect(shape(kind)).toEqual(shape(cluster.config));
  const d = await startDifferential(cluster);
  try {
    const setup = await d.real(`cd ${dir} && bash setup.sh`);
    expect(setup.stderr, setup.stdout + setup.stderr).not.toMatch(/error/i);
    expect(setup.exitCode).toBe(0);
    const before = await d.real(`cd ${dir} && bash verify.sh`);
    cpSync(join(ROOT, 'labs', id, 'solution'), dir, { recursive: true });
    for (const line of loaded.lab.solution?.commands ?? []) {
      if (!portableLine(line)) continue;
      const r = await d.real(`cd ${dir} && ${line}`);
      expect(r.exitCode, `${line}\n${r.stdout}${r.stderr}`).toBe(0);
    }
    const after = await d.real(`cd ${dir} && bash verify.sh`);
    const graded = await d.real(`${NODE} ${BIN} grade --kubeconfig ${d.kubeconfig} ${id}`);
    return { before, after, graded, dir };
  } finally {
    await d.close();
  }
}

describe(
  'packetpath export and grade --kubeconfig, with the real kubectl v1.35 against serve',
  { timeout: 300_000 },
  () => {
    it('04-empty-endpoints: the empty Service fails, the fixed selector passes, grade agrees', async () => {
      const { before, after, graded } = await roundTrip('04-empty-endpoints');
      const start = parseTap(before.stdout);
      expect(before.exitCode, before.stdout + before.stderr).toBe(1);
      expect(byStatus(start, 'fail')).toEqual([
        'api-endpoints',
        'web-reaches-api',
        'selector-fixed',
        'only-api-pods',
        'two-api-endpoints',
      ]);
      expect(byStatus(start, 'pass')).toEqual(['pods-untouched']);
      // What the learner reads: the expectation and the observation, from kubectl's own answers.
      expect(before.stdout).toContain('expected 2 to any ready endpoints for shop/api, found 0');
      expect(before.stdout).toMatch(/seen: refused \(curl exit 7\)/);
      expect(before.stdout).toContain('expected {.spec.selector.app} = api, got: api-server');

      const end = parseTap(after.stdout);
      expect(after.exitCode, after.stdout + after.stderr).toBe(0);
      expect(byStatus(end, 'fail')).toEqual([]);
      expect(byStatus(end, 'skip')).toEqual(['looked-at-slices', 'quiz-refused']);
      expect(byStatus(end, 'pass')).toHaveLength(6);

      expect(graded.stderr).toBe('');
      expect(graded.exitCode).toBe(0);
      expect(graded.stdout).toMatch(/^PASS +api-endpoints +The `api` Service has 2 ready endpoints$/m);
      expect(graded.stdout).toMatch(/^SKIP +quiz-refused /m);
      expect(graded.stdout).toContain('6/6 checks passed; 2 skipped (graded in the course only)');
    });

    it('09-default-deny: NetworkPolicies block, allow and keep DNS, seen through kubectl exec', async () => {
      const { before, after } = await roundTrip('09-default-deny');
      const start = parseTap(before.stdout);
      expect(before.exitCode).toBe(1);
      expect(byStatus(start, 'fail')).toContain('batch-blocked');
      const end = parseTap(after.stdout);
      expect(byStatus(end, 'fail'), after.stdout).toEqual([]);
      expect(after.exitCode).toBe(0);
      expect(byStatus(end, 'pass')).toEqual(
        expect.arrayContaining(['web-resolves-api', 'web-reaches-api', 'batch-blocked', 'web-no-internet']),
      );
    });

    it('08-ndots: DNS answers through getent in the pod; the query count is left to the course', async () => {
      const { before, after } = await roundTrip('08-ndots');
      expect(before.exitCode).toBe(1);
      expect(after.exitCode, after.stdout).toBe(0);
      expect(after.stdout).toContain('# not checked here: at most 2 queries: only the simulator counts them');
    });

    it('refuses what kind cannot run, an existing folder, and bad flags, in the tool style', () => {
      const k3s = exportLab('13-ingress');
      expect(k3s.code).toBe(1);
      expect(k3s.err).toMatch(/^packetpath export: lab 13-ingress simulates k3s/);
      expect(existsSync(k3s.dir)).toBe(false);
      const twice = mkdtempSync(join(tmpdir(), 'packetpath-export-'));
      cpSync(join(ROOT, 'labs/04-empty-endpoints/lab.yaml'), join(twice, 'x'));
      let err = '';
      const io = { cwd: ROOT, out: () => undefined, err: (t: string) => void (err += t) };
      expect(runExport(['04-empty-endpoints', twice], io)).toBe(1);
      expect(err).toContain('exists and is not an empty folder');
      err = '';
      expect(runExport(['04-empty-endpoints', join(twice, 'y'), '--seed', 'x'], io)).toBe(2);
      expect(err).toMatch(/^packetpath export: --seed must be a whole number/);
      err = '';
      expect(runExport(['no-such-lab', join(twice, 'z')], io)).toBe(2);
      expect(err).toMatch(/^packetpath export: .*lab\.yaml: no such file/);
    });
  },
);
