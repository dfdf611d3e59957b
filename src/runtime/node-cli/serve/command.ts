/**
 * `packetpath serve`: the simulated cluster as a Kubernetes API server on 127.0.0.1, so a real kubectl
 * (or any client) drives it. Writes a kubeconfig for it, prints where it listens, and runs until
 * SIGINT/SIGTERM or until the process that started it goes away.
 */
import { writeFileSync } from 'node:fs';
import type { LabFiles, ServedCluster } from '../../../engine/index.ts';
import { ClusterHost, type ClockMode } from './cluster-host.ts';
import { createPki, kubeconfigYaml } from './pki.ts';
import { startServer } from './server.ts';

export interface ServeCommandOptions {
  readonly port: number;
  readonly kubeconfig: string;
  readonly stateFile: string | undefined;
  readonly clock: ClockMode;
  readonly files?: LabFiles;
  readonly out: (text: string) => void;
}

/** How often the server checks that its parent is still there. */
const PARENT_POLL_MS = 1000;

export async function serveCluster(cluster: ServedCluster, opts: ServeCommandOptions): Promise<number> {
  const pki = await createPki();
  const host = new ClusterHost(cluster, {
    clock: opts.clock,
    ...(opts.stateFile ? { stateFile: opts.stateFile } : {}),
    ...(opts.files ? { files: opts.files } : {}),
  });
  const running = await startServer({ host, pki, port: opts.port, clock: opts.clock });
  writeFileSync(opts.kubeconfig, kubeconfigYaml(pki, running.url), { mode: 0o600 });
  opts.out(
    `Serving the simulated cluster's Kubernetes API at ${running.url}\n` +
      `Kubeconfig written to ${opts.kubeconfig}: run  kubectl --kubeconfig ${opts.kubeconfig} get pods -A\n` +
      `Press Ctrl+C to stop.\n`,
  );
  const parent = process.ppid;
  return new Promise((resolve) => {
    const stop = () => {
      clearInterval(poll);
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void running.close().then(() => resolve(0));
    };
    const poll = setInterval(() => {
      if (process.ppid !== parent) stop();
    }, PARENT_POLL_MS);
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
