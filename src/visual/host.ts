/**
 * Host side of the network views: what a host (the worker, the Node CLI, a test) computes from its
 * live cluster and sends to the page as plain data. This is the only file of `src/visual` that calls
 * the engine; components never import it (they receive `NetworkState` and `TraceResult` as messages).
 */
import {
  restoreCluster,
  type ClusterHandle,
  type ClusterView,
  type ConnectResult,
  type Pod,
  type ProbeResult,
  type Service,
} from '../engine/index.ts';
import { MAX_MATRIX_PODS } from './matrix/limits.ts';
import type { NetworkState, NetworkTraceRequest, NetworkTraceResult, ServiceMatrixCell } from './state.ts';
import { topologyModel } from './topology/model.ts';

export type { NetworkState, NetworkTraceRequest, NetworkTraceResult, ServiceMatrixCell };

/** Pods of the matrix: application pods (system namespaces would swamp a lab-size grid). */
const SYSTEM = /^(kube-|calico-|tigera-|local-path-|metallb-)/;

const keyOf = (o: { metadata: { namespace?: string; name: string } }) =>
  `${o.metadata.namespace ?? 'default'}/${o.metadata.name}`;

export function networkState(cluster: ClusterHandle): NetworkState {
  const snapshot = cluster.snapshot();
  const view = cluster.view();
  const dp = view.dataplane();
  const topology = topologyModel(snapshot, {
    dataplane: {
      encapsulation: dp.encapsulation,
      ...(dp.udpPort !== undefined ? { udpPort: dp.udpPort } : {}),
      ...(dp.tunnelDevice ? { tunnelDevice: dp.tunnelDevice } : {}),
      nodeMtu: dp.nodeMtu,
      podMtu: dp.podMtu,
    },
  });
  const pods = view.list('pods').filter((p) => !SYSTEM.test(p.metadata.namespace ?? 'default'));
  const svc = serviceMatrix(cluster, pods);
  return {
    topology,
    matrix: view.reachabilityMatrix(pods),
    services: svc.cells,
    ...(svc.tooLarge ? { servicesTooLarge: svc.tooLarge } : {}),
    revision: snapshot.store.resourceVersion,
  };
}

/**
 * The Service ports of the Services mode: every ClusterIP Service port of the application namespaces, and
 * the cluster DNS Service (an egress policy that forgets port 53 is the classic over-strict mistake).
 * `default/kubernetes` stays out, as on the diagram.
 */
function matrixServices(
  view: ClusterView,
): { service: Service; port: number; protocol: 'TCP' | 'UDP'; name?: string }[] {
  const dnsIP = view.config.dnsIP;
  return view
    .list('services')
    .filter((s) => {
      const ip = s.spec?.clusterIP;
      if (!ip || ip === 'None' || s.spec?.type === 'ExternalName') return false;
      if (keyOf(s) === 'default/kubernetes') return false;
      const ns = s.metadata.namespace ?? 'default';
      return !SYSTEM.test(ns) || (ns === 'kube-system' && ip === dnsIP);
    })
    .sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0))
    .flatMap((service) =>
      (service.spec?.ports ?? [])
        .filter((p) => p.protocol === undefined || p.protocol === 'TCP' || p.protocol === 'UDP')
        .map((p) => ({
          service,
          port: p.port,
          protocol: (p.protocol ?? 'TCP') as 'TCP' | 'UDP',
          ...(p.name ? { name: p.name } : {}),
        })),
    );
}

/**
 * Pod × Service port: one `probe()` per cell, the dataplane's own connection to ClusterIP:port (kube-proxy's
 * rules on the source node pick an endpoint, then the policies and the endpoint's listener decide). A real
 * probe leaves conntrack entries and IPVS counters behind, so the probes run on a copy of the cluster: the
 * learner's `conntrack -L` shows only what the learner did. Same state and request, same verdict: a cell
 * click replays the cell's probe (`probe: true`).
 */
export function serviceMatrix(
  cluster: ClusterHandle,
  pods: readonly Pod[],
): { cells: ServiceMatrixCell[]; tooLarge?: { pods: number; ports: number } } {
  const sources = pods.filter(
    (p) => p.status?.phase === 'Running' && p.status.podIP && !p.spec?.hostNetwork && p.spec?.nodeName,
  );
  const ports = matrixServices(cluster.view());
  if (sources.length === 0 || ports.length === 0) return { cells: [] };
  if (sources.length > MAX_MATRIX_PODS)
    return { cells: [], tooLarge: { pods: sources.length, ports: ports.length } };
  const copy = restoreCluster(cluster.snapshot()).view();
  const cells: ServiceMatrixCell[] = [];
  for (const src of sources)
    for (const sp of ports) {
      const clusterIP = sp.service.spec!.clusterIP!;
      const r = copy.probe({
        fromPod: { namespace: src.metadata.namespace ?? 'default', name: src.metadata.name },
        to: clusterIP,
        port: sp.port,
        protocol: sp.protocol,
      });
      cells.push({
        from: keyOf(src),
        service: keyOf(sp.service),
        clusterIP,
        port: sp.port,
        protocol: sp.protocol,
        ...(sp.name ? { portName: sp.name } : {}),
        verdict: r.verdict,
        ...why(r),
      });
    }
  return { cells };
}

/** The reason a probe got its verdict, from its hops (the policy side of a pass, the deciding hop of a failure). */
function why(r: ProbeResult): Pick<ServiceMatrixCell, 'reason' | 'direction' | 'backend'> {
  const c: ConnectResult = r.connection;
  // The endpoint kube-proxy picked (the Service hop knows it even when the packet never arrives), else
  // whoever answered.
  const svc = c.hops.find((h) => h.kind === 'service');
  const b = c.backend;
  const address =
    svc?.kind === 'service'
      ? svc.endpoint
      : b
        ? `${b.ip}${b.port !== undefined ? `:${b.port}` : ''}`
        : undefined;
  const pod = svc?.kind === 'service' && svc.endpointPod ? svc.endpointPod : b?.pod;
  const backend = address
    ? {
        backend: {
          address,
          ...(pod ? { pod: `${pod.namespace}/${pod.name}` } : {}),
          ...(!pod && b?.node ? { node: b.node } : {}),
        },
      }
    : {};
  const policies = c.hops.flatMap((h) => (h.kind === 'network-policy' ? [h] : []));
  if (r.verdict === 'allowed') {
    const reason = policies.some((h) => h.verdict === 'not-enforced')
      ? 'not-enforced'
      : policies.some((h) => h.verdict === 'allowed')
        ? 'allowed-by-rule'
        : 'not-isolated';
    return { reason, ...backend };
  }
  const d = r.decidingHop;
  switch (d?.kind) {
    case 'network-policy':
      return { reason: 'no-rule-allowed', direction: d.direction, ...backend };
    case 'no-endpoints':
      return { reason: 'no-endpoints' };
    case 'no-listener':
      return { reason: 'no-listener', ...backend };
    case 'no-route':
      return { reason: 'no-route' };
    default:
      if (c.hops.some((h) => h.kind === 'no-endpoints')) return { reason: 'no-endpoints' };
      return { reason: 'dropped', ...backend };
  }
}

/**
 * A trace for the walk: `nc` to a port (`-u` for UDP), `ping` without one; a matrix cell's probe replayed;
 * or a terminal `trace …` line, run again with `-o json` (the structured result the command prints).
 */
export function networkTrace(cluster: ClusterHandle, req: NetworkTraceRequest): NetworkTraceResult {
  const view = cluster.view();
  if ('command' in req) {
    const m = /^\s*trace\s+(.*)$/s.exec(req.command);
    if (!m || /[|;&<>`$]/.test(m[1]!))
      return { error: 'only a plain `trace SOURCE -- COMMAND` line can be drawn' };
    const r = view.traceCommand(`-o json ${m[1]}`);
    if (!r.stdout.trim()) return { error: r.stderr.trim() || 'trace printed nothing' };
    try {
      return JSON.parse(r.stdout) as NetworkTraceResult;
    } catch {
      return { error: r.stderr.trim() || 'trace printed no JSON' };
    }
  }
  const udp = req.protocol === 'UDP';
  const argv =
    req.port === undefined
      ? ['ping', '-c', '1', req.to]
      : ['nc', ...(udp ? ['-u'] : []), '-z', '-w', '2', req.to, String(req.port)];
  if (req.probe && req.port !== undefined && req.from.kind === 'pod') {
    const r = view.probe({
      fromPod: { namespace: req.from.namespace, name: req.from.name },
      to: req.to,
      port: req.port,
      protocol: udp ? 'UDP' : 'TCP',
    });
    const c = r.connection;
    return {
      program: 'nc',
      argv,
      from: req.from,
      target: { host: req.to, port: req.port, protocol: udp ? 'UDP' : 'TCP' },
      outcome: c.outcome,
      hops: c.hops,
      ...(c.decidingHop ? { decidingHop: c.decidingHop } : {}),
      connection: c,
      summary: c.outcome,
    };
  }
  return view.trace({ from: req.from, argv });
}
