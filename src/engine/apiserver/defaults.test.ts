import { describe, it, expect } from 'vitest';
import { applyDefaults, imageTag } from './defaults.ts';
import { decodeManifest } from './decode.ts';
import { makeServer } from './test-helpers.ts';

const defaulted = (manifest: unknown) => {
  const { info, object } = decodeManifest(manifest);
  applyDefaults(info, object);
  return object as unknown as {
    metadata: { labels?: Record<string, string>; [k: string]: unknown };
    spec: Record<string, unknown>;
    [k: string]: unknown;
  };
};

describe('applyDefaults', () => {
  // Golden input: the installed kubectl v1.32, `kubectl create deployment web --image=nginx
  // --dry-run=client -o yaml`. Golden additions: k8s.io/kubernetes pkg/apis/apps/v1/defaults.go
  // (SetDefaults_Deployment) and pkg/apis/core/v1/defaults.go (SetDefaults_PodSpec, SetDefaults_Container).
  it('completes a `kubectl create deployment` manifest as the server does', () => {
    const object = defaulted({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { creationTimestamp: null, labels: { app: 'web' }, name: 'web' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        strategy: {},
        template: {
          metadata: { creationTimestamp: null, labels: { app: 'web' } },
          spec: { containers: [{ image: 'nginx', name: 'nginx', resources: {} }] },
        },
      },
      status: {},
    });
    expect(object.spec).toEqual({
      progressDeadlineSeconds: 600,
      replicas: 1,
      revisionHistoryLimit: 10,
      selector: { matchLabels: { app: 'web' } },
      strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' }, type: 'RollingUpdate' },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              image: 'nginx',
              imagePullPolicy: 'Always',
              name: 'nginx',
              resources: {},
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
            },
          ],
          dnsPolicy: 'ClusterFirst',
          restartPolicy: 'Always',
          schedulerName: 'default-scheduler',
          securityContext: {},
          terminationGracePeriodSeconds: 30,
        },
      },
    });
  });

  // Golden: what `kubectl get pod -o yaml` shows for `kubectl run web --image=nginx:1.27` on a real
  // cluster: SetDefaults_Pod/PodSpec/Container plus the ServiceAccount, Priority and
  // DefaultTolerationSeconds admission plugins and the pod strategy's initial status.
  it('gives a bare pod what the server and its admission plugins add', () => {
    const { api } = makeServer();
    const pod = api.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { labels: { run: 'web' }, name: 'web' },
      spec: {
        containers: [{ image: 'nginx:1.27', name: 'web', resources: {} }],
        dnsPolicy: 'ClusterFirst',
        restartPolicy: 'Always',
      },
    });
    const spec = pod.spec!;
    const volumeName = spec.volumes![0]!.name;
    expect(volumeName).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(spec).toEqual({
      containers: [
        {
          image: 'nginx:1.27',
          imagePullPolicy: 'IfNotPresent',
          name: 'web',
          resources: {},
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          volumeMounts: [
            { mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', name: volumeName, readOnly: true },
          ],
        },
      ],
      dnsPolicy: 'ClusterFirst',
      enableServiceLinks: true,
      preemptionPolicy: 'PreemptLowerPriority',
      priority: 0,
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      securityContext: {},
      serviceAccount: 'default',
      serviceAccountName: 'default',
      terminationGracePeriodSeconds: 30,
      tolerations: [
        {
          effect: 'NoExecute',
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          tolerationSeconds: 300,
        },
        {
          effect: 'NoExecute',
          key: 'node.kubernetes.io/unreachable',
          operator: 'Exists',
          tolerationSeconds: 300,
        },
      ],
      volumes: [
        {
          name: volumeName,
          projected: {
            defaultMode: 420,
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
              { configMap: { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' } },
              {
                downwardAPI: {
                  items: [
                    { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' },
                  ],
                },
              },
            ],
          },
        },
      ],
    });
    expect(pod.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
  });

  // Golden: k8s.io/kubernetes pkg/util/parsers ParseImageName (default tag "latest" unless a digest
  // is given) as SetDefaults_Container uses it.
  it.each([
    { image: 'nginx', tag: 'latest', policy: 'Always' },
    { image: 'nginx:latest', tag: 'latest', policy: 'Always' },
    { image: 'nginx:1.27', tag: '1.27', policy: 'IfNotPresent' },
    { image: 'localhost:5000/app', tag: 'latest', policy: 'Always' },
    { image: 'localhost:5000/app:v1', tag: 'v1', policy: 'IfNotPresent' },
    { image: 'nginx@sha256:0123456789abcdef', tag: '', policy: 'IfNotPresent' },
  ])('imagePullPolicy for $image is $policy', ({ image, tag, policy }) => {
    expect(imageTag(image)).toBe(tag);
    const object = defaulted({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image }] },
    });
    expect((object.spec.containers as { imagePullPolicy: string }[])[0]!.imagePullPolicy).toBe(policy);
  });

  // Golden input: kubectl v1.32 `kubectl create service nodeport web --tcp=80:8080 --dry-run=client -o yaml`;
  // golden additions: SetDefaults_Service.
  it('defaults a NodePort Service', () => {
    const object = defaulted({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { creationTimestamp: null, labels: { app: 'web' }, name: 'web' },
      spec: {
        ports: [{ name: '80-8080', port: 80, protocol: 'TCP', targetPort: 8080 }],
        selector: { app: 'web' },
        type: 'NodePort',
      },
      status: { loadBalancer: {} },
    });
    expect(object.spec).toEqual({
      externalTrafficPolicy: 'Cluster',
      internalTrafficPolicy: 'Cluster',
      ports: [{ name: '80-8080', port: 80, protocol: 'TCP', targetPort: 8080 }],
      selector: { app: 'web' },
      sessionAffinity: 'None',
      type: 'NodePort',
    });
  });

  it.each([
    { name: 'ClusterIP', spec: { ports: [{ port: 53, protocol: 'UDP' }] }, extra: {}, targetPort: 53 },
    {
      name: 'LoadBalancer',
      spec: { type: 'LoadBalancer', ports: [{ port: 80 }] },
      extra: { allocateLoadBalancerNodePorts: true, externalTrafficPolicy: 'Cluster' },
      targetPort: 80,
    },
    {
      name: 'ClientIP affinity',
      spec: { sessionAffinity: 'ClientIP', ports: [{ port: 80, targetPort: 'http' }] },
      extra: { sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } } },
      targetPort: 'http',
    },
  ])('Service defaults: $name', ({ spec, extra, targetPort }) => {
    const object = defaulted({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec });
    expect(object.spec).toMatchObject({ internalTrafficPolicy: 'Cluster', ...extra });
    expect((object.spec.ports as { targetPort: unknown }[])[0]!.targetPort).toBe(targetPort);
    if (!('externalTrafficPolicy' in extra)) expect(object.spec.externalTrafficPolicy).toBeUndefined();
  });

  it('gives an ExternalName Service neither traffic policy', () => {
    const object = defaulted({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: { type: 'ExternalName', externalName: 'example.com' },
    });
    expect(object.spec).toEqual({
      externalName: 'example.com',
      sessionAffinity: 'None',
      type: 'ExternalName',
    });
  });

  // Golden: networking/v1 API doc (kubernetes-facts.md §5): Ingress always, Egress when egress rules exist.
  it.each([
    { name: 'no rules', spec: { podSelector: {} }, types: ['Ingress'] },
    { name: 'ingress only', spec: { podSelector: {}, ingress: [{}] }, types: ['Ingress'] },
    {
      name: 'egress rules',
      spec: { podSelector: {}, egress: [{ ports: [{ port: 53 }] }] },
      types: ['Ingress', 'Egress'],
    },
    { name: 'explicit egress-only', spec: { podSelector: {}, policyTypes: ['Egress'] }, types: ['Egress'] },
  ])('NetworkPolicy policyTypes: $name', ({ spec, types }) => {
    const object = defaulted({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'np' },
      spec,
    });
    expect(object.spec.policyTypes).toEqual(types);
  });

  it('defaults NetworkPolicy port protocols to TCP', () => {
    const object = defaulted({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'np' },
      spec: { podSelector: {}, ingress: [{ ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }] }] },
    });
    expect((object.spec.ingress as { ports: unknown[] }[])[0]!.ports).toEqual([
      { port: 80, protocol: 'TCP' },
      { port: 53, protocol: 'UDP' },
    ]);
  });

  // Golden: SetDefaults_Namespace (kubernetes.io/metadata.name) and the namespace strategy.
  it('labels a Namespace with its name and marks it Active', () => {
    const object = defaulted({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    expect(object.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'shop' });
    expect(object.spec).toEqual({ finalizers: ['kubernetes'] });
    expect(object.status).toEqual({ phase: 'Active' });
  });

  it('leaves Ingress pathType alone: it has no default', () => {
    const object = defaulted({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'i' },
      spec: {
        rules: [
          { http: { paths: [{ path: '/', backend: { service: { name: 'web', port: { number: 80 } } } }] } },
        ],
      },
    });
    const path = (object.spec.rules as { http: { paths: Record<string, unknown>[] } }[])[0]!.http.paths[0]!;
    expect(path.pathType).toBeUndefined();
  });

  // Golden: Gateway API standard CRD httproutes.yaml defaults.
  it('applies the HTTPRoute CRD defaults', () => {
    const object = defaulted({
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name: 'r' },
      spec: { parentRefs: [{ name: 'gw' }], rules: [{ backendRefs: [{ name: 'web', port: 80 }] }] },
    });
    expect(object.spec).toEqual({
      parentRefs: [{ group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'gw' }],
      rules: [
        {
          backendRefs: [{ group: '', kind: 'Service', name: 'web', port: 80, weight: 1 }],
          matches: [{ path: { type: 'PathPrefix', value: '/' } }],
        },
      ],
    });
  });

  it('copies limits into missing requests on Pods only (not in templates)', () => {
    const object = defaulted({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: '100m' } } }] },
    });
    expect((object.spec.containers as { resources: unknown }[])[0]!.resources).toEqual({
      limits: { cpu: '100m' },
      requests: { cpu: '100m' },
    });
  });
});
