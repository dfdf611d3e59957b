/**
 * Reachability for the grader and the NetworkPolicy matrix.
 *
 * `probe()` is one real connection (connect.ts) from a pod, with its own RNG stream so the learner's
 * cluster draws the same names and backends afterwards. It leaves what a real probe leaves and nothing
 * else: a conntrack entry on the source node (TIME_WAIT after the close), IPVS connection counters,
 * and — for a name — the DNS queries in CoreDNS's cache and `log` lines. It never writes an API object.
 *
 * `reachabilityMatrix()` answers pod × pod on each destination pod's listening ports directly from the
 * compiled policies and the listening sockets (pod-IP traffic meets no kube-proxy rule), so a 100 × 100
 * matrix with 50 policies stays well inside the 500 ms budget; it has no side effects at all.
 */
import type { Pod } from '../../api/objects.ts';
import type { DataplaneHost } from './view.ts';
import { Rng } from '../../util/rng.ts';
import { listeningSockets } from '../../node/container-runtime.ts';
import { evaluate, type RuleRef } from '../policy/evaluate.ts';
import { policyEnforcement } from '../policy/enforcement.ts';
import { connect } from './connect.ts';
import { currentPolicyIndex, podEndpoint } from './policy-hops.ts';
import type { ConnectResult, Hop, PodRef } from './types.ts';
import { isRunning } from './view.ts';

export type ProbeVerdict = 'allowed' | 'blocked' | 'refused';

export interface ProbeRequest {
  readonly fromPod: PodRef;
  /** IP address, Service name, or any name the pod's resolver resolves. */
  readonly to: string;
  readonly port: number;
  readonly protocol?: 'TCP' | 'UDP';
  /** An HTTP path: the answer's status comes back in `status`. */
  readonly path?: string;
}

export interface ProbeResult {
  readonly verdict: ProbeVerdict;
  readonly decidingHop?: Hop;
  readonly connection: ConnectResult;
  readonly status?: number;
}

/**
 * The probe's own RNG stream, derived from the cluster clock and the request: the same state and
 * request always give the same verdict (grades must be reproducible), and the learner's stream is
 * left untouched.
 */
function probeRng(cluster: DataplaneHost, req: ProbeRequest): Rng {
  return new Rng(
    `probe:${cluster.clock.now()}:${req.fromPod.namespace}/${req.fromPod.name}:${req.to}:${req.port}`,
  );
}

export function verdictOf(r: ConnectResult): ProbeVerdict {
  if (r.outcome === 'connected') return 'allowed';
  if (r.outcome === 'refused') return 'refused';
  return 'blocked';
}

export function probe(cluster: DataplaneHost, req: ProbeRequest): ProbeResult {
  const host = req.to;
  const connection = connect(
    {
      from: { kind: 'pod', namespace: req.fromPod.namespace, name: req.fromPod.name },
      to: host,
      port: req.port,
      protocol: req.protocol ?? 'TCP',
      ...(req.path !== undefined
        ? {
            payload: {
              http: {
                method: 'GET',
                path: req.path,
                host,
                headers: [
                  ['Host', host],
                  ['User-Agent', 'probe'],
                ],
              },
            },
          }
        : {}),
    },
    cluster,
    probeRng(cluster, req),
  );
  return {
    verdict: verdictOf(connection),
    ...(connection.decidingHop ? { decidingHop: connection.decidingHop } : {}),
    connection,
    ...(connection.response?.status !== undefined ? { status: connection.response.status } : {}),
  };
}

export interface MatrixCell {
  readonly from: PodRef;
  readonly to: PodRef;
  readonly port: number;
  readonly protocol: 'TCP' | 'UDP';
  readonly verdict: ProbeVerdict;
  /** The policy that allowed it, or the isolated side that blocked it. */
  readonly reason:
    | 'not-isolated'
    | 'allowed-by-rule'
    | 'no-rule-allowed'
    | 'not-enforced'
    | 'no-listener'
    | 'from-local-node'
    | 'not-a-pod';
  readonly direction?: 'Egress' | 'Ingress';
  /**
   * Each end on its own: whether the source's egress lets the connection out and whether the
   * destination's ingress lets it in, and the rule that allowed it (where nothing enforces policies, what
   * they would allow as written). A grader comparing who a
   * pod admits needs the ingress side even when the source's own egress is closed.
   */
  readonly sides?: { readonly egress: SideVerdict; readonly ingress: SideVerdict };
}

export interface SideVerdict {
  readonly allowed: boolean;
  /** The pod is selected by a policy of this direction. */
  readonly isolated: boolean;
  readonly allowedBy?: RuleRef;
}

function sideOf(v: { allowed: boolean; isolated: boolean; allowedBy?: RuleRef }): SideVerdict {
  return { allowed: v.allowed, isolated: v.isolated, ...(v.allowedBy ? { allowedBy: v.allowedBy } : {}) };
}

/**
 * Every pod of `pods` to every other on each TCP/UDP port the destination really listens on (the
 * NetworkPolicy e2e suite's probe grid, loopback excluded as the suite's `ignoreLoopback` does).
 */
export function reachabilityMatrix(cluster: DataplaneHost, pods?: readonly Pod[]): MatrixCell[] {
  const list = (pods ?? cluster.store.list('pods')).filter(
    (p) => isRunning(p) && p.status?.podIP && !p.spec?.hostNetwork,
  );
  const idx = currentPolicyIndex(cluster);
  const enforced = policyEnforcement(cluster.config).enforced;
  const now = cluster.clock.now();
  const nodeIPs = new Map(
    cluster.store
      .list('nodes')
      .map((n) => [
        n.metadata.name,
        n.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '',
      ]),
  );
  const endpoints = list.map((p) => podEndpoint(p, nodeIPs.get(p.spec?.nodeName ?? '')));
  const sockets = list.map((p) => listeningSockets(p, now).filter((s) => s.address === '0.0.0.0'));
  const ipBlocks = [...idx.byNamespace.values()].some((ps) =>
    ps.some((p) =>
      [...(p.ingress ?? []), ...(p.egress ?? [])].some((r) => r.peers.some((peer) => peer.ipBlock)),
    ),
  );
  const identity = endpoints.map(
    (e) =>
      `${e.namespace}|${JSON.stringify(Object.entries(e.labels).sort())}|${JSON.stringify(e.ports ?? [])}|${e.node ?? ''}${ipBlocks ? `|${e.ip}` : ''}`,
  );
  const memo = new Map<string, ReturnType<typeof evaluate>>();
  const cells: MatrixCell[] = [];
  list.forEach((src, i) => {
    list.forEach((dst, j) => {
      if (i === j) return;
      const ref = (p: Pod) => ({ namespace: p.metadata.namespace ?? 'default', name: p.metadata.name });
      for (const s of sockets[j]!) {
        const base = { from: ref(src), to: ref(dst), port: s.port, protocol: s.protocol };
        // Pods of one workload share labels: their verdicts are the same unless an ipBlock names addresses.
        const key = `${identity[i]}>${identity[j]}>${s.port}/${s.protocol}`;
        let e = memo.get(key);
        if (!e) {
          e = evaluate({ src: endpoints[i]!, dst: endpoints[j]!, port: s.port, protocol: s.protocol }, idx);
          memo.set(key, e);
        }
        const sides = { egress: sideOf(e.egress), ingress: sideOf(e.ingress) };
        // Nothing enforces the policies: the connection passes, and `sides` says what they would allow.
        if (!enforced) {
          cells.push({ ...base, verdict: 'allowed', reason: 'not-enforced', sides });
          continue;
        }
        if (!e.egress.allowed)
          cells.push({ ...base, verdict: 'blocked', reason: 'no-rule-allowed', direction: 'Egress', sides });
        else if (!e.ingress.allowed)
          cells.push({ ...base, verdict: 'blocked', reason: 'no-rule-allowed', direction: 'Ingress', sides });
        else
          cells.push({
            ...base,
            sides,
            verdict: 'allowed',
            reason:
              e.ingress.reason === 'not-isolated' && e.egress.reason === 'not-isolated'
                ? 'not-isolated'
                : 'allowed-by-rule',
          });
      }
    });
  });
  return cells;
}

/** The grader's hop vocabulary (src/grader/probes.ts `Hop`), mapped from the deciding hop. */
export type GraderHop =
  | {
      readonly kind: 'network-policy';
      readonly namespace: string;
      readonly name: string;
      readonly direction: 'Ingress' | 'Egress';
    }
  | {
      readonly kind: 'policy-isolation';
      readonly namespace: string;
      readonly pod: string;
      readonly direction: 'Ingress' | 'Egress';
    }
  | { readonly kind: 'netfilter'; readonly table: string; readonly chain: string; readonly verdict: string }
  | { readonly kind: 'no-endpoints'; readonly namespace: string; readonly service: string }
  | {
      readonly kind: 'no-listener';
      readonly namespace: string;
      readonly pod: string;
      readonly ip: string;
      readonly port: number;
    }
  | { readonly kind: 'no-route'; readonly ip: string }
  | {
      readonly kind: 'delivered';
      readonly namespace: string;
      readonly pod: string;
      readonly ip: string;
      readonly port: number;
    }
  | { readonly kind: 'external'; readonly ip: string; readonly port: number };

export function graderHop(h: Hop | undefined, hops: readonly Hop[] = []): GraderHop | undefined {
  if (!h) return undefined;
  switch (h.kind) {
    case 'network-policy':
      if (h.verdict === 'blocked')
        return {
          kind: 'policy-isolation',
          namespace: h.pod.namespace,
          pod: h.pod.name,
          direction: h.direction,
        };
      if (h.allowedBy)
        return {
          kind: 'network-policy',
          namespace: h.allowedBy.namespace,
          name: h.allowedBy.name,
          direction: h.direction,
        };
      return undefined;
    case 'netfilter': {
      const noEndpoints = hops.find((x) => x.kind === 'no-endpoints');
      if (noEndpoints && noEndpoints.kind === 'no-endpoints')
        return {
          kind: 'no-endpoints',
          namespace: noEndpoints.service.namespace,
          service: noEndpoints.service.name,
        };
      return { kind: 'netfilter', table: h.table, chain: h.chain, verdict: h.verdict };
    }
    case 'no-listener':
      return {
        kind: 'no-listener',
        namespace: h.pod?.namespace ?? '',
        pod: h.pod?.name ?? h.node ?? '',
        ip: h.ip,
        port: h.port,
      };
    case 'no-route':
      return { kind: 'no-route', ip: h.ip };
    case 'delivered':
      return {
        kind: 'delivered',
        namespace: h.pod?.namespace ?? '',
        pod: h.pod?.name ?? h.node ?? '',
        ip: h.ip,
        port: h.port ?? 0,
      };
    case 'external':
      return { kind: 'external', ip: h.ip, port: h.port ?? 0 };
    default:
      return undefined;
  }
}
