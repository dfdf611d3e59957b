/**
 * The matching rules of Ingress and Gateway API, as the specifications state them: Ingress `Prefix`
 * and Gateway `PathPrefix` compare path elements split by `/` (kubernetes.io "Ingress" examples table:
 * `/aaa/bb` does not match `/aaa/bbb`, a trailing slash is ignored), `Exact` compares the whole path;
 * Ingress host wildcards cover exactly one DNS label, Gateway API wildcards one or more.
 */

/** The request path without its query string or fragment. */
export function pathOnly(path: string): string {
  const cut = path.search(/[?#]/);
  const p = cut < 0 ? path : path.slice(0, cut);
  return p.startsWith('/') ? p : `/${p}`;
}

/** The Host header without a port, lower-cased (host names compare case-insensitively). */
export function hostOnly(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.lastIndexOf(':');
  return colon < 0 ? h : h.slice(0, colon);
}

function elements(path: string): string[] {
  return path.split('/').filter((e) => e !== '');
}

/** Element-wise prefix: `/foo` matches `/foo`, `/foo/` and `/foo/bar`, never `/foobar`. */
export function elementPrefixMatch(prefix: string, path: string): boolean {
  const want = elements(prefix);
  const got = elements(pathOnly(path));
  if (want.length > got.length) return false;
  return want.every((e, i) => got[i] === e);
}

export type IngressPathType = 'Exact' | 'Prefix' | 'ImplementationSpecific';

/**
 * Whether an Ingress path matches. `stringPrefix` is how Traefik evaluates `Prefix` unless started
 * with `strictPrefixMatching` (its `PathPrefix` matcher is a character prefix: traefik/traefik#11200),
 * and how both Traefik and ingress-nginx treat `ImplementationSpecific`.
 */
export function ingressPathMatches(
  type: IngressPathType,
  value: string,
  requestPath: string,
  stringPrefix = false,
): boolean {
  const path = pathOnly(requestPath);
  if (type === 'Exact') return path === value;
  if (type === 'Prefix' && !stringPrefix) return elementPrefixMatch(value, path);
  return path.startsWith(value);
}

/** An Ingress rule host: exact, or `*.example.com` covering one label (`foo.example.com`, not `a.b.example.com`). */
export function ingressHostMatches(ruleHost: string | undefined, host: string): boolean {
  if (!ruleHost) return true;
  const h = hostOnly(host);
  const r = ruleHost.toLowerCase();
  if (!r.startsWith('*.')) return h === r;
  const suffix = r.slice(1);
  if (!h.endsWith(suffix)) return false;
  const label = h.slice(0, h.length - suffix.length);
  return label.length > 0 && !label.includes('.');
}

/** A Gateway API hostname: exact, or `*.example.com` covering one or more labels (never `example.com`). */
export function gatewayHostMatches(pattern: string, host: string): boolean {
  const h = hostOnly(host);
  const p = pattern.toLowerCase();
  if (!p.startsWith('*.')) return h === p;
  return h.endsWith(p.slice(1)) && h.length > p.length - 1;
}

/**
 * The intersection of a listener's hostname and a route's hostnames (Gateway API "hostnames"): the more
 * specific of two compatible names, or undefined when they cannot both match a request.
 */
export function intersectHostnames(listener: string | undefined, route: string): string | undefined {
  if (!listener) return route;
  const l = listener.toLowerCase();
  const r = route.toLowerCase();
  if (l === r) return l;
  if (!l.startsWith('*.') && gatewayHostMatches(r, l)) return l;
  if (!r.startsWith('*.') && gatewayHostMatches(l, r)) return r;
  if (l.startsWith('*.') && r.startsWith('*.')) {
    if (r.endsWith(l.slice(1))) return r;
    if (l.endsWith(r.slice(1))) return l;
  }
  return undefined;
}

export type GatewayPathType = 'Exact' | 'PathPrefix' | 'RegularExpression';

/** HTTPRoute path match; a regular expression must match the whole path (invalid ones never match). */
export function gatewayPathMatches(type: GatewayPathType, value: string, requestPath: string): boolean {
  const path = pathOnly(requestPath);
  if (type === 'Exact') return path === value;
  if (type === 'PathPrefix') return elementPrefixMatch(value, path);
  try {
    return new RegExp(`^(?:${value})$`).test(path);
  } catch {
    return false;
  }
}

/** Header or query value match; names are compared case-insensitively for headers. */
export function stringMatches(
  type: 'Exact' | 'RegularExpression',
  want: string,
  got: string | undefined,
): boolean {
  if (got === undefined) return false;
  if (type === 'Exact') return got === want;
  try {
    return new RegExp(`^(?:${want})$`).test(got);
  } catch {
    return false;
  }
}
