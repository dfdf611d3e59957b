/**
 * DNS queries as packets. A pod's resolver sends UDP to the nameserver of its resolv.conf — the
 * kube-dns ClusterIP — so each query goes through kube-proxy to one CoreDNS replica, through the
 * pod's egress policy (a default-deny egress that forgot UDP 53 breaks every lookup) and CoreDNS's
 * ingress policy. The replica answers from the Corefile in the `coredns` ConfigMap with its own
 * cache and `log` plugin lines. Node resolvers (kind's docker gateway, k3s's upstream) and public
 * resolvers answer recursively from the simulated internet.
 *
 * "One lookup, one socket": the queries of one lookup share a source port, so they reach the same
 * replica (a real resolver may open a socket per query; the answers are the same).
 * A broken Corefile is rejected by `reload` and the replica keeps serving the last one that parsed;
 * a cluster whose Corefile never parsed answers SERVFAIL.
 */
import { recordDnsExchange } from '../capture/traffic.ts';
import type { DataplaneHost } from './view.ts';
import type { Rng } from '../../util/rng.ts';
import { parseTimestamp } from '../../util/clock.ts';
import { nodeResolvConf } from '../../node/pod-files.ts';
import { answer, DnsCache } from '../dns/coredns.ts';
import { defaultCorefileText, validateCorefile, type Corefile } from '../dns/corefile.ts';
import { corednsFileMap, corefileFiles } from '../dns/coredns-files.ts';
import { fqdn, type DnsResponse, type QType } from '../dns/message.ts';
import { parseResolvConf } from '../dns/resolv-conf.ts';
import { internetLookup } from '../internet.ts';
import { transport, type Origin, type TransportResult } from './transport.ts';
import type { Hop } from './types.ts';
import type { NetworkView } from './view.ts';

export interface CoreDnsLogLine {
  readonly namespace: string;
  readonly pod: string;
  readonly time: number;
  readonly text: string;
}

interface DnsState {
  readonly caches: Map<string, DnsCache>;
  lastValid?: { readonly text: string; readonly corefile: Corefile };
  readonly logs: CoreDnsLogLine[];
}

const STATE = new WeakMap<DataplaneHost, DnsState>();
const MAX_LOG_LINES = 2000;

function stateOf(cluster: DataplaneHost): DnsState {
  let s = STATE.get(cluster);
  if (!s) STATE.set(cluster, (s = { caches: new Map(), logs: [] }));
  return s;
}

/** Lines CoreDNS's `log` plugin wrote in one replica (for `kubectl logs`), oldest first. */
export function coreDnsLogLines(
  cluster: DataplaneHost,
  namespace: string,
  pod: string,
): readonly CoreDnsLogLine[] {
  return (STATE.get(cluster)?.logs ?? []).filter((l) => l.namespace === namespace && l.pod === pod);
}

/**
 * The `log` plugin's lines for `kubectl logs` of a CoreDNS container: only what the running instance
 * wrote (a restart starts a new log), with the time each was written.
 */
export function coreDnsContainerLog(
  cluster: DataplaneHost,
  pod: {
    metadata: { namespace?: string; name: string };
    status?: { containerStatuses?: { name: string; state?: { running?: { startedAt?: string } } }[] };
  },
  container: string,
): { time: number; text: string }[] {
  const status = pod.status?.containerStatuses?.find((c) => c.name === container);
  const started = status?.state?.running?.startedAt;
  if (!started || container !== 'coredns') return [];
  const since = parseTimestamp(started);
  return coreDnsLogLines(cluster, pod.metadata.namespace ?? 'kube-system', pod.metadata.name)
    .filter((l) => l.time >= since)
    .map((l) => ({ time: l.time, text: l.text }));
}

function currentCorefile(cluster: DataplaneHost): Corefile | undefined {
  const s = stateOf(cluster);
  const text =
    cluster.store.get('configmaps', 'kube-system', 'coredns')?.data?.Corefile ??
    defaultCorefileText(cluster.config.clusterDomain);
  // `import` reads the container's mounted files (k3s: the optional `coredns-custom` ConfigMap), so
  // they are part of what the running configuration depends on.
  const files = corednsFileMap(cluster);
  const key = JSON.stringify([text, [...files]]);
  if (s.lastValid?.text === key) return s.lastValid.corefile;
  const v = validateCorefile(text, corefileFiles(files));
  if (v.ok) s.lastValid = { text: key, corefile: v.corefile };
  return s.lastValid?.corefile;
}

const RESOLVER_PORTS = new Set([53]);

export interface DnsClient {
  readonly server: string;
  /** The path to the nameserver: where queries go, or why they never arrive. */
  readonly path: TransportResult;
  readonly reachable: boolean;
  /** Sends one query; only meaningful when reachable. Records the query as a hop. */
  query(name: string, type: QType): DnsResponse;
  readonly hops: Hop[];
  /** The resolver's per-attempt timeout and attempts (resolv.conf `options`). */
  readonly timeoutMs: number;
}

function servfail(name: string, type: QType, id: number): DnsResponse {
  return {
    id,
    rcode: 'SERVFAIL',
    flags: { aa: false, tc: false, rd: true, ra: false },
    question: { name: fqdn(name), type },
    answer: [],
    authority: [],
    additional: [],
    cached: false,
    source: 'none',
  };
}

export function dnsClient(
  view: NetworkView,
  origin: Origin,
  resolvConf: string,
  rng: Rng,
  opts: { readonly srcPort: number; readonly libc?: 'glibc' | 'musl'; readonly server?: string },
): DnsClient {
  const conf = parseResolvConf(resolvConf, opts.libc ?? 'glibc');
  const server = opts.server ?? conf.nameservers[0] ?? '127.0.0.1';
  const path = transport(
    view,
    { origin, destIP: server, destPort: 53, srcPort: opts.srcPort, protocol: 'UDP' },
    rng,
  );
  const target = path.target;
  const hops: Hop[] = [];
  const coreDnsPod =
    path.status === 'delivered' && target?.kind === 'pod' && target.listener?.responder.kind === 'dns'
      ? target.pod
      : undefined;
  const recursive =
    path.status === 'delivered' &&
    (target?.kind === 'internet'
      ? target.host.ports.some((p) => RESOLVER_PORTS.has(p))
      : target?.kind === 'node' && target.listener?.responder.kind === 'dns');
  const upstreamResolver =
    path.deciding?.kind === 'no-route' && isNodeUpstream(view, server) && origin.kind !== 'external';
  const reachable = coreDnsPod !== undefined || recursive || upstreamResolver;
  const cluster = view.cluster;
  const st = stateOf(cluster);
  const query = (name: string, type: QType): DnsResponse => {
    const id = rng.int(65536);
    let r: DnsResponse;
    if (coreDnsPod) {
      const corefile = currentCorefile(cluster);
      let cache = st.caches.get(coreDnsPod.metadata.uid);
      if (!cache) st.caches.set(coreDnsPod.metadata.uid, (cache = new DnsCache()));
      if (!corefile) r = servfail(name, type, id);
      else {
        const a = answer(
          { name, type, client: path.clientIP, clientPort: opts.srcPort, id, rd: true },
          {
            config: corefile,
            clusterDomain: cluster.config.clusterDomain,
            services: cluster.store.list('services'),
            endpointSlices: cluster.store.list('endpointslices.discovery.k8s.io'),
            pods: cluster.store.list('pods'),
            namespaces: cluster.store.list('namespaces'),
            serial: Math.floor(view.now / 1000),
            now: view.now,
            cache,
            rng,
            nodeNameserver: parseResolvConf(nodeResolvConf(cluster.config)).nameservers[0] ?? '172.18.0.1',
          },
        );
        if (a.log) {
          st.logs.push({
            namespace: coreDnsPod.metadata.namespace ?? 'kube-system',
            pod: coreDnsPod.metadata.name,
            time: view.now,
            text: a.log,
          });
          if (st.logs.length > MAX_LOG_LINES) st.logs.splice(0, st.logs.length - MAX_LOG_LINES);
        }
        r = a;
      }
    } else {
      const net = internetLookup(name, type);
      r = {
        id,
        rcode: net.rcode,
        flags: { aa: false, tc: false, rd: true, ra: true },
        question: { name: fqdn(name), type },
        answer: [...net.answer],
        authority: [...net.authority],
        additional: [],
        cached: false,
        source: 'forward',
      };
    }
    // Capture hook: the query and its answer as packets, for any tcpdump running.
    recordDnsExchange(view, {
      origin,
      path,
      srcPort: opts.srcPort,
      server,
      query: { id, name: fqdn(name), type },
      response: r,
      offsetUs: hops.length * 1000,
    });
    // The answer travels back through the node's conntrack entry: no longer [UNREPLIED].
    const tr = path.translation;
    if (tr?.t.proxy && tr.t.proxyRoute) tr.t.proxy.connectionEstablished(tr.node, tr.t.proxyRoute);
    hops.push({
      kind: 'dns-query',
      name: fqdn(name),
      type,
      server,
      outcome: 'answered',
      rcode: r.rcode,
      answers: r.answer.map((rr) =>
        rr.type === 'A' || rr.type === 'AAAA' ? rr.address : 'target' in rr ? rr.target : rr.type,
      ),
      ...(coreDnsPod
        ? {
            answeredBy: {
              namespace: coreDnsPod.metadata.namespace ?? 'kube-system',
              name: coreDnsPod.metadata.name,
            },
          }
        : {}),
    });
    return r;
  };
  return { server, path, reachable, query, hops, timeoutMs: conf.timeout * 1000 };
}

/**
 * The node's own upstream (kind's docker gateway, the k3s VM's host): a node or hostNetwork pod with
 * dnsPolicy Default asks it directly; it is not modelled as a host, it just answers.
 */
function isNodeUpstream(view: NetworkView, server: string): boolean {
  const conf = parseResolvConf(nodeResolvConf(view.config));
  return conf.nameservers.includes(server);
}

/** Simulated time a lookup spends waiting when no server answers (per libc's retry rules). */
export function dnsTimeoutMs(resolvConf: string, libc: 'glibc' | 'musl'): number {
  const conf = parseResolvConf(resolvConf, libc);
  // glibc waits `timeout` per attempt for the A/AAAA pair; musl's timeout is the whole budget.
  return libc === 'musl' ? conf.timeout * 1000 : conf.timeout * conf.attempts * 1000;
}
