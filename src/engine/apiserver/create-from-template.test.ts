/**
 * ApiServer.createFromTemplate skips decoding a stored template: the pod a ReplicaSet stamps, and the
 * ReplicaSet a Deployment stamps, must be exactly what `create` stores from the same request (key
 * order included), on servers in the same state (same seed, same history), so that generated names
 * and uids line up too.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { makeServer } from './test-helpers.ts';
import type { Deployment, Manifest, ReplicaSet } from '../api/objects.ts';
import { podFromTemplate } from '../controllers/replicaset-controller.ts';
import { newReplicaSet } from '../controllers/deployment-controller.ts';

const TEMPLATES: Record<string, string> = {
  minimal: `
metadata: { labels: { app: web } }
spec:
  containers: [{ name: web, image: nginx }]`,
  'a full pod spec': `
metadata:
  labels: { tier: x, app: web }
  annotations: { b: '1', a: '2', prometheus.io/scrape: 'true' }
spec:
  initContainers:
    - { name: init, image: busybox, command: [sh, -c, 'true'] }
    - { name: proxy, image: envoyproxy/envoy:v1.31.0, restartPolicy: Always, ports: [{ containerPort: 9901 }] }
  containers:
    - name: web
      image: nginx:1.27
      args: [--port=8080]
      workingDir: /srv
      ports: [{ containerPort: 80, name: http }, { containerPort: 53, protocol: UDP, hostPort: 5353 }]
      env:
        - { name: B, value: x }
        - name: A
          valueFrom: { fieldRef: { fieldPath: status.podIP } }
      envFrom: [{ configMapRef: { name: cfg } }]
      readinessProbe: { httpGet: { path: /, port: http }, periodSeconds: 3 }
      livenessProbe: { tcpSocket: { port: 80 }, initialDelaySeconds: 5 }
      startupProbe: { exec: { command: [cat, /tmp/ready] } }
      resources: { limits: { cpu: 200m, memory: 64Mi }, requests: { cpu: 100m } }
      securityContext: { runAsUser: 1000, capabilities: { add: [NET_ADMIN] } }
      volumeMounts: [{ name: v, mountPath: /data }, { name: c, mountPath: /etc/c, readOnly: true }]
    - name: sidecar
      image: curlimages/curl
      command: [sleep, infinity]
  volumes:
    - { name: v, emptyDir: {} }
    - { name: c, configMap: { name: cfg, items: [{ key: k, path: p }] } }
  nodeSelector: { kubernetes.io/os: linux }
  tolerations: [{ key: k, operator: Exists, effect: NoSchedule }]
  affinity:
    podAntiAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
        - weight: 1
          podAffinityTerm: { topologyKey: kubernetes.io/hostname, labelSelector: { matchLabels: { app: web } } }
  dnsPolicy: None
  dnsConfig: { nameservers: [1.1.1.1], searches: [svc.cluster.local], options: [{ name: ndots, value: '2' }] }
  hostname: web
  subdomain: web
  terminationGracePeriodSeconds: 5
  enableServiceLinks: false
  serviceAccountName: default`,
  'host network': `
metadata: { labels: { app: agent } }
spec:
  hostNetwork: true
  dnsPolicy: ClusterFirstWithHostNet
  containers: [{ name: agent, image: nicolaka/netshoot, command: [sleep, '3600'], imagePullPolicy: IfNotPresent }]`,
};

function deployment(template: string, strategy: Record<string, unknown>): Manifest {
  const t = parse(template) as { metadata: { labels: Record<string, string> } };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { z: 'q', app: 'web' } },
    spec: {
      replicas: 3,
      minReadySeconds: 2,
      strategy,
      selector: { matchLabels: t.metadata.labels },
      template: t,
    },
  };
}

function replicaSet(template: string): Manifest {
  const t = parse(template) as { metadata: { labels: Record<string, string> } };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web-594bb7dbd', namespace: 'default' },
    spec: { replicas: 1, selector: { matchLabels: t.metadata.labels }, template: t },
  };
}

describe('ApiServer.createFromTemplate', () => {
  it.each(Object.entries(TEMPLATES))('stores what create stores from the same request: %s', (_, template) => {
    const [a, b] = [makeServer(11), makeServer(11)];
    const stored = [a, b].map((s) => s.api.create(replicaSet(template)) as unknown as ReplicaSet);
    const request = (rs: ReplicaSet): Manifest => {
      const pod = podFromTemplate(rs);
      return {
        ...pod,
        metadata: {
          ...(pod.metadata as Record<string, unknown>),
          name: 'web-594bb7dbd-x2x4z',
          generateName: 'web-594bb7dbd-',
        },
      };
    };
    const fast = a.api.createFromTemplate(request(stored[0]!));
    const full = b.api.create(request(stored[1]!));
    expect(JSON.stringify(fast)).toBe(JSON.stringify(full));
    // The stored template is copied, never shared with the pod (admission changes the pod's spec).
    expect(fast.spec).not.toBe(stored[0]!.spec?.template?.spec);
  });

  it.each(Object.entries(TEMPLATES))(
    'stores the ReplicaSet a Deployment stamps as create does: %s',
    (_, template) => {
      for (const strategy of [
        {},
        { type: 'Recreate' },
        { rollingUpdate: { maxSurge: '50%', maxUnavailable: 0 } },
      ]) {
        const [a, b] = [makeServer(12), makeServer(12)];
        const stored = [a, b].map(
          (s) => s.api.create(deployment(template, strategy)) as unknown as Deployment,
        );
        const fast = a.api.createFromTemplate(newReplicaSet(stored[0]!, []));
        const full = b.api.create(newReplicaSet(stored[1]!, []));
        expect(JSON.stringify(fast)).toBe(JSON.stringify(full));
      }
    },
  );
});
