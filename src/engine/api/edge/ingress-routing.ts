/**
 * How an Ingress controller picks the backend of one HTTP request, as a pure function of the Ingresses
 * it serves. Precedence follows the Ingress specification and what the controllers do with it: a rule
 * naming the exact host beats a wildcard host, which beats a rule without host; then the longest
 * matching path; then `Exact` over `Prefix`; then the oldest Ingress. A request nothing matches goes to
 * an Ingress's `defaultBackend`, else gets the controller's own 404. ingress-nginx redirects plain HTTP
 * to HTTPS (308) for hosts listed under `tls` (its `ssl-redirect` default).
 */
import type { Ingress, IngressClass, Secret } from '../objects.ts';
import type { EdgeImplementation, HttpReply } from './implementations.ts';
import {
  hostOnly,
  ingressHostMatches,
  ingressPathMatches,
  pathOnly,
  type IngressPathType,
} from './http-match.ts';

export interface ObjectRef {
  readonly namespace: string;
  readonly name: string;
}

export interface IngressRoutingState {
  readonly implementation: EdgeImplementation;
  /** The Ingresses this controller serves, oldest first. */
  readonly ingresses: readonly Ingress[];
  /** Secrets the Ingresses' `tls` entries may name. */
  readonly secrets: readonly Secret[];
}

export interface IngressRequest {
  readonly host: string;
  /** Path with any query string. */
  readonly path: string;
  readonly scheme: 'http' | 'https';
}

export type IngressRouteResult =
  | {
      readonly kind: 'backend';
      readonly ingress: ObjectRef;
      readonly service: ObjectRef;
      /** The Service port the backend names (number, or name to resolve on the Service). */
      readonly port: number | string;
      readonly rule: { readonly host?: string; readonly path?: string; readonly pathType?: IngressPathType };
      readonly defaultBackend: boolean;
    }
  | ({ readonly kind: 'redirect'; readonly location: string } & HttpReply)
  | ({ readonly kind: 'not-found' } & HttpReply);

/** The IngressClass a class-less Ingress falls under (the one annotated as the cluster default). */
export function defaultIngressClass(classes: readonly IngressClass[]): IngressClass | undefined {
  const defaults = classes
    .filter((c) => c.metadata.annotations?.['ingressclass.kubernetes.io/is-default-class'] === 'true')
    .sort((a, b) => (a.metadata.creationTimestamp < b.metadata.creationTimestamp ? 1 : -1));
  // The DefaultIngressClass admission plugin takes the newest default when several exist.
  return defaults[0];
}

/** Whether a controller serves this Ingress (its class, the legacy annotation, or no class at all). */
export function servesIngress(
  impl: EdgeImplementation,
  ing: Ingress,
  classes: readonly IngressClass[],
): boolean {
  const className = ing.spec?.ingressClassName;
  if (className) {
    const cls = classes.find((c) => c.metadata.name === className);
    return cls?.spec?.controller === impl.ingressController;
  }
  const annotation = ing.metadata.annotations?.['kubernetes.io/ingress.class'];
  if (annotation !== undefined) return annotation === impl.annotationClass;
  const def = defaultIngressClass(classes);
  if (def) return def.spec?.controller === impl.ingressController;
  return impl.watchesClassless;
}

export function byAge<
  T extends { metadata: { creationTimestamp: string; namespace?: string; name: string } },
>(a: T, b: T): number {
  const ta = a.metadata.creationTimestamp;
  const tb = b.metadata.creationTimestamp;
  if (ta !== tb) return ta < tb ? -1 : 1;
  const ka = `${a.metadata.namespace ?? ''}/${a.metadata.name}`;
  const kb = `${b.metadata.namespace ?? ''}/${b.metadata.name}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

export function buildIngressRoutingState(
  implementation: EdgeImplementation,
  ingresses: readonly Ingress[],
  classes: readonly IngressClass[],
  secrets: readonly Secret[],
): IngressRoutingState {
  return {
    implementation,
    ingresses: ingresses
      .filter((i) => !i.metadata.deletionTimestamp && servesIngress(implementation, i, classes))
      .sort(byAge),
    secrets,
  };
}

function tlsHosts(ing: Ingress): string[] {
  return (ing.spec?.tls ?? []).flatMap((t) => t.hosts ?? []);
}

export function routeIngressRequest(state: IngressRoutingState, req: IngressRequest): IngressRouteResult {
  const impl = state.implementation;
  let best:
    | { score: [number, number, number]; result: IngressRouteResult & { kind: 'backend' }; ing: Ingress }
    | undefined;
  for (const ing of state.ingresses) {
    const ref = { namespace: ing.metadata.namespace ?? 'default', name: ing.metadata.name };
    for (const rule of ing.spec?.rules ?? []) {
      if (!ingressHostMatches(rule.host, req.host)) continue;
      const hostLevel = !rule.host ? 0 : rule.host.startsWith('*.') ? 1 : 2;
      for (const p of rule.http?.paths ?? []) {
        const type = (p.pathType ?? 'ImplementationSpecific') as IngressPathType;
        const value = p.path ?? '/';
        if (!ingressPathMatches(type, value, req.path, impl.stringPrefix)) continue;
        const svc = p.backend.service;
        if (!svc) continue;
        const score: [number, number, number] = [hostLevel, value.length, type === 'Exact' ? 1 : 0];
        if (best && !beats(score, best.score)) continue;
        best = {
          score,
          ing,
          result: {
            kind: 'backend',
            ingress: ref,
            service: { namespace: ref.namespace, name: svc.name },
            port: svc.port?.number ?? svc.port?.name ?? 80,
            rule: { ...(rule.host ? { host: rule.host } : {}), path: value, pathType: type },
            defaultBackend: false,
          },
        };
      }
    }
  }
  const host = hostOnly(req.host);
  if (best && impl.id === 'ingress-nginx' && req.scheme === 'http' && tlsHosts(best.ing).includes(host)) {
    return {
      kind: 'redirect',
      status: 308,
      location: `https://${host}${req.path.startsWith('/') ? req.path : `/${pathOnly(req.path)}`}`,
      contentType: 'text/html',
      server: 'nginx',
      body: '<html>\r\n<head><title>308 Permanent Redirect</title></head>\r\n<body>\r\n<center><h1>308 Permanent Redirect</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
    };
  }
  if (best) return best.result;
  for (const ing of state.ingresses) {
    const svc = ing.spec?.defaultBackend?.service;
    if (!svc) continue;
    const namespace = ing.metadata.namespace ?? 'default';
    return {
      kind: 'backend',
      ingress: { namespace, name: ing.metadata.name },
      service: { namespace, name: svc.name },
      port: svc.port?.number ?? svc.port?.name ?? 80,
      rule: {},
      defaultBackend: true,
    };
  }
  return { kind: 'not-found', ...impl.notFound };
}

function beats(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

export type ServedCertificate =
  | { readonly source: 'secret'; readonly secret: ObjectRef; readonly hosts: readonly string[] }
  | ({ readonly source: 'default' } & {
      readonly subject: string;
      readonly issuer: string;
      readonly reason: string;
    });

/**
 * The certificate an HTTPS client gets for an SNI name: the `kubernetes.io/tls` Secret of the first
 * `tls` entry listing the host (oldest Ingress first), or the controller's self-signed default when no
 * entry lists it or its Secret is missing or not a usable TLS Secret.
 */
export function ingressCertificate(state: IngressRoutingState, sni: string): ServedCertificate {
  const host = hostOnly(sni);
  const fallback = (reason: string): ServedCertificate => ({
    source: 'default',
    ...state.implementation.defaultCertificate,
    reason,
  });
  for (const ing of state.ingresses) {
    const namespace = ing.metadata.namespace ?? 'default';
    for (const t of ing.spec?.tls ?? []) {
      if (!(t.hosts ?? []).some((h) => ingressHostMatches(h, host))) continue;
      if (!t.secretName) return fallback('no secretName');
      const secret = state.secrets.find(
        (s) => s.metadata.namespace === namespace && s.metadata.name === t.secretName,
      );
      if (!secret) return fallback(`secret ${namespace}/${t.secretName} does not exist`);
      if (!secret.data?.['tls.crt'] || !secret.data['tls.key'])
        return fallback(`secret ${namespace}/${t.secretName} must contain tls.crt and tls.key`);
      return { source: 'secret', secret: { namespace, name: t.secretName }, hosts: t.hosts ?? [] };
    }
  }
  return fallback('no tls entry for the host');
}
