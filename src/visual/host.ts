/**
 * Host side of the network views: what a host (the worker, the Node CLI, a test) computes from its
 * live cluster and sends to the page as plain data. This is the only file of `src/visual` that calls
 * the engine; components never import it (they receive `NetworkState` and `TraceResult` as messages).
 */
import type { Cluster } from '../engine/index.ts';
import { cniDataplane, reachabilityMatrix } from '../engine/dataplane/network/index.ts';
import { traceConnection } from '../engine/dataplane/trace/index.ts';
import type { NetworkState, NetworkTraceRequest, NetworkTraceResult } from './state.ts';
import { topologyModel } from './topology/model.ts';

export type { NetworkState, NetworkTraceRequest, NetworkTraceResult };

/** Pods of the matrix: application pods (system namespaces would swamp a lab-size grid). */
const SYSTEM = /^(kube-|calico-|tigera-|local-path-|metallb-)/;

export function networkState(cluster: Cluster): NetworkState {
  const snapshot = cluster.snapshot();
  const dp = cniDataplane(cluster);
  const topology = topologyModel(snapshot, {
    dataplane: {
      encapsulation: dp.encapsulation,
      ...(dp.udpPort !== undefined ? { udpPort: dp.udpPort } : {}),
      ...(dp.tunnelDevice ? { tunnelDevice: dp.tunnelDevice } : {}),
      nodeMtu: dp.nodeMtu,
      podMtu: dp.podMtu,
    },
  });
  const pods = cluster.store.list('pods').filter((p) => !SYSTEM.test(p.metadata.namespace ?? 'default'));
  return { topology, matrix: reachabilityMatrix(cluster, pods), revision: snapshot.store.resourceVersion };
}

/**
 * A trace for the walk: `nc` to a port (`-u` for UDP), `ping` without one; or a terminal `trace …`
 * line, run again with `-o json` (the structured result the command prints).
 */
export function networkTrace(cluster: Cluster, req: NetworkTraceRequest): NetworkTraceResult {
  if ('command' in req) {
    const m = /^\s*trace\s+(.*)$/s.exec(req.command);
    if (!m || /[|;&<>`$]/.test(m[1]!))
      return { error: 'only a plain `trace SOURCE -- COMMAND` line can be drawn' };
    const r = cluster.shell.run(`trace -o json ${m[1]}`, { interactive: false });
    if (!r.stdout.trim()) return { error: r.stderr.trim() || 'trace printed nothing' };
    try {
      return JSON.parse(r.stdout) as NetworkTraceResult;
    } catch {
      return { error: r.stderr.trim() || 'trace printed no JSON' };
    }
  }
  const argv =
    req.port === undefined
      ? ['ping', '-c', '1', req.to]
      : ['nc', ...(req.protocol === 'UDP' ? ['-u'] : []), '-z', '-w', '2', req.to, String(req.port)];
  return traceConnection(cluster, { from: req.from, argv });
}
