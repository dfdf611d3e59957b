/**
 * What an Ingress controller or Gateway API proxy does with an HTTP request that reached one of its
 * entry points (directly, through its Service, a NodePort, ServiceLB or a MetalLB VIP):
 *
 * 1. TLS: on a TLS entry point it terminates with the certificate of the `tls` entry listing the SNI
 *    name, else its default certificate (`api/edge/ingress-routing.ts` `ingressCertificate`);
 * 2. routing on the Host header and path: HTTPRoutes of the Gateways it serves on that listener port,
 *    then its Ingresses (`routeGatewayRequest`, `routeIngressRequest`);
 * 3. a second connection, from the proxy pod to one ready endpoint of the chosen Service. Traefik and
 *    ingress-nginx both dial the endpoints they read from the API themselves, not the ClusterIP
 *    (traefik `pkg/provider/kubernetes/ingress/kubernetes.go` `loadService` builds one server URL per
 *    endpoint address). That connection meets policy and routes like any pod's, so a NetworkPolicy on
 *    the backend sees the proxy pod as its source;
 * 4. the backend's answer, as Go's reverse proxy relays it (hop-by-hop headers dropped, the rest written
 *    sorted by `http.Header.Write`), or the proxy's own answer: 404 (no route), 308/302 (redirect),
 *    500 (unusable backendRef), 502 (refused), 504 (dial timeout).
 */
import type { Pod, Service } from '../../api/objects.ts';
import type { Rng } from '../../util/rng.ts';
import { certificateNames } from '../edge/certificate.ts';
import { gatewayStateForPod, ingressStateForPod } from '../../api/edge/edge-state.ts';
import { routeGatewayRequest } from '../../api/edge/gateway-routing.ts';
import {
  edgeImplementationOf,
  type EdgeImplementation,
  type HttpReply,
} from '../../api/edge/implementations.ts';
import { ingressCertificate, routeIngressRequest } from '../../api/edge/ingress-routing.ts';
import { hostOnly } from '../../api/edge/http-match.ts';
import { exchange, httpDate, reasonPhrase, type Exchange } from './http-exchange.ts';
import { ephemeralPort, resolveSource } from './origin.ts';
import { transport, type TransportResult } from './transport.ts';
import type { AppResponse, Hop, HttpRequestSpec, PodRef, ServedTls } from './types.ts';
import type { NetworkView } from './view.ts';

export interface EdgeProxyOutcome {
  readonly hops: readonly Hop[];
  readonly exchange: Exchange;
  readonly tls?: ServedTls;
}

interface EntryPoint {
  readonly name: string;
  readonly tls: boolean;
}

const isTrue = (v: string | undefined) => v !== undefined && v.toLowerCase() !== 'false';

/**
 * The entry point a container port belongs to. Traefik attaches Ingress and HTTPRoute routers to every
 * TCP entry point but its internal `traefik` one (`getDefaultsEntrypoints`); ingress-nginx serves HTTP
 * on 80 and HTTPS on 443.
 */
function entryPointOf(impl: EdgeImplementation, port: number): EntryPoint | undefined {
  if (impl.id === 'ingress-nginx')
    return port === 80
      ? { name: 'http', tls: false }
      : port === 443
        ? { name: 'https', tls: true }
        : undefined;
  for (const [k, v] of impl.flags) {
    const m = /^entrypoints\.([^.]+)\.address$/.exec(k);
    if (!m || Number(/:(\d+)/.exec(v)?.[1]) !== port) continue;
    const name = m[1]!;
    if (name === 'traefik' || name === 'metrics' || /\/udp$/i.test(v)) return undefined;
    return { name, tls: isTrue(impl.flags.get(`entrypoints.${name}.http.tls`)) };
  }
  return undefined;
}

const ref = (o: { metadata: { namespace?: string; name: string } }): PodRef => ({
  namespace: o.metadata.namespace ?? 'default',
  name: o.metadata.name,
});

/** What the proxy writes itself (Go's `http.Error`/`http.NotFound`, nginx's error pages). */
function ownReply(reply: HttpReply, now: number, location?: string): AppResponse {
  const len = String(reply.body.length);
  if (reply.server) {
    return {
      status: reply.status,
      reason: reasonPhrase(reply.status),
      headers: [
        ['Server', reply.server],
        ['Date', httpDate(now)],
        ['Content-Type', reply.contentType],
        ['Content-Length', len],
        ['Connection', 'keep-alive'],
        ...(location ? ([['Location', location]] as [string, string][]) : []),
      ],
      body: reply.body,
    };
  }
  if (location)
    return {
      status: reply.status,
      reason: reasonPhrase(reply.status),
      headers: [
        ['Location', location],
        ['Date', httpDate(now)],
        ['Content-Length', '0'],
      ],
      body: '',
    };
  return {
    status: reply.status,
    reason: reasonPhrase(reply.status),
    headers: [
      ['Content-Type', reply.contentType],
      ['X-Content-Type-Options', 'nosniff'],
      ['Date', httpDate(now)],
      ['Content-Length', len],
    ],
    body: reply.body,
  };
}

/** Go's `http.Error(w, http.StatusText(code), code)`, as Traefik answers a failed upstream. */
function goError(status: number): HttpReply {
  return { status, contentType: 'text/plain; charset=utf-8', body: `${reasonPhrase(status)}\n` };
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
]);

/** httputil.ReverseProxy copies the backend's headers minus hop-by-hop ones; Go writes them sorted. */
function relayed(r: AppResponse): AppResponse {
  const headers = r.headers
    .filter(([k]) => !HOP_BY_HOP.has(k.toLowerCase()))
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { ...r, version: '1.1', headers };
}

interface ReadyEndpoint {
  readonly ip: string;
  readonly port: number;
}

/** Ready endpoints of a Service port (by number or name), from its EndpointSlices. */
function readyEndpoints(view: NetworkView, svc: Service, port: number | string): ReadyEndpoint[] {
  const sp = (svc.spec?.ports ?? []).find((p) => p.port === port || (p.name && p.name === port));
  if (!sp) return [];
  const out: ReadyEndpoint[] = [];
  for (const slice of view.cluster.store.list('endpointslices.discovery.k8s.io', svc.metadata.namespace)) {
    if (slice.metadata.labels?.['kubernetes.io/service-name'] !== svc.metadata.name) continue;
    const p = (slice.ports ?? []).find((x) => (x.name ?? '') === (sp.name ?? ''));
    if (p?.port === undefined || p.port === null) continue;
    for (const ep of slice.endpoints ?? []) {
      if (ep.conditions?.ready === false) continue;
      for (const ip of ep.addresses) out.push({ ip, port: p.port });
    }
  }
  return out.sort((a, b) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : a.port - b.port));
}

function headerValue(http: HttpRequestSpec, name: string): string | undefined {
  return http.headers.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
}

/** A request that reached an edge proxy's entry point, or undefined when `t` did not end at one. */
export function edgeProxyExchange(
  view: NetworkView,
  t: TransportResult,
  http: HttpRequestSpec,
  rng: Rng,
): EdgeProxyOutcome | undefined {
  const target = t.target;
  if (!target || target.kind === 'internet' || !target.listener) return undefined;
  const pod: Pod | undefined = target.kind === 'pod' ? target.pod : target.listener.pod;
  if (!pod) return undefined;
  const impl = edgeImplementationOf(pod);
  const port = t.destPort ?? 0;
  const entry = impl && entryPointOf(impl, port);
  if (!impl || !entry) return undefined;
  const scheme = http.scheme ?? 'http';
  // A TLS entry point sent plain HTTP (Go's 400) or a plain one sent a ClientHello: not routed.
  if (entry.tls !== (scheme === 'https')) return undefined;
  const api = view.cluster.api;
  const now = view.now;
  const host = headerValue(http, 'Host') ?? http.host;
  const proxy = ref(pod);
  const base = { kind: 'edge-proxy' as const, proxy, implementation: impl.id, host, path: http.path, scheme };
  const ingressState = ingressStateForPod(api, pod);
  let tls: ServedTls | undefined;
  if (scheme === 'https' && ingressState) {
    const served = ingressCertificate(ingressState, http.sni ?? '');
    if (served.source === 'default') {
      tls = {
        subject: served.subject.replace(/, /g, '; '),
        issuer: served.issuer.replace(/, /g, '; '),
        source: 'default',
      };
    } else {
      const secret = view.cluster.store.get('secrets', served.secret.namespace, served.secret.name);
      const names = certificateNames(secret?.data?.['tls.crt'] ?? '');
      tls = names
        ? { ...names, source: 'secret', secret: served.secret }
        : {
            subject: impl.defaultCertificate.subject.replace(/, /g, '; '),
            issuer: impl.defaultCertificate.issuer.replace(/, /g, '; '),
            source: 'default',
          };
    }
  }
  const withTls = (o: Omit<EdgeProxyOutcome, 'tls'>): EdgeProxyOutcome => ({ ...o, ...(tls ? { tls } : {}) });
  const certificate = tls ? { certificate: tls.subject } : {};
  const answer = (
    reply: HttpReply,
    extra: Partial<Extract<Hop, { kind: 'edge-proxy' }>>,
    reason: string,
    location?: string,
  ): EdgeProxyOutcome =>
    withTls({
      hops: [{ ...base, ...certificate, ...extra, answered: reply.status, reason }],
      exchange: { kind: 'response', response: ownReply(reply, now, location) },
    });

  // 1. HTTPRoutes of the Gateways this proxy serves, on this listener port.
  let chosen:
    | {
        matched: NonNullable<Extract<Hop, { kind: 'edge-proxy' }>['matched']>;
        service: PodRef;
        port: number | string;
        draw?: { value: number; total: number; weight: number };
        path: string;
      }
    | undefined;
  const gwState = impl.gatewayController ? gatewayStateForPod(api, pod, rng) : undefined;
  if (gwState) {
    const addresses = new Set<string>();
    for (const gw of gwState.gateways)
      if (gw.spec.listeners.some((l) => l.port === port))
        for (const a of gw.status?.addresses ?? gw.spec.addresses ?? []) addresses.add(a.value);
    for (const address of [...addresses].sort()) {
      const r = routeGatewayRequest(gwState, address, {
        host,
        path: http.path,
        headers: Object.fromEntries(http.headers.map(([k, v]) => [k, v])),
        method: http.method,
        port,
        scheme,
      });
      if (r.kind === 'not-found') continue;
      const matchedRoute = (route: PodRef, rule?: number) => ({
        kind: 'HTTPRoute' as const,
        object: route,
        rule: rule !== undefined ? `rule ${rule}` : 'route',
      });
      if (r.kind === 'redirect')
        return answer(r, { matched: matchedRoute(r.route) }, 'RequestRedirect filter', r.location);
      if (r.kind !== 'backend')
        return answer(
          r,
          r.route ? { matched: matchedRoute(r.route) } : {},
          'the chosen backendRef cannot be used',
        );
      chosen = {
        matched: { ...matchedRoute(r.route, r.rule), gateway: r.gateway, listener: r.listener },
        service: { namespace: r.backend.namespace, name: r.backend.name },
        port: r.backend.port ?? 80,
        draw: r.draw,
        path: r.upstreamPath,
      };
      break;
    }
  }

  // 2. Ingresses. Traefik skips a Service without endpoints ("Skipping service: no endpoints found"),
  //    so its paths do not match at all.
  if (!chosen && ingressState) {
    const usable = (ns: string, name: string, p: number | string) => {
      const svc = view.cluster.store.get('services', ns, name);
      return svc !== undefined && readyEndpoints(view, svc, p).length > 0;
    };
    const state =
      impl.id === 'traefik'
        ? {
            ...ingressState,
            ingresses: ingressState.ingresses.map((ing) => ({
              ...ing,
              spec: {
                ...ing.spec,
                rules: (ing.spec?.rules ?? []).map((rule) => ({
                  ...rule,
                  ...(rule.http
                    ? {
                        http: {
                          paths: rule.http.paths.filter((p) =>
                            p.backend.service
                              ? usable(
                                  ing.metadata.namespace ?? 'default',
                                  p.backend.service.name,
                                  p.backend.service.port?.number ?? p.backend.service.port?.name ?? 80,
                                )
                              : true,
                          ),
                        },
                      }
                    : {}),
                })),
              },
            })),
          }
        : ingressState;
    const r = routeIngressRequest(state, { host, path: http.path, scheme });
    if (r.kind === 'not-found') return answer(r, {}, 'no Ingress rule matches the host and path');
    if (r.kind === 'redirect') return answer(r, {}, 'ssl-redirect: the host is listed under tls', r.location);
    const rule = r.defaultBackend
      ? 'defaultBackend'
      : [
          r.rule.host ? `host ${r.rule.host}` : 'any host',
          `path ${r.rule.path ?? '/'} (${r.rule.pathType ?? 'Prefix'})`,
        ].join(', ');
    chosen = {
      matched: { kind: 'Ingress', object: r.ingress, rule },
      service: r.service,
      port: r.port,
      path: http.path,
    };
  }
  if (!chosen) return answer(impl.notFound, {}, 'no route matches the host and path');

  // 3. The proxy's own connection to one ready endpoint of the Service.
  const svc = view.cluster.store.get('services', chosen.service.namespace, chosen.service.name);
  const endpoints = svc ? readyEndpoints(view, svc, chosen.port) : [];
  const picked = endpoints.length > 0 ? endpoints[rng.int(endpoints.length)] : undefined;
  const hopBase = {
    matched: chosen.matched,
    ...(chosen.draw ? { draw: chosen.draw } : {}),
  };
  if (!picked)
    return answer(
      impl.id === 'traefik' ? goError(503) : { ...impl.notFound, status: 503 },
      { ...hopBase, backend: { service: chosen.service, port: chosen.port } },
      'the Service has no ready endpoint',
    );
  const edgeHop: Hop = {
    ...base,
    ...certificate,
    ...hopBase,
    backend: { service: chosen.service, port: chosen.port, endpoint: `${picked.ip}:${picked.port}` },
  };
  const src = resolveSource(view, { kind: 'pod', namespace: proxy.namespace, name: proxy.name });
  if ('error' in src) return undefined;
  const up = transport(
    view,
    {
      origin: src.origin,
      destIP: picked.ip,
      destPort: picked.port,
      srcPort: ephemeralPort(rng),
      protocol: 'TCP',
    },
    rng,
  );
  const hops: Hop[] = [edgeHop, ...up.hops];
  if (up.status === 'timeout') {
    // Traefik's default dial timeout (serversTransport.forwardingTimeouts.dialTimeout) is 30 s.
    return withTls({ hops, exchange: { kind: 'response', response: ownReply(goError(504), now) } });
  }
  if (up.status !== 'delivered' || !up.target || up.target.kind === 'internet' || !up.target.listener)
    return withTls({ hops, exchange: { kind: 'response', response: ownReply(goError(502), now) } });
  // The backend answered the proxy's SYN: its conntrack entry on the proxy's node is replied, as the
  // client's own connection is in connect.ts (else `conntrack -L` shows the upstream [UNREPLIED]).
  const upstream = up.translation;
  if (upstream?.t.proxy && upstream.t.proxyRoute)
    upstream.t.proxy.connectionEstablished(upstream.node, upstream.t.proxyRoute);
  const clientIP = t.clientIP;
  const forwarded: [string, string][] = [
    ...http.headers.filter(([k]) => k.toLowerCase() !== 'host').map(([k, v]) => [k, v] as [string, string]),
    ['Accept-Encoding', 'gzip'],
    ['X-Forwarded-For', clientIP],
    ['X-Forwarded-Host', host],
    [
      'X-Forwarded-Port',
      String(
        hostOnly(host) === host.toLowerCase()
          ? scheme === 'https'
            ? 443
            : 80
          : host.slice(host.lastIndexOf(':') + 1),
      ),
    ],
    ['X-Forwarded-Proto', scheme],
    ['X-Forwarded-Server', pod.metadata.name],
    ['X-Real-Ip', clientIP],
  ];
  const backendPod = up.target.kind === 'pod' ? up.target.pod : undefined;
  const ex = exchange(up.target.listener.responder, {
    request: { ...http, path: chosen.path, host, headers: forwarded },
    hostname: backendPod?.metadata.name ?? up.target.node.name,
    clientIP: up.clientIP,
    clientPort: 32768 + rng.int(28232),
    localIP: up.destIP,
    now,
  });
  if (ex.kind === 'closed')
    return withTls({ hops, exchange: { kind: 'response', response: ownReply(goError(502), now) } });
  if (ex.kind === 'silent') return withTls({ hops, exchange: ex });
  if (upstream?.t.proxy && upstream.t.proxyRoute)
    upstream.t.proxy.connectionClosed(upstream.node, upstream.t.proxyRoute);
  return withTls({ hops, exchange: { kind: 'response', response: relayed(ex.response) } });
}
