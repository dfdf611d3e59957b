/**
 * The differential test: every line of test/serve/lines.ts runs through the real kubectl v1.35
 * against `packetpath serve` and through our kubectl in the simulator's shell, from the same
 * cluster state and clock (harness.ts). stdout, stderr and the exit code must be identical, except
 * for the documented exceptions below, each with its upstream reason.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../../src/engine/index.ts';
import { loadLabFromDir } from '../../../src/grader/node/load-lab.ts';
import { startLab } from '../../../src/grader/index.ts';
import { startDifferential, type Differential, type LineResult } from './harness.ts';
import { BASE_LINES, EXEC_LINES, LOG_LINES, WEB_YAML, chapterLines, labLines, simpleLabs } from './lines.ts';
import { join } from 'node:path';

/**
 * `kubectl describe` computes the ages of events and of a node's pods from the client's own clock
 * (describe.go `translateTimestampSince` calls time.Now()), while the simulated cluster's clock
 * starts at 2026-01-01: those sections cannot agree, so they are left out of the comparison. The
 * node's Lease section is left out too: serve does not serve coordination.k8s.io Leases (our
 * kubectl reads the kubelet's lease from the engine), so the real kubectl prints
 * "Failed to get lease". Everything else in describe's output is compared.
 */
function comparable(line: string, r: LineResult): LineResult {
  if (!/\bdescribe\b/.test(line)) return r;
  const out: string[] = [];
  let skipping = false;
  for (const l of r.stdout.split('\n')) {
    if (/^(Events|Non-terminated Pods):/.test(l) || /^Lease:/.test(l)) {
      skipping = true;
      continue;
    }
    if (skipping && /^\S/.test(l)) skipping = false;
    if (!skipping) out.push(l);
  }
  return { ...r, stdout: out.join('\n') };
}

const results: { scenario: string; line: string; pass: boolean }[] = [];

async function runScenario(name: string, cluster: Cluster, lines: readonly string[]) {
  const d: Differential = await startDifferential(cluster);
  try {
    const failures: string[] = [];
    for (const line of lines) {
      const { real, ours } = await d.both(cluster, line);
      // `cluster-info` prints the server's URL: the same only when serve got kind's port 6443.
      if (/^kubectl cluster-info$/.test(line) && d.server.port !== 6443) continue;
      const a = comparable(line, real);
      const b = comparable(line, ours);
      const pass = a.stdout === b.stdout && a.stderr === b.stderr && a.exitCode === b.exitCode;
      results.push({ scenario: name, line, pass });
      if (!pass)
        failures.push(
          `${line}\n--- real (exit ${a.exitCode})\n${a.stdout}${a.stderr}--- ours (exit ${b.exitCode})\n${b.stdout}${b.stderr}`,
        );
    }
    expect(failures, failures.join('\n\n')).toEqual([]);
  } finally {
    await d.close();
  }
}

describe('our kubectl against the real kubectl v1.35 on the same cluster', { timeout: 600_000 }, () => {
  afterAll(() => {
    const passed = results.filter((r) => r.pass).length;
    console.log(`differential: ${passed}/${results.length} lines identical`);
  });

  it('base scenario: get (-o wide, yaml, json, jsonpath, custom-columns, name, -l, --field-selector, -A), describe, apply, create, expose, scale, label, annotate, patch, set image, rollout, delete', async () => {
    const cluster = createCluster(undefined, { seed: 1, files: { 'web.yaml': WEB_YAML } });
    await runScenario('base', cluster, [...BASE_LINES, ...LOG_LINES, ...EXEC_LINES]);
  });

  it("chapters: every kubectl line of the chapters' code blocks, on a cluster running web", async () => {
    const cluster = createCluster(undefined, { seed: 1, files: { 'web.yaml': WEB_YAML } });
    const setup = ['kubectl apply -f web.yaml', 'kubectl expose deployment web --port=80'];
    await runScenario('chapters', cluster, [...setup, ...chapterLines()]);
  });

  // Lab clusters where the chapters' lines find their objects (shop's policies, an Ingress controller).
  for (const id of ['09-default-deny', '13-ingress']) {
    it(`chapters on lab ${id}'s cluster`, async () => {
      const cluster = startLab(loadLabFromDir(join(import.meta.dirname, '../../../labs', id)));
      await runScenario(`chapters-${id}`, cluster, chapterLines());
    });
  }

  for (const id of simpleLabs()) {
    it(`lab ${id}: every kubectl line the lab holds`, async () => {
      const cluster = startLab(loadLabFromDir(join(import.meta.dirname, '../../../labs', id)));
      await runScenario(id, cluster, labLines(id));
    });
  }
});
