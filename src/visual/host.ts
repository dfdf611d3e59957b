/**
 * Host side of the network views: what a host (the worker, the Node CLI, a test) computes from its
 * live cluster and sends to the page as plain data. This is the only file of `src/visual` that calls
 * the engine; components never import it (they receive `NetworkState` and `TraceResult` as messages).
 */
import type { Cluster } from '../engine/index.ts';
import { cniDataplane, reachabilityMatrix, type MatrixCell } from '../engine/dataplane/network/index.ts';
import { traceConnection, type TraceResult } from '../engine/dataplane/trace/index.ts';
import type { Source } from '../engine/dataplane/network/index.ts';
import { topologyModel } from './topology/model.ts';
import type { TopologyModel } from './topology/types.ts';

export interface NetworkState {
  readonly topology: TopologyModel;
  readonly matrix: readonly MatrixCell[];
  /** The store revision it was computed at: the page redraws only when it changes. */
  readonly revision: number;
}

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

/** A trace for the walk: `to` is a name or an IP; TCP with a port (curl for 80/8080-style HTTP), else ping. */
export function networkTrace(
  cluster: Cluster,
  from: Source,
  to: string,
  port?: number,
): TraceResult | { readonly error: string } {
  const argv = port === undefined ? ['ping', '-c', '1', to] : ['nc', '-z', '-w', '2', to, String(port)];
  return traceConnection(cluster, { from, argv });
}
