/**
 * ServiceLB, MetalLB, the Ingress controllers and the Gateway API controller, driven the way a learner
 * drives them: `kubectl` lines in a booted cluster. Expected texts come from the components' sources
 * (k3s servicelb.go event wording, MetalLB's controller/speaker events, the Gateway CRDs' default
 * status) and kubectl's printers (`<pending>`, empty Ingress ADDRESS).
 */
import { describe, it, expect } from 'vitest';
import type { Cluster } from '../cluster/cluster.ts';
import { createCluster } from '../cluster/cluster.ts';
import { parseClusterConfig } from '../api/cluster-config.ts';
import { METALLB_NATIVE_YAML } from '../cluster/addons/metallb.ts';
import { TRAEFIK_YAML } from '../cluster/addons/traefik.ts';
import { announcingNode } from '../api/edge/metallb-pools.ts';
import { loadBalancerTarget } from '../dataplane/edge/index.ts';
import { eventsFor } from './test-helpers.ts';

const K3S = 'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\npacketpath:\n  distribution: k3s\n';

async function sh(c: Cluster, line: string): Promise<string> {
  const r = await c.exec(line);
  return r.stdout + r.stderr;
}

const ONE_IP_POOL = `apiVersion: metallb.io/v1beta1
kind: IPAddressPool
metadata: {name: one, namespace: metallb-system}
spec:
  addresses: [172.18.255.200/32]
---
apiVersion: metallb.io/v1beta1
kind: L2Advertisement
metadata: {name: l2, namespace: metallb-system}
`;

const INGRESS = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web}
spec:
  rules:
  - host: web.example.com
    http:
      paths:
      - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
`;

const GATEWAY = `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw}
spec:
  gatewayClassName: traefik
  listeners:
  - {name: web, port: 8000, protocol: HTTP}
  - {name: wrong, port: 80, protocol: HTTP}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: app}
spec:
  parentRefs: [{name: gw, sectionName: web}]
  hostnames: [app.example.com]
  rules:
  - backendRefs: [{name: web, port: 80}]
`;

describe('kubeadm without providers', () => {
  it('LoadBalancer stays <pending>, Ingress has no ADDRESS, Gateway waits for a controller', async () => {
    const c = createCluster(undefined, { seed: 3, files: { 'ing.yaml': INGRESS, 'gw.yaml': GATEWAY } });
    await sh(c, 'kubectl create deployment web --image=nginx');
    await sh(c, 'kubectl expose deployment web --port=80 --type=LoadBalancer');
    await sh(c, 'kubectl apply -f ing.yaml');
    await sh(c, 'kubectl apply -f gw.yaml');
    expect(await sh(c, 'kubectl get svc web')).toMatch(/web\s+LoadBalancer\s+\S+\s+<pending>\s+80:\d+\/TCP/);
    expect(await sh(c, 'kubectl get ingress web')).toMatch(/^web\s+<none>\s+web\.example\.com\s+80\s+\d+s$/m);
    expect(await sh(c, 'kubectl get gateway gw')).toMatch(/^gw\s+traefik\s+Unknown\s+\d+s$/m);
    expect(await sh(c, 'kubectl get httproute app -o jsonpath={.status}')).toBe('');
  });
});

describe('k3s ServiceLB', () => {
  it('gives every LoadBalancer Service the node IPs of ready svclb pods, and cleans up', async () => {
    const c = createCluster(K3S, { seed: 1 });
    await sh(c, 'kubectl create deployment web --image=nginx');
    await sh(c, 'kubectl expose deployment web --port=8080 --target-port=80 --type=LoadBalancer');
    const svc = c.api.get('services', 'default', 'web')!;
    const nodeIPs = c.config.nodes.map((n) => n.internalIP).sort();
    expect(svc.status?.loadBalancer?.ingress?.map((i) => i.ip)).toEqual(nodeIPs);
    const ds = `svclb-web-${svc.metadata.uid.slice(0, 8)}`;
    expect(await sh(c, 'kubectl get ds -n kube-system')).toContain(ds);
    expect(eventsFor(c, svc).map((e) => `${e.reason}: ${e.message}`)).toContain(
      `UpdatedLoadBalancer: Updated LoadBalancer with new IPs: [] -> [${nodeIPs.join(' ')}]`,
    );
    expect(loadBalancerTarget(c, nodeIPs[1]!, 8080)).toMatchObject({
      via: 'servicelb',
      service: { name: 'web' },
    });
    // Port 80 is Traefik's hostPort on every node: the new Service's svclb pods cannot schedule.
    await sh(c, 'kubectl expose deployment web --name=web80 --port=80 --type=LoadBalancer');
    expect(await sh(c, 'kubectl get svc web80')).toMatch(/<pending>/);
    await sh(c, 'kubectl delete svc web');
    expect(await sh(c, 'kubectl get ds -n kube-system')).not.toContain(ds);
  });

  it('is off with packetpath.k3s.disable: [servicelb]; Traefik then publishes no Ingress address', async () => {
    const c = createCluster(parseClusterConfig(`${K3S}  k3s:\n    disable: [servicelb]\n`), {
      seed: 1,
      files: { 'ing.yaml': INGRESS },
    });
    expect(await sh(c, 'kubectl get svc -n kube-system traefik')).toMatch(/<pending>/);
    await sh(c, 'kubectl apply -f ing.yaml');
    expect(await sh(c, 'kubectl get ingress')).toMatch(/^web\s+<none>\s+web\.example\.com\s+80\s+/m);
  });

  it('Traefik publishes its Service address on Ingresses of the default class', async () => {
    const c = createCluster(K3S, { seed: 2, files: { 'ing.yaml': INGRESS } });
    await sh(c, 'kubectl apply -f ing.yaml');
    const ips = c.config.nodes.map((n) => n.internalIP).sort();
    const ing = c.api.get('ingresses.networking.k8s.io', 'default', 'web')!;
    expect(ing.status?.loadBalancer?.ingress?.map((i) => i.ip)).toEqual(ips);
  });
});

describe('MetalLB L2, Traefik and Gateway API on kind', () => {
  it('allocates, exhausts, releases and announces; Traefik programs Gateways', async () => {
    const c = createCluster(undefined, {
      seed: 5,
      files: {
        'metallb-native.yaml': METALLB_NATIVE_YAML,
        'pool.yaml': ONE_IP_POOL,
        'traefik.yaml': TRAEFIK_YAML,
        'gw.yaml': GATEWAY,
      },
    });
    await sh(c, 'kubectl apply -f metallb-native.yaml');
    expect(
      c.waitFor(
        () => c.api.list('pods', 'metallb-system').every((p) => p.status?.phase === 'Running'),
        120_000,
      ),
    ).toBe(true);
    c.waitFor(() => false, 30_000);
    await sh(c, 'kubectl apply -f pool.yaml');
    await sh(c, 'kubectl create deployment web --image=nginx');
    await sh(c, 'kubectl expose deployment web --port=80 --type=LoadBalancer');
    expect(await sh(c, 'kubectl get svc web')).toMatch(/web\s+LoadBalancer\s+\S+\s+172\.18\.255\.200\s+80:/);
    const web = c.api.get('services', 'default', 'web')!;
    const node = announcingNode(c.api, '172.18.255.200');
    expect(c.config.nodes.map((n) => n.name)).toContain(node);
    expect(eventsFor(c, web).map((e) => `${e.reason}: ${e.message}`)).toEqual(
      expect.arrayContaining([
        'IPAllocated: Assigned IP ["172.18.255.200"]',
        `nodeAssigned: announcing from node "${node}" with protocol "layer2"`,
      ]),
    );
    expect(loadBalancerTarget(c, '172.18.255.200', 80)).toEqual({
      node,
      service: { namespace: 'default', name: 'web' },
      via: 'metallb-l2',
    });

    await sh(c, 'kubectl expose deployment web --name=second --port=80 --type=LoadBalancer');
    expect(await sh(c, 'kubectl get svc second')).toMatch(/<pending>/);
    const second = c.api.get('services', 'default', 'second')!;
    expect(eventsFor(c, second)).toContainEqual(
      expect.objectContaining({
        type: 'Warning',
        reason: 'AllocationFailed',
        message: 'Failed to allocate IP for "default/second": no available IPs',
      }),
    );
    await sh(c, 'kubectl delete svc web');
    expect(await sh(c, 'kubectl get svc second')).toMatch(/172\.18\.255\.200/);
    await sh(c, 'kubectl delete svc second');

    await sh(c, 'kubectl apply -f traefik.yaml');
    expect(
      c.waitFor(() => c.api.list('pods', 'traefik').some((p) => p.status?.phase === 'Running'), 120_000),
    ).toBe(true);
    c.waitFor(() => false, 30_000);
    expect(await sh(c, 'kubectl get gatewayclass')).toMatch(
      /^traefik\s+traefik\.io\/gateway-controller\s+True\s+/m,
    );
    await sh(c, 'kubectl apply -f gw.yaml');
    expect(await sh(c, 'kubectl get gateway gw')).toMatch(/^gw\s+traefik\s+172\.18\.255\.200\s+True\s+/m);
    const gw = c.api.get('gateways.gateway.networking.k8s.io', 'default', 'gw')!;
    expect(gw.status?.listeners?.map((l) => [l.name, l.attachedRoutes, l.conditions[0]?.reason])).toEqual([
      ['web', 1, 'Accepted'],
      ['wrong', 0, 'PortUnavailable'],
    ]);
    const conditions = () =>
      c.api
        .get('httproutes.gateway.networking.k8s.io', 'default', 'app')!
        .status?.parents[0]?.conditions.map((x) => `${x.type}=${x.status}/${x.reason}`);
    // The `web` Service was deleted above: the route is accepted but its backend does not resolve.
    expect(conditions()).toEqual(['Accepted=True/Accepted', 'ResolvedRefs=False/BackendNotFound']);
    await sh(c, 'kubectl expose deployment web --port=80');
    expect(conditions()).toEqual(['Accepted=True/Accepted', 'ResolvedRefs=True/ResolvedRefs']);
  });
});
