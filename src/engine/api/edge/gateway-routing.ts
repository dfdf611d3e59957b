/**
 * How a Gateway API implementation routes one HTTP request arriving at a Gateway address: the
 * listeners on the request's port and protocol whose hostname matches (the most specific listener
 * wins), the HTTPRoutes attached to it, then the rule precedence of the HTTPRoute specification: the
 * most specific matching hostname, an `Exact` path over the longest `PathPrefix`, a method match, the
 * most header matches, the most query matches, the oldest route (then namespace/name), then rule order.
 * The chosen rule's backendRefs split traffic by weight with a draw from the caller's seeded RNG; a
 * share going to an unresolvable backend, or a rule with no usable weight, answers 500.
 */
import type { Gateway, HTTPRoute } from '../objects.ts';
import type { GatewayListener, HTTPRouteFilter, HTTPRouteMatch } from '../crd-types.ts';
import { attachRoute, backendProblem, type GatewayWorld } from './gateway-attachment.ts';
import {
  gatewayHostMatches,
  gatewayPathMatches,
  hostOnly,
  intersectHostnames,
  pathOnly,
  stringMatches,
} from './http-match.ts';
import { INTERNAL_SERVER_ERROR, type HttpReply } from './implementations.ts';
import { byAge, type ObjectRef } from './ingress-routing.ts';

export interface GatewayRoutingState extends GatewayWorld {
  readonly notFound: HttpReply;
  /** The seeded draw for weighted backends (`Rng.int`). */
  readonly rng: { int(n: number): number };
}

export interface GatewayRequest {
  readonly host: string;
  /** Path with any query string. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly method?: string;
  /** The listener port the request arrived on (for Traefik: the entry point's container port). */
  readonly port?: number;
  readonly scheme?: 'http' | 'https';
}

export type GatewayRouteResult =
  | {
      readonly kind: 'backend';
      readonly gateway: ObjectRef;
      readonly listener: string;
      readonly route: ObjectRef;
      readonly rule: number;
      readonly backend: ObjectRef & { readonly port?: number };
      /** The weighted draw: `value` in [0, total) fell into this backend's share `weight`. */
      readonly draw: { readonly value: number; readonly total: number; readonly weight: number };
      /** The path sent upstream (after a URLRewrite) and header changes of RequestHeaderModifier. */
      readonly upstreamPath: string;
      readonly requestHeaderFilters: readonly HTTPRouteFilter[];
    }
  | ({ readonly kind: 'redirect'; readonly location: string; readonly route: ObjectRef } & HttpReply)
  | ({ readonly kind: 'error' | 'not-found'; readonly route?: ObjectRef } & HttpReply);

function gatewayAddresses(gw: Gateway): string[] {
  return (gw.status?.addresses ?? gw.spec.addresses ?? []).map((a) => a.value);
}

function hostScore(route: HTTPRoute, listener: GatewayListener, host: string): number[] | undefined {
  const names = route.spec?.hostnames ?? [];
  if (names.length === 0) {
    if (listener.hostname && !gatewayHostMatches(listener.hostname, host)) return undefined;
    return [0, 0];
  }
  let best: number[] | undefined;
  for (const n of names) {
    const eff = intersectHostnames(listener.hostname, n);
    if (!eff || !gatewayHostMatches(eff, host)) continue;
    const score = eff.startsWith('*.') ? [0, eff.length] : [eff.length, eff.length];
    if (!best || compare(score, best) > 0) best = score;
  }
  return best;
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function query(path: string): Map<string, string> {
  const q = path.indexOf('?');
  const out = new Map<string, string>();
  if (q < 0) return out;
  for (const kv of path.slice(q + 1).split('&')) {
    if (!kv) continue;
    const eq = kv.indexOf('=');
    const k = eq < 0 ? kv : kv.slice(0, eq);
    if (!out.has(k)) out.set(k, eq < 0 ? '' : kv.slice(eq + 1));
  }
  return out;
}

function matchScore(m: HTTPRouteMatch, req: GatewayRequest): number[] | undefined {
  const type = m.path?.type ?? 'PathPrefix';
  const value = m.path?.value ?? '/';
  if (!gatewayPathMatches(type, value, req.path)) return undefined;
  if (m.method && (req.method ?? 'GET').toUpperCase() !== m.method) return undefined;
  const headers = new Map(Object.entries(req.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  for (const h of m.headers ?? [])
    if (!stringMatches(h.type ?? 'Exact', h.value, headers.get(h.name.toLowerCase()))) return undefined;
  const q = query(req.path);
  for (const p of m.queryParams ?? [])
    if (!stringMatches(p.type ?? 'Exact', p.value, q.get(p.name))) return undefined;
  return [
    type === 'Exact' ? 1 : 0,
    type === 'RegularExpression' ? 0 : value.length,
    m.method ? 1 : 0,
    (m.headers ?? []).length,
    (m.queryParams ?? []).length,
  ];
}

/** Routes one request that reached `gatewayAddress`; `state.rng` is drawn once when a rule has backends. */
export function routeGatewayRequest(
  state: GatewayRoutingState,
  gatewayAddress: string,
  req: GatewayRequest,
): GatewayRouteResult {
  const host = hostOnly(req.host);
  const protocol = (req.scheme ?? 'http') === 'https' ? 'HTTPS' : 'HTTP';
  type Cand = { gw: Gateway; l: GatewayListener };
  const listeners: Cand[] = [];
  for (const gw of [...state.gateways].sort(byAge)) {
    if (!gatewayAddresses(gw).includes(gatewayAddress)) continue;
    for (const l of gw.spec.listeners) {
      if (l.protocol !== protocol || (req.port !== undefined && l.port !== req.port)) continue;
      if (l.hostname && !gatewayHostMatches(l.hostname, host)) continue;
      listeners.push({ gw, l });
    }
  }
  // The most specific listener hostname takes the request (an exact name, then the longest wildcard).
  const spec = (l: GatewayListener) =>
    !l.hostname ? [0, 0] : l.hostname.startsWith('*.') ? [1, l.hostname.length] : [2, 0];
  const bestSpec = listeners.reduce<number[] | undefined>(
    (b, c) => (!b || compare(spec(c.l), b) > 0 ? spec(c.l) : b),
    undefined,
  );
  const chosen = listeners.filter((c) => bestSpec && compare(spec(c.l), bestSpec) === 0);

  let best: { score: number[]; route: HTTPRoute; rule: number; cand: Cand } | undefined;
  const routes = [...state.routes].sort(byAge);
  for (const route of routes) {
    const attachments = attachRoute(state, route);
    for (const cand of chosen) {
      const attached = attachments.some(
        (a) => a.gateway.metadata.uid === cand.gw.metadata.uid && a.listeners.includes(cand.l.name),
      );
      if (!attached) continue;
      const hs = hostScore(route, cand.l, host);
      if (!hs) continue;
      (route.spec?.rules ?? []).forEach((rule, ri) => {
        const matches = rule.matches && rule.matches.length > 0 ? rule.matches : [{}];
        for (const m of matches) {
          const ms = matchScore(m, req);
          if (!ms) continue;
          const score = [...hs, ...ms];
          if (!best || compare(score, best.score) > 0) best = { score, route, rule: ri, cand };
        }
      });
    }
  }
  if (!best) return { kind: 'not-found', ...state.notFound };
  const { route, cand } = best;
  const routeRef = { namespace: route.metadata.namespace ?? 'default', name: route.metadata.name };
  const rule = route.spec?.rules?.[best.rule] ?? {};
  const filters = rule.filters ?? [];
  const redirect = filters.find((f) => f.type === 'RequestRedirect')?.requestRedirect;
  if (redirect) {
    const scheme = redirect.scheme ?? req.scheme ?? 'http';
    const port = redirect.port !== undefined ? `:${redirect.port}` : '';
    const path =
      redirect.path?.type === 'ReplaceFullPath' ? (redirect.path.replaceFullPath ?? '/') : pathOnly(req.path);
    const status = redirect.statusCode ?? 302;
    return {
      kind: 'redirect',
      location: `${scheme}://${redirect.hostname ?? host}${port}${path}`,
      status,
      contentType: 'text/plain; charset=utf-8',
      body: '',
      route: routeRef,
    };
  }
  const backends = rule.backendRefs ?? [];
  const total = backends.reduce((s, b) => s + (b.weight ?? 1), 0);
  if (total <= 0) return { kind: 'error', route: routeRef, ...INTERNAL_SERVER_ERROR };
  const value = state.rng.int(total);
  let acc = 0;
  let picked = backends[0]!;
  for (const b of backends) {
    acc += b.weight ?? 1;
    if (value < acc) {
      picked = b;
      break;
    }
  }
  if (backendProblem(state, route, picked))
    return { kind: 'error', route: routeRef, ...INTERNAL_SERVER_ERROR };
  const rewrite = filters.find((f) => f.type === 'URLRewrite')?.urlRewrite?.path;
  let upstreamPath = req.path;
  if (rewrite?.type === 'ReplaceFullPath') upstreamPath = rewrite.replaceFullPath ?? '/';
  if (rewrite?.type === 'ReplacePrefixMatch') {
    const prefix = rule.matches?.[0]?.path?.value ?? '/';
    const rest = pathOnly(req.path).slice(prefix.replace(/\/$/, '').length);
    upstreamPath = `${(rewrite.replacePrefixMatch ?? '/').replace(/\/$/, '')}${rest}` || '/';
  }
  return {
    kind: 'backend',
    gateway: { namespace: cand.gw.metadata.namespace ?? 'default', name: cand.gw.metadata.name },
    listener: cand.l.name,
    route: routeRef,
    rule: best.rule,
    backend: {
      namespace: picked.namespace ?? routeRef.namespace,
      name: picked.name,
      ...(picked.port !== undefined ? { port: picked.port } : {}),
    },
    draw: { value, total, weight: picked.weight ?? 1 },
    upstreamPath,
    requestHeaderFilters: filters.filter((f) => f.type === 'RequestHeaderModifier'),
  };
}
