import { describe, it, expect } from 'vitest';
import type { ConfigMap, Pod, Service } from '../api/objects.ts';
import { createCluster } from '../cluster/cluster.ts';
import { defaultClusterConfig, parseClusterConfig } from '../api/cluster-config.ts';
import {
  containerEnvFor,
  hostsFileFor,
  podUtsHostname,
  resolvConfFor,
  serviceAccountFiles,
  serviceEnvFor,
} from './pod-files.ts';

const kind = defaultClusterConfig();
const k3s = parseClusterConfig(
  'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\npacketpath:\n  distribution: k3s\n',
);

function makePod(name: string, mutate: (p: Pod) => void = () => {}): Pod {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: 'u1',
      resourceVersion: '1',
      creationTimestamp: '2026-01-01T00:00:10Z',
    },
    spec: { nodeName: 'kind-worker', containers: [{ name: 'c', image: 'busybox' }] },
    status: {
      podIP: '10.244.1.5',
      podIPs: [{ ip: '10.244.1.5' }],
      containerStatuses: [{ name: 'c', state: { running: { startedAt: '2026-01-01T00:00:20Z' } } }],
    },
  } as unknown as Pod;
  mutate(pod);
  return pod;
}

function makeService(
  ns: string,
  name: string,
  created: string,
  mutate: (s: Service) => void = () => {},
): Service {
  const svc = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: ns, uid: `s-${name}`, resourceVersion: '1', creationTimestamp: created },
    spec: { clusterIP: '10.96.100.7', ports: [{ port: 80, protocol: 'TCP' }] },
  } as unknown as Service;
  mutate(svc);
  return svc;
}

describe('resolvConfFor (kubelet GetPodDNS + containerd parseDNSOptions)', () => {
  it.each([
    {
      name: 'ClusterFirst (the default)',
      pod: makePod('a'),
      config: kind,
      want: 'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n',
    },
    {
      name: 'ClusterFirst in another namespace on k3s',
      pod: makePod('a', (p) => (p.metadata.namespace = 'shop')),
      config: k3s,
      want: 'search shop.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.43.0.10\noptions ndots:5\n',
    },
    {
      name: 'hostNetwork + ClusterFirst falls back to the node file',
      pod: makePod('a', (p) => (p.spec!.hostNetwork = true)),
      config: kind,
      want: 'nameserver 172.18.0.1\noptions ndots:0\n',
    },
    {
      name: 'hostNetwork + ClusterFirstWithHostNet keeps cluster DNS',
      pod: makePod('a', (p) =>
        Object.assign(p.spec!, { hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet' }),
      ),
      config: kind,
      want: 'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n',
    },
    {
      name: 'Default on k3s',
      pod: makePod('a', (p) => (p.spec!.dnsPolicy = 'Default')),
      config: k3s,
      want: 'nameserver 192.168.64.1\n',
    },
    {
      name: 'None with dnsConfig (the DNS docs example)',
      pod: makePod('a', (p) =>
        Object.assign(p.spec!, {
          dnsPolicy: 'None',
          dnsConfig: {
            nameservers: ['192.0.2.1'],
            searches: ['ns1.svc.cluster-domain.example', 'my.dns.search.suffix'],
            options: [{ name: 'ndots', value: '2' }, { name: 'edns0' }],
          },
        }),
      ),
      config: kind,
      want: 'search ns1.svc.cluster-domain.example my.dns.search.suffix\nnameserver 192.0.2.1\noptions ndots:2 edns0\n',
    },
    {
      name: 'dnsConfig merged onto ClusterFirst: searches appended, ndots overridden, duplicates dropped',
      pod: makePod('a', (p) =>
        Object.assign(p.spec!, {
          dnsConfig: {
            nameservers: ['10.96.0.10', '1.1.1.1'],
            searches: ['cluster.local', 'corp.example'],
            options: [{ name: 'ndots', value: '1' }],
          },
        }),
      ),
      config: kind,
      want: 'search default.svc.cluster.local svc.cluster.local cluster.local corp.example\nnameserver 10.96.0.10\nnameserver 1.1.1.1\noptions ndots:1\n',
    },
    {
      name: 'at most three nameservers',
      pod: makePod('a', (p) =>
        Object.assign(p.spec!, {
          dnsPolicy: 'None',
          dnsConfig: { nameservers: ['1.1.1.1', '2.2.2.2', '3.3.3.3', '4.4.4.4'] },
        }),
      ),
      config: kind,
      want: 'nameserver 1.1.1.1\nnameserver 2.2.2.2\nnameserver 3.3.3.3\n',
    },
  ])('$name', ({ pod, config, want }) => {
    expect(resolvConfFor(pod, config)).toBe(want);
  });
});

describe('hostsFileFor (kubelet managedHostsFileContent)', () => {
  const header =
    '# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n';

  it('lists the pod IP with the pod name', () => {
    expect(hostsFileFor(makePod('web-7d4b9c8f6d-x2kq9'), kind)).toBe(
      `${header}10.244.1.5\tweb-7d4b9c8f6d-x2kq9\n`,
    );
  });

  it('writes the FQDN first when hostname and subdomain are set, then host aliases', () => {
    const pod = makePod('p', (p) =>
      Object.assign(p.spec!, {
        hostname: 'pod-hostname',
        subdomain: 'pod-subdomain',
        hostAliases: [{ ip: '127.0.0.1', hostnames: ['foo.local', 'bar.local'] }],
      }),
    );
    expect(hostsFileFor(pod, kind)).toBe(
      `${header}10.244.1.5\tpod-hostname.pod-subdomain.default.svc.cluster.local\tpod-hostname\n\n# Entries added by HostAliases.\n127.0.0.1\tfoo.local\tbar.local\n`,
    );
  });

  it("uses the node's file on the host network", () => {
    const text = hostsFileFor(
      makePod('p', (p) => (p.spec!.hostNetwork = true)),
      kind,
    );
    expect(text.split('\n').slice(0, 2)).toEqual([
      '# Kubernetes-managed hosts file (host network).',
      '127.0.0.1\tlocalhost',
    ]);
    expect(text).toContain('172.18.0.3\tkind-worker\n');
  });

  it('names the pod like the kubelet does', () => {
    expect(podUtsHostname(makePod('x'.repeat(70) + '-abc'), kind)).toBe('x'.repeat(63));
    expect(
      podUtsHostname(
        makePod('p', (p) => (p.spec!.hostNetwork = true)),
        kind,
      ),
    ).toBe('kind-worker');
    expect(
      podUtsHostname(
        makePod('p', (p) =>
          Object.assign(p.spec!, { hostname: 'h', subdomain: 's', setHostnameAsFQDN: true }),
        ),
        kind,
      ),
    ).toBe('h.s.default.svc.cluster.local');
  });
});

describe('serviceEnvFor (envvars.FromServices)', () => {
  const kubernetes = makeService('default', 'kubernetes', '2026-01-01T00:00:00Z', (s) => {
    s.spec!.clusterIP = '10.96.0.1';
    s.spec!.ports = [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }];
  });

  it('gives the kubernetes Service variables every pod sees', () => {
    expect(serviceEnvFor(makePod('a'), [kubernetes])).toEqual([
      ['KUBERNETES_SERVICE_HOST', '10.96.0.1'],
      ['KUBERNETES_SERVICE_PORT', '443'],
      ['KUBERNETES_SERVICE_PORT_HTTPS', '443'],
      ['KUBERNETES_PORT', 'tcp://10.96.0.1:443'],
      ['KUBERNETES_PORT_443_TCP', 'tcp://10.96.0.1:443'],
      ['KUBERNETES_PORT_443_TCP_PROTO', 'tcp'],
      ['KUBERNETES_PORT_443_TCP_PORT', '443'],
      ['KUBERNETES_PORT_443_TCP_ADDR', '10.96.0.1'],
    ]);
  });

  it('adds same-namespace Services that existed when the container started', () => {
    const pod = makePod('a', (p) => (p.metadata.namespace = 'shop'));
    const before = makeService('shop', 'my-web', '2026-01-01T00:00:05Z', (s) => {
      s.spec!.ports = [
        { name: 'http', port: 80, protocol: 'TCP' },
        { name: 'metrics', port: 9090, protocol: 'UDP' },
      ];
    });
    const after = makeService('shop', 'late', '2026-01-01T00:01:00Z');
    const elsewhere = makeService('other', 'api', '2026-01-01T00:00:05Z');
    const headless = makeService('shop', 'db', '2026-01-01T00:00:05Z', (s) => (s.spec!.clusterIP = 'None'));
    const names = serviceEnvFor(pod, [kubernetes, before, after, elsewhere, headless]).map(
      ([k, v]) => `${k}=${v}`,
    );
    expect(names.filter((n) => n.startsWith('MY_WEB'))).toEqual([
      'MY_WEB_SERVICE_HOST=10.96.100.7',
      'MY_WEB_SERVICE_PORT=80',
      'MY_WEB_SERVICE_PORT_HTTP=80',
      'MY_WEB_SERVICE_PORT_METRICS=9090',
      'MY_WEB_PORT=tcp://10.96.100.7:80',
      'MY_WEB_PORT_80_TCP=tcp://10.96.100.7:80',
      'MY_WEB_PORT_80_TCP_PROTO=tcp',
      'MY_WEB_PORT_80_TCP_PORT=80',
      'MY_WEB_PORT_80_TCP_ADDR=10.96.100.7',
      'MY_WEB_PORT_9090_UDP=udp://10.96.100.7:9090',
      'MY_WEB_PORT_9090_UDP_PROTO=udp',
      'MY_WEB_PORT_9090_UDP_PORT=9090',
      'MY_WEB_PORT_9090_UDP_ADDR=10.96.100.7',
    ]);
    expect(names.some((n) => n.startsWith('LATE_') || n.startsWith('API_') || n.startsWith('DB_'))).toBe(
      false,
    );
    expect(names.some((n) => n.startsWith('KUBERNETES_SERVICE_HOST'))).toBe(true);
  });

  it('keeps only the kubernetes Service when enableServiceLinks is false', () => {
    const pod = makePod('a', (p) => (p.spec!.enableServiceLinks = false));
    const svc = makeService('default', 'web', '2026-01-01T00:00:05Z');
    expect(serviceEnvFor(pod, [kubernetes, svc]).every(([k]) => k.startsWith('KUBERNETES_'))).toBe(true);
  });
});

describe('containerEnvFor (makeEnvironmentVariables)', () => {
  it('resolves valueFrom and $(VAR) references, then appends service links', () => {
    const pod = makePod('p', (p) => {
      p.spec!.containers[0]!.env = [
        { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
        { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
        { name: 'GREETING', value: 'hi $(POD_NAME) at $(WEB_SERVICE_HOST), $$(POD_NAME) $(NOPE)' },
        { name: 'FROM_CM', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'mode' } } },
        { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'sec', key: 'pw' } } },
      ];
    });
    const env = containerEnvFor(pod, pod.spec!.containers[0]!, {
      configMap: (_ns, name) => (name === 'cfg' ? ({ data: { mode: 'prod' } } as never) : undefined),
      secret: (_ns, name) => (name === 'sec' ? ({ data: { pw: 'czNjcjN0' } } as never) : undefined),
      services: [makeService('default', 'web', '2026-01-01T00:00:05Z')],
    });
    expect(env.slice(0, 5)).toEqual([
      ['POD_NAME', 'p'],
      ['POD_IP', '10.244.1.5'],
      ['GREETING', 'hi p at 10.96.100.7, $(POD_NAME) $(NOPE)'],
      ['FROM_CM', 'prod'],
      ['PASSWORD', 's3cr3t'],
    ]);
    expect(env.slice(5, 7)).toEqual([
      ['WEB_SERVICE_HOST', '10.96.100.7'],
      ['WEB_SERVICE_PORT', '80'],
    ]);
  });
});

describe('the service account volume (/var/run/secrets/kubernetes.io/serviceaccount)', () => {
  const decode = (part: string) => JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as unknown;
  const src = {
    caCrt: 'PEM\n',
    serviceAccountUid: 'sa-uid',
    nodeUid: 'node-uid',
    signingKeySeed: 'kind/x/sa.key',
  };

  it('ca.crt, namespace without a newline, and a bound token: RS256 header with a kid, claims as TokenRequest issues them', () => {
    const pod = makePod('web', (p) => {
      p.spec!.serviceAccountName = 'builder';
      p.status!.startTime = '2026-01-01T00:00:12Z';
    });
    const files = serviceAccountFiles(pod, kind, src);
    const dir = '/var/run/secrets/kubernetes.io/serviceaccount';
    expect(Object.keys(files).sort()).toEqual([`${dir}/ca.crt`, `${dir}/namespace`, `${dir}/token`]);
    expect(files[`${dir}/ca.crt`]).toBe('PEM\n');
    expect(files[`${dir}/namespace`]).toBe('default');
    const parts = files[`${dir}/token`]!.split('.');
    expect(parts).toHaveLength(3);
    for (const p of parts) expect(p).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decode(parts[0]!)).toEqual({ alg: 'RS256', kid: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    // 2026-01-01T00:00:12Z; a year's validity, warnafter at the kubelet's 3607 s.
    const iat = 1767225612;
    const claims = decode(parts[1]!) as Record<string, unknown>;
    expect(Object.keys(claims)).toEqual(['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub']);
    expect(claims).toEqual({
      aud: ['https://kubernetes.default.svc.cluster.local'],
      exp: iat + 31536000,
      iat,
      iss: 'https://kubernetes.default.svc.cluster.local',
      jti: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      'kubernetes.io': {
        namespace: 'default',
        node: { name: 'kind-worker', uid: 'node-uid' },
        pod: { name: 'web', uid: 'u1' },
        serviceaccount: { name: 'builder', uid: 'sa-uid' },
        warnafter: iat + 3607,
      },
      nbf: iat,
      sub: 'system:serviceaccount:default:builder',
    });
    // An RSA-2048 signature: 256 bytes.
    expect(parts[2]).toHaveLength(342);
    expect(serviceAccountFiles(pod, kind, src)).toEqual(files);
    expect(decode(serviceAccountFiles(pod, k3s, src)[`${dir}/token`]!.split('.')[1]!)).toMatchObject({
      aud: ['https://kubernetes.default.svc.cluster.local', 'k3s'],
    });
  });

  it('kubectl exec reads them: the namespace, the kube-root-ca.crt PEM, the token', () => {
    const c = createCluster(undefined, { seed: 1 });
    c.execSync('kubectl create namespace team');
    c.execSync('kubectl run bb -n team --image=busybox -- sleep 3600');
    c.tick(20_000);
    const cat = (f: string) =>
      c.execSync(`kubectl exec -n team bb -- cat /var/run/secrets/kubernetes.io/serviceaccount/${f}`);
    expect(cat('namespace')).toEqual({ stdout: 'team', stderr: '', exitCode: 0 });
    const ca = (c.api.get('configmaps', 'team', 'kube-root-ca.crt') as ConfigMap).data!['ca.crt'];
    expect(cat('ca.crt').stdout).toBe(ca);
    const token = cat('token').stdout;
    expect(token).toBe(cat('token').stdout);
    const pod = c.api.get('pods', 'team', 'bb')!;
    expect(decode(token.split('.')[1]!)).toMatchObject({
      sub: 'system:serviceaccount:team:default',
      'kubernetes.io': {
        pod: { name: 'bb', uid: pod.metadata.uid },
        serviceaccount: { uid: c.api.get('serviceaccounts', 'team', 'default')!.metadata.uid },
      },
    });
  });
});
