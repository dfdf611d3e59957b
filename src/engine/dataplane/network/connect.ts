/**
 * `connect()`: what one client connection experiences, end to end — name resolution through the
 * source's resolv.conf and libc (queries travel as packets to CoreDNS), the packet walk of
 * transport.ts, then the exchange with whoever listens, the MTU black hole, and conntrack's view of
 * the connection (ESTABLISHED when answered, TIME_WAIT once the client closes).
 *
 * "Same connection" for the tools: every curl/wget/nc invocation opens a new socket from a fresh
 * ephemeral port, so each one is a new conntrack entry and kube-proxy picks a backend again (which is
 * why repeated curls spread over the pods). Passing the same `srcPort` reuses the entry — curl does
 * that for several URLs of one host on one command line.
 *
 * The learner's machine reaches `localhost:PORT` only through `kubectl port-forward`, which goes
 * API server → kubelet → the pod's port and bypasses Services, kube-proxy and policies.
 */
import type { DataplaneHost } from './view.ts';
import type { Rng } from '../../util/rng.ts';
import { resolve } from '../dns/resolver.ts';
import { parseResolvConf } from '../dns/resolv-conf.ts';
import { fqdn } from '../dns/message.ts';
import { internetLookup } from '../internet.ts';
import { parseIPv4 } from '../../util/ip.ts';
import { pathMtu, podMtuOf, type CniDataplane } from './cni-dataplane.ts';
import { pmtudOutcome } from './pmtud.ts';
import { cniPlugin } from '../../node/cni/index.ts';
import { dnsClient, dnsTimeoutMs } from './dns-client.ts';
import { exchange, internetExchange, requestBytes, responseBytes, type Exchange } from './http-exchange.ts';
import { edgeProxyExchange, type EdgeProxyOutcome } from './edge-proxy.ts';
import { podListener } from './listeners.ts';
import { ephemeralPort, resolveSource, type ResolvedSource } from './origin.ts';
import { masqueradePort } from '../netfilter/nat-port.ts';
import { transport, type TransportResult } from './transport.ts';
import type { AppResponse, ConnectRequest, ConnectResult, DnsSummary, Hop } from './types.ts';
import { buildView, type NetworkView } from './view.ts';
import { recordTcpConnection, requestText } from '../capture/traffic.ts';

/** Headers and framing a TCP segment carries besides payload (IPv4 20 + TCP 20). */
const TCP_IP_HEADERS = 40;

export interface ResolutionResult {
  readonly addresses: readonly string[];
  readonly hops: Hop[];
  readonly summary: DnsSummary;
}

/** Resolves `name` as the source's getaddrinfo would; the hops show every query. */
export function resolveName(
  view: NetworkView,
  src: ResolvedSource,
  name: string,
  rng: Rng,
  family: 'A' | 'AAAA' | 'both' = 'both',
): ResolutionResult {
  const hops: Hop[] = [];
  if (src.origin.kind === 'external') {
    const local = name === 'localhost' ? ['127.0.0.1'] : [];
    const net = local.length > 0 ? undefined : internetLookup(name, 'A');
    const addresses =
      local.length > 0 ? local : (net?.answer ?? []).flatMap((r) => (r.type === 'A' ? [r.address] : []));
    hops.push({
      kind: 'dns-result',
      name,
      addresses,
      ...(addresses.length === 0 ? { error: 'Name or service not known' } : {}),
    });
    return {
      addresses,
      hops,
      summary: {
        name,
        addresses,
        queries: local.length > 0 ? 0 : 1,
        ...(addresses.length === 0
          ? { error: { code: 'EAI_NONAME', message: 'Name or service not known' } }
          : {}),
        timedOut: false,
        elapsedMs: 0,
      },
    };
  }
  const conf = parseResolvConf(src.resolvConf, src.libc);
  const client = dnsClient(view, src.origin, src.resolvConf, rng, {
    srcPort: ephemeralPort(rng),
    libc: src.libc,
  });
  const result = resolve(name, {
    resolvConf: src.resolvConf,
    libc: src.libc,
    family,
    hosts: src.hosts,
    query: (n, t) => (client.reachable ? client.query(n, t) : { rcode: 'SERVFAIL', answer: [] }),
  });
  if (result.fromHosts) {
    hops.push({ kind: 'hosts-file', name, addresses: result.addresses });
  } else {
    const candidates = [...new Set(result.steps.map((s) => s.name))];
    hops.push({
      kind: 'resolv-conf',
      libc: src.libc,
      nameserver: client.server,
      search: conf.search,
      ndots: conf.ndots,
      candidates: client.reachable ? candidates : candidates.slice(0, 1),
    });
  }
  if (!result.fromHosts && !client.reachable) {
    // The first query never comes back: the resolver waits its timeouts, then gives up (EAI_AGAIN).
    const first = result.steps[0];
    hops.push(...client.path.hops);
    hops.push({
      kind: 'dns-query',
      name: first?.name ?? fqdn(name),
      type: first?.type ?? 'A',
      server: client.server,
      outcome: client.path.status === 'refused' ? 'refused' : 'timeout',
      answers: [],
    });
    const message = src.libc === 'musl' ? 'Try again' : 'Temporary failure in name resolution';
    hops.push({ kind: 'dns-result', name, addresses: [], error: message });
    return {
      addresses: [],
      hops,
      summary: {
        name,
        addresses: [],
        queries: family === 'both' ? 2 : 1,
        error: { code: 'EAI_AGAIN', message },
        timedOut: client.path.status !== 'refused',
        elapsedMs: client.path.status === 'refused' ? 0 : dnsTimeoutMs(src.resolvConf, src.libc),
      },
    };
  }
  hops.push(...client.hops);
  hops.push({
    kind: 'dns-result',
    name,
    addresses: result.addresses,
    ...(result.error ? { error: result.error.message } : {}),
  });
  return {
    addresses: result.addresses,
    hops,
    summary: {
      name,
      addresses: result.addresses,
      queries: result.steps.length,
      ...(result.error ? { error: result.error } : {}),
      timedOut: false,
      elapsedMs: 0,
    },
  };
}

function hostnameOf(t: TransportResult): string {
  const target = t.target;
  if (!target) return '';
  if (target.kind === 'pod') return target.pod.metadata.name;
  if (target.kind === 'node') return target.node.name;
  return target.host.names[0] ?? target.host.ip;
}

export function connect(req: ConnectRequest, cluster: DataplaneHost, rng: Rng): ConnectResult {
  const view = buildView(cluster);
  const src = resolveSource(view, req.from);
  const srcPort = req.srcPort ?? ephemeralPort(rng);
  if ('error' in src) {
    const hop: Hop = { kind: 'no-route', ip: req.to, reason: src.error };
    return {
      outcome: 'unreachable',
      hops: [hop],
      decidingHop: hop,
      local: { ip: '', port: srcPort },
      elapsedMs: 0,
    };
  }
  const hops: Hop[] = [];
  let destIP = req.to;
  let dns: DnsSummary | undefined;
  if (parseIPv4(req.to) === undefined) {
    const r = resolveName(view, src, req.to, rng, req.family ?? 'both');
    hops.push(...r.hops);
    dns = r.summary;
    const first = r.addresses.find((a) => parseIPv4(a) !== undefined);
    if (!first) {
      const deciding =
        r.hops.findLast((h) => h.kind === 'network-policy' && h.verdict === 'blocked') ??
        r.hops[r.hops.length - 1];
      return {
        outcome: 'dns-failure',
        hops,
        ...(deciding ? { decidingHop: deciding } : {}),
        dns,
        local: { ip: src.origin.ip, port: srcPort },
        elapsedMs: r.summary.elapsedMs,
      };
    }
    destIP = first;
  }
  const local = { ip: src.origin.ip, port: srcPort };
  const remote = { ip: destIP, ...(req.port !== undefined ? { port: req.port } : {}) };
  hops.push({
    kind: 'socket',
    from: `${src.origin.ip}${req.protocol === 'ICMP' ? '' : `:${srcPort}`}`,
    to: `${destIP}${req.port !== undefined ? `:${req.port}` : ''}`,
    protocol: req.protocol,
    ...(src.origin.kind === 'pod'
      ? {
          pod: {
            namespace: src.origin.pod.metadata.namespace ?? 'default',
            name: src.origin.pod.metadata.name,
          },
        }
      : {}),
    ...(src.origin.kind === 'node'
      ? { node: src.origin.node.name, ...(src.origin.pod ? { hostNetwork: true } : {}) }
      : {}),
    ...(src.origin.kind === 'external' ? { external: true } : {}),
  });
  const common = { ...(dns ? { dns } : {}), local, remote };

  if (src.origin.kind === 'external' && destIP.startsWith('127.'))
    return portForward(view, req, hops, common);

  const t = transport(
    view,
    {
      origin: src.origin,
      destIP,
      ...(req.port !== undefined ? { destPort: req.port } : {}),
      srcPort,
      protocol: req.protocol,
    },
    rng,
  );
  hops.push(...t.hops);
  const tr = t.translation?.t;
  const recordTcp = (
    outcome: ConnectResult['outcome'],
    exchanged: { readonly request?: string; readonly response?: AppResponse } = {},
  ): void =>
    recordTcpConnection(view, {
      origin: src.origin,
      t,
      srcPort,
      dialIP: destIP,
      dialPort: req.port ?? 0,
      outcome,
      ...exchanged,
      mss:
        (src.origin.kind === 'pod' ? podMtuOf(cluster, src.origin.pod) : cluster.config.nodeMTU) -
        TCP_IP_HEADERS,
      offsetUs: (dns?.queries ?? 0) * 1000 + 500,
    });
  if (t.status !== 'delivered') {
    // Capture hook: the SYN that went unanswered or was refused.
    if (req.protocol === 'TCP') recordTcp(t.status);
    return {
      outcome: t.status,
      hops,
      ...(t.deciding ? { decidingHop: t.deciding } : {}),
      ...common,
      // A dead neighbour on a bridge: three ARP attempts a second apart, then EHOSTUNREACH.
      elapsedMs: t.status === 'unreachable' ? 3000 : 0,
    };
  }
  if (tr?.proxy && tr.proxyRoute && t.translation)
    tr.proxy.connectionEstablished(t.translation.node, tr.proxyRoute);
  const target = t.target;
  const backend = target
    ? {
        ip: t.destIP,
        ...(t.destPort !== undefined ? { port: t.destPort } : {}),
        ...(target.kind === 'pod'
          ? { pod: { namespace: target.pod.metadata.namespace ?? 'default', name: target.pod.metadata.name } }
          : {}),
        ...(target.kind === 'node' ? { node: target.node.name } : {}),
        ...(target.kind === 'internet' ? { host: target.host.names[0] ?? target.host.ip } : {}),
        ...(target.kind !== 'internet' && target.listener?.container
          ? { container: target.listener.container }
          : {}),
        ...(target.kind !== 'internet' && target.listener ? { process: target.listener.process } : {}),
      }
    : undefined;
  const result: ConnectResult = {
    outcome: 'connected',
    hops,
    ...(t.deciding ? { decidingHop: t.deciding } : {}),
    ...common,
    serverSawClientIP: t.clientIP,
    ...(backend ? { backend } : {}),
    ...(req.protocol === 'ICMP' ? { replyFrom: req.to === destIP ? destIP : destIP } : {}),
    elapsedMs: 0,
  };
  if (req.protocol === 'ICMP') {
    return { ...result, replyFrom: parseIPv4(req.to) !== undefined ? req.to : destIP };
  }
  const srcMtu = src.origin.kind === 'pod' ? podMtuOf(cluster, src.origin.pod) : cluster.config.nodeMTU;
  const srcNode = src.origin.kind === 'external' ? undefined : src.origin.node.name;
  const withApp = application(view, req, t, result, srcPort, { mtu: srcMtu, node: srcNode }, rng);
  // Capture hook: the connection's packets, for any tcpdump running.
  if (req.protocol === 'TCP') {
    const plain = req.payload?.http?.scheme !== 'https';
    recordTcp(withApp.outcome, {
      ...(req.payload?.http && plain ? { request: requestText(req.payload.http) } : {}),
      ...(withApp.response && plain ? { response: withApp.response } : {}),
    });
  }
  if (req.protocol === 'TCP' && tr?.proxy && tr.proxyRoute && t.translation && !withApp.stalled)
    tr.proxy.connectionClosed(t.translation.node, tr.proxyRoute);
  return withApp;
}

function application(
  view: NetworkView,
  req: ConnectRequest,
  t: TransportResult,
  result: ConnectResult,
  srcPort: number,
  source: { readonly mtu: number; readonly node: string | undefined },
  rng: Rng,
): ConnectResult {
  const http = req.payload?.http;
  const target = t.target;
  let ex: Exchange | undefined;
  // An Ingress controller or Gateway proxy routes the request and opens its own upstream connection.
  const edge: EdgeProxyOutcome | undefined = http ? edgeProxyExchange(view, t, http, rng) : undefined;
  if (edge) ex = edge.exchange;
  else if (http && target) {
    const ctx = {
      request: http,
      hostname: hostnameOf(t),
      clientIP: t.clientIP,
      clientPort: t.clientIP === result.local.ip ? srcPort : masqueradePort(srcPort),
      localIP: t.destIP,
      now: view.now,
    };
    if (target.kind === 'internet') ex = internetExchange(target.host, ctx);
    else if (target.listener) ex = exchange(target.listener.responder, ctx);
  }
  const sent = (req.payload?.bytes ?? 0) + (http ? requestBytes(http) : 0);
  const received = ex?.kind === 'response' ? responseBytes(ex.response) : 0;
  const dp = t.dataplane;
  const mtu = pathMtu(dp, t.crossNode);
  const largest = Math.max(sent, received);
  const hops = [...result.hops, ...(edge?.hops ?? [])];
  let stalled = ex?.kind === 'silent';
  // Each end advertises an MSS from its own eth0 MTU (the one its CNI ADD gave it), and both send
  // segments of at most the smaller MSS: one end recreated with the right MTU fixes both directions.
  const segmentMtu =
    target?.kind === 'pod' ? Math.min(source.mtu, podMtuOf(view.cluster, target.pod)) : source.mtu;
  if (t.crossNode && segmentMtu > mtu && target?.kind === 'pod') {
    const tooBig = largest > mtu - TCP_IP_HEADERS;
    const pmtud = pmtudOutcome(dp);
    // The big segments go whichever way the bulk goes: the node in front of that sender answers.
    const senderNode = sent >= received ? source.node : target.pod.spec?.nodeName;
    const icmp = tooBig && pmtud.icmp && senderNode ? icmpSource(view, dp, senderNode) : undefined;
    const black = tooBig && !icmp;
    hops.push({
      kind: 'mtu',
      podMtu: segmentMtu,
      pathMtu: mtu,
      bytes: largest,
      stalled: black,
      device: pmtud.device,
      ...(icmp && senderNode ? { icmp: { node: senderNode, from: icmp, mtu } } : {}),
    });
    stalled ||= black;
  }
  return {
    ...result,
    hops,
    ...(ex?.kind === 'response' && !stalled ? { response: ex.response } : {}),
    ...(ex?.kind === 'closed' ? { response: { headers: [], body: '', empty: true } } : {}),
    ...(stalled ? { stalled: true } : {}),
    ...(edge?.tls ? { tls: edge.tls } : {}),
  };
}

/**
 * The source address of the node's ICMP error: the address it would use towards the pod (flannel:
 * cni0's, the podCIDR's first; Calico's veths have none, so the node's own).
 */
function icmpSource(view: NetworkView, dp: CniDataplane, node: string): string | undefined {
  const info = view.nodeByName(node);
  if (!info) return undefined;
  return cniPlugin(dp.cni).nodeAddressTowardPods(info.podCIDR, info.ip);
}

function portForward(
  view: NetworkView,
  req: ConnectRequest,
  hops: Hop[],
  common: Pick<ConnectResult, 'dns' | 'local' | 'remote'>,
): ConnectResult {
  const fwd = view.cluster.hostForwards.listening(req.port ?? 0);
  if (!fwd || req.protocol !== 'TCP') {
    const hop: Hop = {
      kind: 'no-listener',
      ip: common.remote?.ip ?? '127.0.0.1',
      port: req.port ?? 0,
      protocol: req.protocol,
    };
    hops.push(hop);
    return { outcome: 'refused', hops, decidingHop: hop, ...common, elapsedMs: 0 };
  }
  const pod = view.cluster.store.get('pods', fwd.namespace, fwd.pod);
  const podRef = { namespace: fwd.namespace, name: fwd.pod };
  hops.push({ kind: 'port-forward', localPort: fwd.localPort, pod: podRef, podPort: fwd.podPort });
  const listener = pod ? podListener(pod, fwd.podPort, 'TCP', '127.0.0.1', view.now) : undefined;
  if (!pod || !listener) {
    // kubectl accepted the local connection, then the kubelet's dial failed: the client gets EOF.
    const hop: Hop = {
      kind: 'no-listener',
      pod: podRef,
      ip: '127.0.0.1',
      port: fwd.podPort,
      protocol: 'TCP',
    };
    hops.push(hop);
    return {
      outcome: 'connected',
      hops,
      decidingHop: hop,
      ...common,
      response: { headers: [], body: '', empty: true },
      serverSawClientIP: '127.0.0.1',
      elapsedMs: 0,
    };
  }
  const hop: Hop = {
    kind: 'delivered',
    pod: podRef,
    ip: '127.0.0.1',
    port: fwd.podPort,
    ...(listener.container ? { container: listener.container } : {}),
    process: listener.process,
    clientIP: '127.0.0.1',
  };
  hops.push(hop);
  const http = req.payload?.http;
  const ex = http
    ? exchange(listener.responder, {
        request: http,
        hostname: pod.metadata.name,
        clientIP: '127.0.0.1',
        clientPort: common.local.port,
        localIP: '127.0.0.1',
        now: view.now,
      })
    : undefined;
  return {
    outcome: 'connected',
    hops,
    decidingHop: hop,
    ...common,
    serverSawClientIP: '127.0.0.1',
    backend: {
      pod: podRef,
      ip: pod.status?.podIP ?? '',
      port: fwd.podPort,
      process: listener.process,
      ...(listener.container ? { container: listener.container } : {}),
    },
    ...(ex?.kind === 'response' ? { response: ex.response } : {}),
    ...(ex?.kind === 'closed' ? { response: { headers: [], body: '', empty: true } } : {}),
    ...(ex?.kind === 'silent' ? { stalled: true } : {}),
    elapsedMs: 0,
  };
}
