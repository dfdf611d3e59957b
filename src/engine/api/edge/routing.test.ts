import { describe, it, expect } from 'vitest';
import type { Gateway, HTTPRoute, Ingress, IngressClass, Namespace, Secret, Service } from '../objects.ts';
import { Rng } from '../../util/rng.ts';
import { buildIngressRoutingState, ingressCertificate, routeIngressRequest } from './ingress-routing.ts';
import { edgeImplementationOf } from './implementations.ts';
import { routeGatewayRequest, type GatewayRoutingState } from './gateway-routing.ts';
import { attachRoute } from './gateway-attachment.ts';

const meta = (name: string, namespace = 'default', t = '2026-01-01T00:00:00Z', extra = {}) => ({
  name,
  namespace,
  uid: `uid-${namespace}-${name}`,
  resourceVersion: '1',
  creationTimestamp: t,
  ...extra,
});
const pod = (image: string, args: string[] = []) =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta('p'),
    spec: { containers: [{ name: 'c', image, args }] },
  }) as never;
const traefik = edgeImplementationOf(
  pod('rancher/mirrored-library-traefik:3.5.1', ['--providers.kubernetesingress']),
)!;
const nginx = edgeImplementationOf(pod('registry.k8s.io/ingress-nginx/controller:v1.14.0'))!;
const traefikClass = {
  apiVersion: 'networking.k8s.io/v1',
  kind: 'IngressClass',
  metadata: {
    ...meta('traefik', ''),
    annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' },
  },
  spec: { controller: 'traefik.io/ingress-controller' },
} as unknown as IngressClass;
const nginxClass = {
  apiVersion: 'networking.k8s.io/v1',
  kind: 'IngressClass',
  metadata: meta('nginx', ''),
  spec: { controller: 'k8s.io/ingress-nginx' },
} as unknown as IngressClass;

type Path = { path: string; pathType: string; svc: string };
function ingress(
  name: string,
  host: string | undefined,
  paths: Path[],
  extra: Record<string, unknown> = {},
): Ingress {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: meta(name),
    spec: {
      ...extra,
      rules: [
        {
          ...(host ? { host } : {}),
          http: {
            paths: paths.map((p) => ({
              path: p.path,
              pathType: p.pathType,
              backend: { service: { name: p.svc, port: { number: 80 } } },
            })),
          },
        },
      ],
    },
  } as unknown as Ingress;
}

describe('routeIngressRequest', () => {
  const ings = [
    ingress('a', undefined, [
      { path: '/', pathType: 'Prefix', svc: 'root' },
      { path: '/aaa', pathType: 'Prefix', svc: 'aaa' },
      { path: '/aaa/bbb', pathType: 'Prefix', svc: 'bbb' },
      { path: '/foo', pathType: 'Exact', svc: 'foo-exact' },
      { path: '/foo', pathType: 'Prefix', svc: 'foo-prefix' },
    ]),
    ingress('b', 'app.example.com', [{ path: '/', pathType: 'Prefix', svc: 'app' }]),
    ingress('c', '*.example.com', [{ path: '/', pathType: 'Prefix', svc: 'wild' }]),
  ];
  const state = buildIngressRoutingState({ ...traefik, stringPrefix: false }, ings, [traefikClass], []);
  // Multiple-match rows of the kubernetes.io table, plus host precedence.
  it.each([
    ['x', '/aaa/ccc', 'aaa'],
    ['x', '/aaa/bbb', 'bbb'],
    ['x', '/ccc', 'root'],
    ['x', '/foo', 'foo-exact'],
    ['x', '/foo/bar', 'foo-prefix'],
    ['app.example.com', '/aaa', 'app'],
    ['other.example.com', '/aaa/bbb', 'wild'],
    ['a.b.example.com', '/aaa', 'aaa'],
  ])('host %s path %s → %s', (host, path, svc) => {
    const r = routeIngressRequest(state, { host, path, scheme: 'http' });
    expect(r.kind === 'backend' && r.service.name).toBe(svc);
  });

  it('no match: Traefik answers "404 page not found"', () => {
    const s = buildIngressRoutingState(
      traefik,
      [ingress('b', 'app.example.com', [{ path: '/', pathType: 'Prefix', svc: 'app' }])],
      [traefikClass],
      [],
    );
    expect(routeIngressRequest(s, { host: 'nope', path: '/', scheme: 'http' })).toMatchObject({
      kind: 'not-found',
      status: 404,
      body: '404 page not found\n',
    });
  });

  it('no match: ingress-nginx answers its nginx 404 page', () => {
    const ing = { ...ingress('n', 'a.com', [{ path: '/x', pathType: 'Exact', svc: 'x' }]) };
    ing.spec = { ...ing.spec, ingressClassName: 'nginx' };
    const s = buildIngressRoutingState(nginx, [ing], [nginxClass], []);
    const r = routeIngressRequest(s, { host: 'a.com', path: '/y', scheme: 'http' });
    expect('status' in r && r.status).toBe(404);
    expect(r.kind !== 'backend' && r.body).toContain(
      '<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>',
    );
  });

  it('defaultBackend takes what no rule matches', () => {
    const ing = ingress('d', 'a.com', [{ path: '/', pathType: 'Prefix', svc: 'a' }], {
      defaultBackend: { service: { name: 'fallback', port: { number: 8080 } } },
    });
    const r = routeIngressRequest(buildIngressRoutingState(traefik, [ing], [traefikClass], []), {
      host: 'b.com',
      path: '/',
      scheme: 'http',
    });
    expect(r).toMatchObject({
      kind: 'backend',
      service: { name: 'fallback' },
      port: 8080,
      defaultBackend: true,
    });
  });

  it('a controller ignores Ingresses of another class', () => {
    const ing = ingress('n', undefined, [{ path: '/', pathType: 'Prefix', svc: 'x' }], {
      ingressClassName: 'nginx',
    });
    expect(buildIngressRoutingState(traefik, [ing], [traefikClass, nginxClass], []).ingresses).toHaveLength(
      0,
    );
  });

  it('TLS: the Secret when it exists, else TRAEFIK DEFAULT CERT', () => {
    const ing = ingress('t', 'secure.example.com', [{ path: '/', pathType: 'Prefix', svc: 's' }], {
      tls: [{ hosts: ['secure.example.com'], secretName: 'secure-tls' }],
    });
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/tls',
      metadata: meta('secure-tls'),
      data: { 'tls.crt': 'Y2VydA==', 'tls.key': 'a2V5' },
    } as unknown as Secret;
    const withSecret = buildIngressRoutingState(traefik, [ing], [traefikClass], [secret]);
    expect(ingressCertificate(withSecret, 'secure.example.com')).toMatchObject({
      source: 'secret',
      secret: { name: 'secure-tls' },
    });
    const without = buildIngressRoutingState(traefik, [ing], [traefikClass], []);
    expect(ingressCertificate(without, 'secure.example.com')).toMatchObject({
      source: 'default',
      subject: 'CN=TRAEFIK DEFAULT CERT',
    });
  });

  it('ingress-nginx redirects plain HTTP to HTTPS for TLS hosts (308)', () => {
    const ing = ingress('t', 's.com', [{ path: '/', pathType: 'Prefix', svc: 's' }], {
      ingressClassName: 'nginx',
      tls: [{ hosts: ['s.com'], secretName: 'x' }],
    });
    const s = buildIngressRoutingState(nginx, [ing], [nginxClass], []);
    expect(routeIngressRequest(s, { host: 's.com', path: '/a', scheme: 'http' })).toMatchObject({
      kind: 'redirect',
      status: 308,
      location: 'https://s.com/a',
    });
    expect(routeIngressRequest(s, { host: 's.com', path: '/a', scheme: 'https' }).kind).toBe('backend');
  });
});

const gw = (listeners: unknown[], ns = 'infra'): Gateway =>
  ({
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'Gateway',
    metadata: meta('gw', ns),
    spec: { gatewayClassName: 'traefik', listeners },
    status: { addresses: [{ type: 'IPAddress', value: '10.0.0.1' }] },
  }) as unknown as Gateway;
const route = (name: string, ns: string, spec: Record<string, unknown>, t?: string): HTTPRoute =>
  ({
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: meta(name, ns, t),
    spec,
  }) as unknown as HTTPRoute;
const svc = (name: string, ns: string): Service =>
  ({ apiVersion: 'v1', kind: 'Service', metadata: meta(name, ns) }) as Service;
const nsObj = (name: string, labels: Record<string, string> = {}): Namespace =>
  ({ apiVersion: 'v1', kind: 'Namespace', metadata: { ...meta(name, ''), labels } }) as unknown as Namespace;

function world(
  gateways: Gateway[],
  routes: HTTPRoute[],
  extra: Partial<GatewayRoutingState> = {},
): GatewayRoutingState {
  return {
    controllerName: 'traefik.io/gateway-controller',
    gateways,
    routes,
    services: ['a', 'b', 'c', 'v1', 'v2'].flatMap((n) => [svc(n, 'infra'), svc(n, 'apps')]),
    referenceGrants: [],
    namespaces: [nsObj('infra'), nsObj('apps', { shared: 'true' }), nsObj('other')],
    notFound: { status: 404, contentType: 'text/plain; charset=utf-8', body: '404 page not found\n' },
    rng: new Rng(42),
    ...extra,
  };
}
const parent = [{ group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'gw', namespace: 'infra' }];
const backend = (name: string, weight = 1, namespace?: string) => ({
  group: '',
  kind: 'Service',
  name,
  port: 80,
  weight,
  ...(namespace ? { namespace } : {}),
});

describe('HTTPRoute attachment and status reasons', () => {
  it.each([
    [
      'Same (default) rejects another namespace',
      { name: 'web', port: 8000, protocol: 'HTTP' },
      'apps',
      'False',
      'NotAllowedByListeners',
    ],
    [
      'All admits any namespace',
      { name: 'web', port: 8000, protocol: 'HTTP', allowedRoutes: { namespaces: { from: 'All' } } },
      'other',
      'True',
      'Accepted',
    ],
    [
      'Selector admits labelled namespaces',
      {
        name: 'web',
        port: 8000,
        protocol: 'HTTP',
        allowedRoutes: { namespaces: { from: 'Selector', selector: { matchLabels: { shared: 'true' } } } },
      },
      'apps',
      'True',
      'Accepted',
    ],
    [
      'Selector rejects others',
      {
        name: 'web',
        port: 8000,
        protocol: 'HTTP',
        allowedRoutes: { namespaces: { from: 'Selector', selector: { matchLabels: { shared: 'true' } } } },
      },
      'other',
      'False',
      'NotAllowedByListeners',
    ],
    [
      'listener hostname must intersect',
      {
        name: 'web',
        port: 8000,
        protocol: 'HTTP',
        hostname: 'b.example.com',
        allowedRoutes: { namespaces: { from: 'All' } },
      },
      'apps',
      'False',
      'NoMatchingListenerHostname',
    ],
  ])('%s', (_, listener, routeNs, status, reason) => {
    const r = route('r', routeNs, {
      parentRefs: parent,
      hostnames: ['a.example.com'],
      rules: [{ backendRefs: [backend('a')] }],
    });
    const [a] = attachRoute(world([gw([listener])], [r]), r);
    expect(a?.accepted).toMatchObject({ status, reason });
  });

  it('sectionName naming no listener: NoMatchingParent', () => {
    const r = route('r', 'infra', { parentRefs: [{ ...parent[0], sectionName: 'nope' }], rules: [] });
    expect(
      attachRoute(world([gw([{ name: 'web', port: 8000, protocol: 'HTTP' }])], [r]), r)[0]?.accepted.reason,
    ).toBe('NoMatchingParent');
  });

  it('ResolvedRefs: BackendNotFound, RefNotPermitted without a ReferenceGrant, resolved with one', () => {
    const l = [{ name: 'web', port: 8000, protocol: 'HTTP' }];
    const missing = route('r', 'infra', { parentRefs: parent, rules: [{ backendRefs: [backend('ghost')] }] });
    expect(attachRoute(world([gw(l)], [missing]), missing)[0]?.resolvedRefs).toMatchObject({
      status: 'False',
      reason: 'BackendNotFound',
    });
    const cross = route('r', 'infra', {
      parentRefs: parent,
      rules: [{ backendRefs: [backend('a', 1, 'apps')] }],
    });
    expect(attachRoute(world([gw(l)], [cross]), cross)[0]?.resolvedRefs).toMatchObject({
      status: 'False',
      reason: 'RefNotPermitted',
    });
    const grant = {
      apiVersion: 'gateway.networking.k8s.io/v1beta1',
      kind: 'ReferenceGrant',
      metadata: meta('allow', 'apps'),
      spec: {
        from: [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', namespace: 'infra' }],
        to: [{ group: '', kind: 'Service' }],
      },
    } as never;
    expect(
      attachRoute(world([gw(l)], [cross], { referenceGrants: [grant] }), cross)[0]?.resolvedRefs,
    ).toMatchObject({ status: 'True', reason: 'ResolvedRefs' });
  });

  it('Traefik listeners must use an entry point port', () => {
    const r = route('r', 'infra', { parentRefs: parent, rules: [{ backendRefs: [backend('a')] }] });
    const w = world([gw([{ name: 'web', port: 80, protocol: 'HTTP' }])], [r], {
      listenerPorts: [8000, 8443],
    });
    expect(attachRoute(w, r)[0]?.accepted.reason).toBe('NoMatchingParent');
  });
});

describe('routeGatewayRequest', () => {
  const listeners = [{ name: 'web', port: 8000, protocol: 'HTTP' }];
  const req = (path: string, headers: Record<string, string> = {}, host = 'app.example.com') => ({
    host,
    path,
    headers,
    port: 8000,
  });

  it('precedence: Exact over PathPrefix, longest prefix, header matches, then the oldest route', () => {
    const routes = [
      route(
        'old',
        'infra',
        {
          parentRefs: parent,
          rules: [
            { matches: [{ path: { type: 'PathPrefix', value: '/' } }], backendRefs: [backend('a')] },
            { matches: [{ path: { type: 'PathPrefix', value: '/v2' } }], backendRefs: [backend('b')] },
            { matches: [{ path: { type: 'Exact', value: '/v2/exact' } }], backendRefs: [backend('c')] },
          ],
        },
        '2026-01-01T00:00:00Z',
      ),
      route(
        'new',
        'infra',
        {
          parentRefs: parent,
          rules: [
            {
              matches: [
                { path: { type: 'PathPrefix', value: '/v2' }, headers: [{ name: 'version', value: 'two' }] },
              ],
              backendRefs: [backend('v2')],
            },
            { matches: [{ path: { type: 'PathPrefix', value: '/' } }], backendRefs: [backend('v1')] },
          ],
        },
        '2026-01-02T00:00:00Z',
      ),
    ];
    const w = world([gw(listeners)], routes);
    const to = (r: ReturnType<typeof routeGatewayRequest>) =>
      r.kind === 'backend' ? r.backend.name : r.status;
    expect(to(routeGatewayRequest(w, '10.0.0.1', req('/v2/exact')))).toBe('c');
    expect(to(routeGatewayRequest(w, '10.0.0.1', req('/v2/x')))).toBe('b');
    expect(to(routeGatewayRequest(w, '10.0.0.1', req('/v2/x', { Version: 'two' })))).toBe('v2');
    expect(to(routeGatewayRequest(w, '10.0.0.1', req('/v2example')))).toBe('a');
    expect(to(routeGatewayRequest(w, '10.0.0.2', req('/')))).toBe(404);
  });

  it('no route for the host: 404', () => {
    const r = route('r', 'infra', {
      parentRefs: parent,
      hostnames: ['app.example.com'],
      rules: [{ backendRefs: [backend('a')] }],
    });
    expect(
      routeGatewayRequest(world([gw(listeners)], [r]), '10.0.0.1', req('/', {}, 'x.example.com')),
    ).toMatchObject({
      kind: 'not-found',
      status: 404,
    });
  });

  it('weighted backendRefs: exact counts for a fixed seed, ratio over many requests', () => {
    const r = route('split', 'infra', {
      parentRefs: parent,
      rules: [{ backendRefs: [backend('v1', 90), backend('v2', 10)] }],
    });
    const w = world([gw(listeners)], [r], { rng: new Rng(7) });
    const counts = { v1: 0, v2: 0 } as Record<string, number>;
    for (let i = 0; i < 1000; i++) {
      const res = routeGatewayRequest(w, '10.0.0.1', req('/'));
      if (res.kind === 'backend') counts[res.backend.name]!++;
    }
    const again = world([gw(listeners)], [r], { rng: new Rng(7) });
    const first10 = Array.from({ length: 10 }, () => {
      const res = routeGatewayRequest(again, '10.0.0.1', req('/'));
      return res.kind === 'backend' ? res.backend.name : '';
    });
    const replay = world([gw(listeners)], [r], { rng: new Rng(7) });
    expect(
      Array.from({ length: 10 }, () => {
        const res = routeGatewayRequest(replay, '10.0.0.1', req('/'));
        return res.kind === 'backend' ? res.backend.name : '';
      }),
    ).toEqual(first10);
    expect(counts.v1! + counts.v2!).toBe(1000);
    expect(counts.v2).toBeGreaterThan(70);
    expect(counts.v2).toBeLessThan(130);
  });

  it('weight 0 never receives traffic; an unresolvable backend share answers 500', () => {
    const r = route('r', 'infra', {
      parentRefs: parent,
      rules: [{ backendRefs: [backend('a', 0), backend('ghost', 1)] }],
    });
    const res = routeGatewayRequest(world([gw(listeners)], [r]), '10.0.0.1', req('/'));
    expect(res).toMatchObject({ kind: 'error', status: 500 });
  });
});
