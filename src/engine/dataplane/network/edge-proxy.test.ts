/**
 * Requests through an edge proxy, end to end: k3s's bundled Traefik behind ServiceLB, reached from the
 * learner's machine and from a pod. Expected behaviour from the upstream sources:
 * - routing precedence and matching: the Ingress spec (kubernetes.io "Ingress", path types table);
 * - Traefik dials the Service's endpoints itself (traefik `pkg/provider/kubernetes/ingress/kubernetes.go`
 *   `loadService`), so a NetworkPolicy on the backend sees the Traefik pod as the source;
 * - no match: Go's `http.NotFound` ("404 page not found\n", `X-Content-Type-Options: nosniff`);
 * - HTTPRoute weights: Gateway API `HTTPBackendRef.weight` ("proportion of requests forwarded").
 */
import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../cluster/cluster.ts';

const K3S = 'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\npacketpath:\n  distribution: k3s\n';

const APPS = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: hashicorp/http-echo:1.0.0, args: ["-listen=:5678", "-text=web"]}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec: {selector: {app: web}, ports: [{port: 80, targetPort: 5678}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers: [{name: api, image: hashicorp/http-echo:1.0.0, args: ["-listen=:5678", "-text=api"]}]
---
apiVersion: v1
kind: Service
metadata: {name: api}
spec: {selector: {app: api}, ports: [{port: 80, targetPort: 5678}]}
---
apiVersion: v1
kind: Pod
metadata: {name: client}
spec:
  containers: [{name: c, image: curlimages/curl:8.17.0, command: [sleep, "3600"]}]
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: shop}
spec:
  rules:
  - host: shop.example.com
    http:
      paths:
      - {path: /api, pathType: Prefix, backend: {service: {name: api, port: {number: 80}}}}
      - {path: /, pathType: Exact, backend: {service: {name: web, port: {number: 80}}}}
`;

async function boot(files: Record<string, string> = {}): Promise<Cluster> {
  const c = createCluster(K3S, { seed: 3, files: { 'apps.yaml': APPS, ...files } });
  await c.exec('kubectl apply -f apps.yaml');
  await c.exec('kubectl wait --for=condition=Available deploy --all --timeout=120s');
  await c.exec('kubectl wait -n kube-system --for=condition=Available deploy/traefik --timeout=120s');
  c.waitFor(() => false, 20_000);
  return c;
}

const addressOf = (c: Cluster) =>
  c.api.get('services', 'kube-system', 'traefik')?.status?.loadBalancer?.ingress?.[0]?.ip ?? '';

describe('Traefik routes Ingress rules', () => {
  it('routes on Host and path from outside and from a pod; 404 when nothing matches', async () => {
    const c = await boot();
    const addr = addressOf(c);
    expect(addr).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const curl = async (args: string, from = '') => {
      const r = await c.exec(`${from}curl -s ${args}`);
      return r.stdout;
    };
    expect(await curl(`-H 'Host: shop.example.com' http://${addr}/api`)).toBe('api\n');
    expect(await curl(`-H 'Host: shop.example.com' http://${addr}/api/orders`)).toBe('api\n');
    expect(await curl(`-H 'Host: shop.example.com' http://${addr}/`)).toBe('web\n');
    expect(await curl(`-H 'Host: shop.example.com' http://${addr}/about`)).toBe('404 page not found\n');
    expect(await curl(`-H 'Host: other.example.com' http://${addr}/api`)).toBe('404 page not found\n');
    expect(await curl(`-i -H 'Host: nope' http://${addr}/`)).toMatch(
      /^HTTP\/1\.1 404 Not Found\r\nContent-Type: text\/plain; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nDate: .*\r\nContent-Length: 19\r\n\r\n404 page not found\n$/,
    );
    // From a pod, through the traefik Service's ClusterIP.
    expect(
      await curl(`-H 'Host: shop.example.com' http://traefik.kube-system/api`, 'kubectl exec client -- '),
    ).toBe('api\n');

    const trace = (await c.exec(`trace outside -- curl -H 'Host: shop.example.com' http://${addr}/api`))
      .stdout;
    expect(trace).toMatch(
      /proxy\s+traefik in kube-system\/traefik-\S+: http Host shop\.example\.com path \/api matched Ingress default\/shop host shop\.example\.com, path \/api \(Prefix\) → Service default\/api port 80, endpoint [\d.]+:5678/,
    );
    expect(trace).toMatch(/deliver\s+[\d.]+:5678 → http-echo in container api of pod default\/api-/);
  });

  it('applies a NetworkPolicy on the backend with the Traefik pod as the source (504 after the dial timeout)', async () => {
    const deny = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: api-only-from-client}
spec:
  podSelector: {matchLabels: {app: api}}
  ingress: [{from: [{podSelector: {matchLabels: {run: client}}}]}]
`;
    const c = await boot({ 'deny.yaml': deny });
    await c.exec('kubectl label pod client run=client');
    await c.exec('kubectl apply -f deny.yaml');
    const addr = addressOf(c);
    const r = await c.exec(`curl -s -w ' %{http_code}' -H 'Host: shop.example.com' http://${addr}/api`);
    expect(r.stdout).toBe('Gateway Timeout\n 504');
    const trace = (await c.exec(`trace outside -- curl -H 'Host: shop.example.com' http://${addr}/api`))
      .stdout;
    expect(trace).toMatch(/ingress of default\/api-\S+: BLOCKED — selected by default\/api-only-from-client/);
    // The web backend is not selected: still answered.
    expect((await c.exec(`curl -s -H 'Host: shop.example.com' http://${addr}/`)).stdout).toBe('web\n');
  });

  it("records the proxy's own connection to the endpoint in conntrack as answered, like any client's", async () => {
    const c = await boot();
    const addr = addressOf(c);
    const traefik = c.api.list('pods', 'kube-system').find((p) => p.metadata.name.startsWith('traefik-'));
    const node = traefik?.spec?.nodeName ?? '';
    expect((await c.exec(`curl -s -H 'Host: shop.example.com' http://${addr}/api`)).stdout).toBe('api\n');
    const listing = (
      await c.exec(
        `kubectl debug node/${node} -it --image=nicolaka/netshoot -- chroot /host conntrack -L -p tcp --dport 5678`,
      )
    ).stdout;
    // One flow from the Traefik pod to the api pod, closed after the response (conntrack-tools' format).
    const upstream = listing.split('\n').filter((line) => line.includes(`src=${traefik?.status?.podIP} `));
    expect(upstream).toHaveLength(1);
    expect(upstream[0]).toMatch(
      /^tcp {6}6 \d+ TIME_WAIT src=\S+ dst=\S+ sport=\d+ dport=5678 src=\S+ .*\[ASSURED\]/,
    );
    expect(upstream[0]).not.toContain('[UNREPLIED]');
  });

  it('terminates TLS on websecure with the default certificate; -k shows its subject', async () => {
    const c = await boot();
    const addr = addressOf(c);
    const strict = await c.exec(`curl -s -S -H 'Host: shop.example.com' https://${addr}/api`);
    expect(strict.exitCode).toBe(60);
    expect(strict.stderr).toContain('curl: (60) SSL certificate problem: self-signed certificate');
    const r = await c.exec(`curl -k -v -H 'Host: shop.example.com' https://${addr}/api`);
    expect(r.stdout).toBe('api\n');
    expect(r.stderr).toContain('*  subject: CN=TRAEFIK DEFAULT CERT\n*  issuer: CN=TRAEFIK DEFAULT CERT\n');
    expect(r.stderr).toContain(
      '*  SSL certificate verify result: self-signed certificate (18), continuing anyway.',
    );
  });
});

const GATEWAY = `apiVersion: apps/v1
kind: Deployment
metadata: {name: api-v2}
spec:
  selector: {matchLabels: {app: api-v2}}
  template:
    metadata: {labels: {app: api-v2}}
    spec:
      containers: [{name: api, image: hashicorp/http-echo:1.0.0, args: ["-listen=:5678", "-text=v2"]}]
---
apiVersion: v1
kind: Service
metadata: {name: api-v2}
spec: {selector: {app: api-v2}, ports: [{port: 80, targetPort: 5678}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw}
spec:
  gatewayClassName: traefik
  listeners:
  - {name: web, port: 8000, protocol: HTTP, hostname: "*.example.com"}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: split}
spec:
  parentRefs: [{name: gw}]
  hostnames: [api.example.com]
  rules:
  - matches: [{path: {type: PathPrefix, value: /v1}}]
    backendRefs:
    - {name: api, port: 80, weight: 90}
    - {name: api-v2, port: 80, weight: 10}
`;

describe('Traefik routes HTTPRoutes', () => {
  it('splits 90/10 by weight over many requests (fixed seed)', async () => {
    const c = createCluster(
      'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n- role: control-plane\n- role: worker\npacketpath:\n  distribution: k3s\n  k3s:\n    disable: [traefik]\n',
      { seed: 14, files: { 'apps.yaml': APPS, 'gw.yaml': GATEWAY, 'traefik.yaml': TRAEFIK } },
    );
    await c.exec('kubectl apply -f apps.yaml');
    await c.exec('kubectl apply -f traefik.yaml');
    await c.exec('kubectl wait -n traefik --for=condition=Available deploy/traefik --timeout=120s');
    await c.exec('kubectl apply -f gw.yaml');
    await c.exec('kubectl wait --for=condition=Available deploy --all --timeout=120s');
    c.waitFor(() => false, 20_000);
    const addr = c.api.get('services', 'traefik', 'traefik')?.status?.loadBalancer?.ingress?.[0]?.ip ?? '';
    const counts = new Map<string, number>();
    for (let i = 0; i < 200; i++) {
      const body = (await c.exec(`curl -s -H 'Host: api.example.com' http://${addr}/v1/items`)).stdout;
      counts.set(body, (counts.get(body) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(['api\n', 'v2\n']);
    const v2 = counts.get('v2\n') ?? 0;
    expect(v2).toBeGreaterThan(8);
    expect(v2).toBeLessThan(40);
    expect((await c.exec(`curl -s -H 'Host: api.example.com' http://${addr}/other`)).stdout).toBe(
      '404 page not found\n',
    );
    const trace = (await c.exec(`trace outside -- curl -H 'Host: api.example.com' http://${addr}/v1`)).stdout;
    expect(trace).toMatch(
      /matched HTTPRoute default\/split rule 0 \(Gateway default\/gw listener web\) → Service default\/api(-v2)? port 80, endpoint [\d.]+:5678 \(the proxy dials it from its own pod\); weighted draw \d+ of 100 fell in a share of (90|10)/,
    );
  });
});

import { TRAEFIK_YAML as TRAEFIK } from '../../cluster/addons/traefik.ts';
