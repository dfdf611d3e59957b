/**
 * Reads the cluster into the routing states of `ingress-routing.ts` and `gateway-routing.ts`: which
 * edge proxies run (their ready pods), the address each one publishes, and the objects each serves.
 * The controllers write status from these; the connection model calls `ingressStateForPod` /
 * `gatewayStateForPod` when a request reaches a proxy's pod.
 */
import type { LoadBalancerIngress } from 'kubernetes-types/core/v1';
import type { Pod } from '../objects.ts';
import type { ObjectReader } from '../store.ts';
import { edgeImplementationOf, isServing, type EdgeImplementation } from './implementations.ts';
import { buildIngressRoutingState, type IngressRoutingState } from './ingress-routing.ts';
import type { GatewayRoutingState } from './gateway-routing.ts';

type ReadApi = ObjectReader;

export interface EdgeProxy {
  readonly pod: Pod;
  readonly implementation: EdgeImplementation;
}

/** Every ready pod running a known edge proxy, sorted by namespace/name. */
export function runningEdgeProxies(api: ReadApi): EdgeProxy[] {
  const out: EdgeProxy[] = [];
  for (const pod of api.list('pods')) {
    if (!isServing(pod)) continue;
    const implementation = edgeImplementationOf(pod);
    if (implementation) out.push({ pod, implementation });
  }
  return out.sort((a, b) =>
    `${a.pod.metadata.namespace}/${a.pod.metadata.name}` <
    `${b.pod.metadata.namespace}/${b.pod.metadata.name}`
      ? -1
      : 1,
  );
}

function serviceIngress(api: ReadApi, ref: string | undefined, podNs: string): LoadBalancerIngress[] {
  if (!ref) return [];
  const slash = ref.indexOf('/');
  const ns = slash < 0 ? podNs : ref.slice(0, slash);
  const name = slash < 0 ? ref : ref.slice(slash + 1);
  return (api.get('services', ns, name)?.status?.loadBalancer?.ingress ?? []).map((i) =>
    i.ip ? { ip: i.ip } : { hostname: i.hostname ?? '' },
  );
}

const isIP = (s: string) => /^[0-9.]+$/.test(s) || s.includes(':');

/**
 * The `status.loadBalancer.ingress` a proxy publishes on its Ingresses, or undefined when it is not
 * configured to publish (Traefik without `ingressendpoint`): Traefik's `ingressendpoint.ip/hostname/
 * publishedservice`; ingress-nginx's `--publish-status-address`, `--publish-service`, else the
 * addresses of the nodes its pods run on.
 */
export function publishedAddress(
  api: ReadApi,
  proxy: EdgeProxy,
  all: readonly EdgeProxy[],
): LoadBalancerIngress[] | undefined {
  const f = proxy.implementation.flags;
  const ns = proxy.pod.metadata.namespace ?? 'default';
  if (proxy.implementation.id === 'traefik') {
    const ip = f.get('providers.kubernetesingress.ingressendpoint.ip');
    if (ip) return [{ ip }];
    const hostname = f.get('providers.kubernetesingress.ingressendpoint.hostname');
    if (hostname) return [{ hostname }];
    const svc = f.get('providers.kubernetesingress.ingressendpoint.publishedservice');
    return svc ? serviceIngress(api, svc, ns) : undefined;
  }
  const status = f.get('publish-status-address');
  if (status)
    return status
      .split(',')
      .filter(Boolean)
      .map((a) => (isIP(a) ? { ip: a } : { hostname: a }));
  const svc = f.get('publish-service');
  if (svc) return serviceIngress(api, svc, ns);
  const ips = new Set<string>();
  for (const p of all) {
    if (p.implementation.id !== proxy.implementation.id || p.pod.metadata.namespace !== ns) continue;
    const node = api.get('nodes', '', p.pod.spec?.nodeName ?? '');
    const addr =
      node?.status?.addresses?.find((a) => a.type === 'ExternalIP') ??
      node?.status?.addresses?.find((a) => a.type === 'InternalIP');
    if (addr) ips.add(addr.address);
  }
  return [...ips].sort().map((ip) => ({ ip }));
}

/** The Ingress routing state of the proxy in `pod`, or undefined when the pod runs none. */
export function ingressStateForPod(api: ReadApi, pod: Pod): IngressRoutingState | undefined {
  const impl = edgeImplementationOf(pod);
  if (!impl) return undefined;
  return buildIngressRoutingState(
    impl,
    api.list('ingresses.networking.k8s.io'),
    api.list('ingressclasses.networking.k8s.io'),
    api.list('secrets').filter((s) => s.type === 'kubernetes.io/tls'),
  );
}

/** Traefik's entry point ports from `--entryPoints.<name>.address=:8000/tcp`. */
export function entryPointPorts(impl: EdgeImplementation): number[] {
  const ports: number[] = [];
  for (const [k, v] of impl.flags) {
    const m = /^entrypoints\.[^.]+\.address$/.exec(k) && /:(\d+)/.exec(v);
    if (m) ports.push(Number(m[1]));
  }
  return ports.sort((a, b) => a - b);
}

/** The Gateway addresses a Traefik publishes: `statusaddress.*`, else its Ingress endpoint. */
export function gatewayAddressOf(
  api: ReadApi,
  proxy: EdgeProxy,
  all: readonly EdgeProxy[],
): LoadBalancerIngress[] {
  const f = proxy.implementation.flags;
  const ip = f.get('providers.kubernetesgateway.statusaddress.ip');
  if (ip) return [{ ip }];
  const hostname = f.get('providers.kubernetesgateway.statusaddress.hostname');
  if (hostname) return [{ hostname }];
  const name = f.get('providers.kubernetesgateway.statusaddress.service.name');
  if (name) {
    const ns =
      f.get('providers.kubernetesgateway.statusaddress.service.namespace') ??
      proxy.pod.metadata.namespace ??
      '';
    return serviceIngress(api, `${ns}/${name}`, ns);
  }
  return publishedAddress(api, proxy, all) ?? [];
}

/** The Gateway routing state of the proxy in `pod` (undefined unless it runs a Gateway provider). */
export function gatewayStateForPod(
  api: ReadApi,
  pod: Pod,
  rng: { int(n: number): number },
): GatewayRoutingState | undefined {
  const impl = edgeImplementationOf(pod);
  if (!impl?.gatewayController) return undefined;
  const classes = new Set(
    api
      .list('gatewayclasses.gateway.networking.k8s.io')
      .filter((c) => c.spec?.controllerName === impl.gatewayController)
      .map((c) => c.metadata.name),
  );
  return {
    controllerName: impl.gatewayController,
    gateways: api
      .list('gateways.gateway.networking.k8s.io')
      .filter((g) => classes.has(g.spec?.gatewayClassName)),
    routes: api.list('httproutes.gateway.networking.k8s.io'),
    services: api.list('services'),
    referenceGrants: api.list('referencegrants.gateway.networking.k8s.io'),
    namespaces: api.list('namespaces'),
    listenerPorts: impl.id === 'traefik' ? entryPointPorts(impl) : undefined,
    notFound: impl.notFound,
    rng,
  };
}
