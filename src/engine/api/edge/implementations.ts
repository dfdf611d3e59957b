/**
 * The north-south proxies the engine knows, recognised from a running pod's image and flags as their
 * own code reads them: Traefik (k3s's bundled one or the upstream image; `--providers.kubernetesingress`
 * and `--providers.kubernetesgateway`) and ingress-nginx's controller (retired upstream in March 2026,
 * still found on existing clusters). Each brings what a client sees when nothing matches: Traefik
 * answers Go's `http.NotFound` ("404 page not found") and serves "TRAEFIK DEFAULT CERT"; ingress-nginx
 * answers nginx's error page without a version and serves its "Fake Certificate".
 */
import type { Pod } from '../objects.ts';
import { parseImageRef, repositoryOf } from '../image-ref.ts';

export type EdgeImplementationId = 'traefik' | 'ingress-nginx';

export interface HttpReply {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  readonly server?: string;
}

export interface DefaultCertificate {
  readonly subject: string;
  readonly issuer: string;
}

export interface EdgeImplementation {
  readonly id: EdgeImplementationId;
  /** IngressClass `spec.controller` this proxy claims. */
  readonly ingressController: string;
  /** GatewayClass `spec.controllerName`, when the Gateway API provider is on. */
  readonly gatewayController?: string;
  readonly notFound: HttpReply;
  readonly defaultCertificate: DefaultCertificate;
  /** Ingress `Prefix` evaluated as a character prefix (Traefik without strictPrefixMatching). */
  readonly stringPrefix: boolean;
  /** Handles Ingresses that name no class. */
  readonly watchesClassless: boolean;
  /** `kubernetes.io/ingress.class` annotation value it accepts. */
  readonly annotationClass: string;
  /** Command-line flags, `--name=value` lower-cased names (values as given). */
  readonly flags: ReadonlyMap<string, string>;
}

export const TRAEFIK_INGRESS_CONTROLLER = 'traefik.io/ingress-controller';
export const TRAEFIK_GATEWAY_CONTROLLER = 'traefik.io/gateway-controller';
export const NGINX_INGRESS_CONTROLLER = 'k8s.io/ingress-nginx';

const TRAEFIK_NOT_FOUND: HttpReply = {
  status: 404,
  contentType: 'text/plain; charset=utf-8',
  body: '404 page not found\n',
};

const NGINX_NOT_FOUND: HttpReply = {
  status: 404,
  contentType: 'text/html',
  server: 'nginx',
  body: '<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
};

/** What Go's `http.Error(w, http.StatusText(500), 500)` writes: a route whose backends are all invalid. */
export const INTERNAL_SERVER_ERROR: HttpReply = {
  status: 500,
  contentType: 'text/plain; charset=utf-8',
  body: 'Internal Server Error\n',
};

/** `--a.b=c`, `--a.b c` is not accepted by these binaries' flag parsers for booleans; a bare flag is "true". */
export function parseFlags(args: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const a of args) {
    if (!a.startsWith('--')) continue;
    const eq = a.indexOf('=');
    out.set((eq < 0 ? a.slice(2) : a.slice(2, eq)).toLowerCase(), eq < 0 ? 'true' : a.slice(eq + 1));
  }
  return out;
}

function isTrue(v: string | undefined): boolean {
  return v !== undefined && v.toLowerCase() !== 'false';
}

function repositoryOfImage(image: string): string {
  const parsed = parseImageRef(image);
  return 'error' in parsed ? '' : repositoryOf(parsed.ref);
}

/** The edge proxy a pod runs, or undefined. Only the first recognised container counts. */
export function edgeImplementationOf(pod: Pod): EdgeImplementation | undefined {
  for (const c of pod.spec?.containers ?? []) {
    const repo = repositoryOfImage(c.image ?? '');
    const flags = parseFlags([...(c.command ?? []), ...(c.args ?? [])]);
    if (repo === 'docker.io/library/traefik' || repo.endsWith('/traefik') || repo.endsWith('-traefik')) {
      const gateway = isTrue(flags.get('providers.kubernetesgateway'));
      return {
        id: 'traefik',
        ingressController: TRAEFIK_INGRESS_CONTROLLER,
        ...(gateway ? { gatewayController: TRAEFIK_GATEWAY_CONTROLLER } : {}),
        notFound: TRAEFIK_NOT_FOUND,
        defaultCertificate: { subject: 'CN=TRAEFIK DEFAULT CERT', issuer: 'CN=TRAEFIK DEFAULT CERT' },
        stringPrefix: !isTrue(flags.get('providers.kubernetesingress.strictprefixmatching')),
        watchesClassless: true,
        annotationClass: flags.get('providers.kubernetesingress.ingressclass') ?? 'traefik',
        flags,
      };
    }
    if (repo === 'registry.k8s.io/ingress-nginx/controller' || repo.endsWith('/nginx-ingress-controller')) {
      return {
        id: 'ingress-nginx',
        ingressController: flags.get('controller-class') ?? NGINX_INGRESS_CONTROLLER,
        notFound: NGINX_NOT_FOUND,
        defaultCertificate: {
          subject: 'O=Acme Co, CN=Kubernetes Ingress Controller Fake Certificate',
          issuer: 'O=Acme Co, CN=Kubernetes Ingress Controller Fake Certificate',
        },
        stringPrefix: false,
        watchesClassless: isTrue(flags.get('watch-ingress-without-class')),
        annotationClass: flags.get('ingress-class') ?? 'nginx',
        flags,
      };
    }
  }
  return undefined;
}

/** Whether the pod is up to serve: Running with every container ready. */
export function isServing(pod: Pod): boolean {
  return (
    !pod.metadata.deletionTimestamp &&
    pod.status?.phase === 'Running' &&
    (pod.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')
  );
}
