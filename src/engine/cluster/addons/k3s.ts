/**
 * What a fresh k3s server deploys from /var/lib/rancher/k3s/server/manifests besides CoreDNS:
 * local-path-provisioner, metrics-server and Traefik (a LoadBalancer Service served by ServiceLB's
 * `svclb-traefik-*` pods, and the `traefik` IngressClass), each skipped when listed in `--disable`.
 * kind adds its own local-path-provisioner in `local-path-storage`.
 */
import type { Manifest } from '../../api/objects.ts';
import type { NewObject } from '../../api/store.ts';
import type { ClusterConfig } from '../../api/cluster-config.ts';
import { configMap } from './kubeadm-config.ts';

function simpleDeployment(
  name: string,
  namespace: string,
  labels: Record<string, string>,
  container: Record<string, unknown>,
  serviceAccountName: string,
  critical = true,
): Manifest {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, labels },
    spec: {
      replicas: 1,
      revisionHistoryLimit: 0,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          ...(critical ? { priorityClassName: 'system-node-critical' } : {}),
          serviceAccountName,
          tolerations: [
            { key: 'CriticalAddonsOnly', operator: 'Exists' },
            { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
            { key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' },
          ],
          containers: [{ imagePullPolicy: 'IfNotPresent', ...container }],
        },
      },
    },
  };
}

const sa = (name: string, namespace: string): Manifest => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { name, namespace },
});

const KIND_HELPER_IMAGE = 'docker.io/kindest/local-path-helper:v20241212-8ac705d0';

/** The pod local-path-provisioner runs the setup/teardown scripts in. */
const helperPod = (image: string): string =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: helper-pod\nspec:\n  containers:\n  - name: helper-pod\n    image: ${image}\n    imagePullPolicy: IfNotPresent`;

/**
 * k3s's manifests/local-storage.yaml ConfigMap, its `%{DEFAULT_LOCAL_STORAGE_PATH}%` filled in; the
 * setup script also closes the parent directory to other users.
 */
export function k3sLocalPathConfig(config: ClusterConfig): NewObject[] {
  if (config.k3sDisable.includes('local-storage')) return [];
  return [
    configMap('kube-system', 'local-path-config', {
      'config.json':
        '{\n  "nodePathMap":[\n  {\n    "node":"DEFAULT_PATH_FOR_NON_LISTED_NODES",\n    "paths":["/var/lib/rancher/k3s/storage"]\n  }\n  ]\n}',
      'helperPod.yaml': helperPod('"rancher/mirrored-library-busybox:1.36.1"'),
      setup: '#!/bin/sh\nset -eu\nmkdir -m 0777 -p "${VOL_DIR}"\nchmod 700 "${VOL_DIR}/.."',
      teardown: '#!/bin/sh\nset -eu\nrm -rf "${VOL_DIR}"',
    }),
  ];
}

export function kindLocalPath(): Manifest[] {
  const ns = 'local-path-storage';
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
    sa('local-path-provisioner-service-account', ns),
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'local-path-config', namespace: ns },
      // kind's pkg/build/nodeimage/const_storage.go, as the YAML block scalars read.
      data: {
        'config.json':
          '{\n        "nodePathMap":[\n        {\n                "node":"DEFAULT_PATH_FOR_NON_LISTED_NODES",\n                "paths":["/var/local-path-provisioner"]\n        }\n        ]\n}',
        'helperPod.yaml': helperPod(KIND_HELPER_IMAGE),
        setup: '#!/bin/sh\nset -eu\nmkdir -m 0777 -p "$VOL_DIR"',
        teardown: '#!/bin/sh\nset -eu\nrm -rf "$VOL_DIR"',
      },
    },
    simpleDeployment(
      'local-path-provisioner',
      ns,
      { app: 'local-path-provisioner' },
      {
        name: 'local-path-provisioner',
        image: 'docker.io/kindest/local-path-provisioner:v20250214-acbabc1a',
        command: [
          'local-path-provisioner',
          '--debug',
          'start',
          '--helper-image',
          KIND_HELPER_IMAGE,
          '--config',
          '/etc/config/config.json',
        ],
      },
      'local-path-provisioner-service-account',
      false,
    ),
  ];
}

export function k3sAddons(config: ClusterConfig): Manifest[] {
  const out: Manifest[] = [];
  const disabled = new Set(config.k3sDisable);
  if (!disabled.has('local-storage')) {
    out.push(
      sa('local-path-provisioner-service-account', 'kube-system'),
      simpleDeployment(
        'local-path-provisioner',
        'kube-system',
        { app: 'local-path-provisioner' },
        {
          name: 'local-path-provisioner',
          image: 'rancher/local-path-provisioner:v0.0.32',
          command: ['local-path-provisioner', 'start', '--config', '/etc/config/config.json'],
        },
        'local-path-provisioner-service-account',
      ),
    );
  }
  if (!disabled.has('metrics-server')) {
    out.push(
      sa('metrics-server', 'kube-system'),
      simpleDeployment(
        'metrics-server',
        'kube-system',
        { 'k8s-app': 'metrics-server' },
        {
          name: 'metrics-server',
          image: 'rancher/mirrored-metrics-server:v0.8.0',
          args: [
            '--cert-dir=/tmp',
            '--secure-port=10250',
            '--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname',
            '--kubelet-use-node-status-port',
            '--metric-resolution=15s',
          ],
          ports: [{ name: 'https', containerPort: 10250, protocol: 'TCP' }],
        },
        'metrics-server',
      ),
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: {
          name: 'metrics-server',
          namespace: 'kube-system',
          labels: { 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'Metrics-server' },
        },
        spec: {
          selector: { 'k8s-app': 'metrics-server' },
          ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 'https' }],
        },
      },
    );
  }
  if (!disabled.has('traefik')) {
    const labels = {
      'app.kubernetes.io/instance': 'traefik-kube-system',
      'app.kubernetes.io/name': 'traefik',
    };
    out.push(
      sa('traefik', 'kube-system'),
      simpleDeployment(
        'traefik',
        'kube-system',
        labels,
        {
          name: 'traefik',
          image: 'rancher/mirrored-library-traefik:3.5.1',
          args: [
            '--entryPoints.metrics.address=:9100/tcp',
            '--entryPoints.traefik.address=:8080/tcp',
            '--entryPoints.web.address=:8000/tcp',
            '--entryPoints.websecure.address=:8443/tcp',
            // The Traefik chart's `ports.websecure.tls.enabled: true` default (templates/_podtemplate.tpl).
            '--entryPoints.websecure.http.tls=true',
            '--api.dashboard=true',
            '--ping=true',
            '--metrics.prometheus=true',
            '--providers.kubernetescrd',
            '--providers.kubernetesingress',
            '--providers.kubernetesingress.ingressendpoint.publishedservice=kube-system/traefik',
          ],
          ports: [
            { name: 'metrics', containerPort: 9100, protocol: 'TCP' },
            { name: 'traefik', containerPort: 8080, protocol: 'TCP' },
            { name: 'web', containerPort: 8000, protocol: 'TCP' },
            { name: 'websecure', containerPort: 8443, protocol: 'TCP' },
          ],
          readinessProbe: {
            httpGet: { path: '/ping', port: 8080, scheme: 'HTTP' },
            failureThreshold: 1,
            initialDelaySeconds: 2,
            periodSeconds: 10,
          },
          livenessProbe: {
            httpGet: { path: '/ping', port: 8080, scheme: 'HTTP' },
            failureThreshold: 3,
            initialDelaySeconds: 2,
            periodSeconds: 10,
          },
        },
        'traefik',
      ),
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: {
          name: 'traefik',
          namespace: 'kube-system',
          labels: { ...labels, 'app.kubernetes.io/managed-by': 'Helm' },
        },
        spec: {
          type: 'LoadBalancer',
          selector: labels,
          ports: [
            { name: 'web', port: 80, protocol: 'TCP', targetPort: 'web' },
            { name: 'websecure', port: 443, protocol: 'TCP', targetPort: 'websecure' },
          ],
        },
      },
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'IngressClass',
        metadata: {
          name: 'traefik',
          annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' },
          labels: { ...labels, 'app.kubernetes.io/managed-by': 'Helm' },
        },
        spec: { controller: 'traefik.io/ingress-controller' },
      },
    );
  }
  return out;
}

interface LbService {
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly uid: string };
  readonly spec?: { readonly ports?: readonly { port: number; protocol?: string; nodePort?: number }[] };
}

/**
 * ServiceLB's DaemonSet for a LoadBalancer Service (k3s pkg/cloudprovider/servicelb.go): named
 * `svclb-<svc>-<first 8 of uid>`, one klipper-lb container per port holding the hostPort.
 */
export function svclbDaemonSet(svc: LbService): Manifest {
  const name = `svclb-${svc.metadata.name}-${svc.metadata.uid.slice(0, 8)}`;
  const labels = {
    app: name,
    'svccontroller.k3s.cattle.io/svcname': svc.metadata.name,
    'svccontroller.k3s.cattle.io/svcnamespace': svc.metadata.namespace ?? 'default',
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name,
      namespace: 'kube-system',
      labels: {
        'objectset.rio.cattle.io/owner-name': svc.metadata.name,
        'svccontroller.k3s.cattle.io/nodeselector': 'false',
      },
    },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels },
        spec: {
          serviceAccountName: 'svclb',
          automountServiceAccountToken: false,
          priorityClassName: 'system-node-critical',
          tolerations: [
            { key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' },
            { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
            { key: 'CriticalAddonsOnly', operator: 'Exists' },
          ],
          containers: (svc.spec?.ports ?? []).map((p) => {
            const proto = p.protocol ?? 'TCP';
            const cname = `lb-${proto.toLowerCase()}-${p.port}`;
            return {
              name: cname,
              image: 'rancher/klipper-lb:v0.4.13',
              imagePullPolicy: 'IfNotPresent',
              env: [
                { name: 'SRC_PORT', value: String(p.port) },
                { name: 'SRC_RANGES', value: '0.0.0.0/0' },
                { name: 'DEST_PROTO', value: proto },
                { name: 'DEST_PORTS', value: String(p.nodePort ?? p.port) },
              ],
              ports: [{ name: cname, containerPort: p.port, hostPort: p.port, protocol: proto }],
              securityContext: { capabilities: { add: ['NET_ADMIN'] } },
            };
          }),
        },
      },
    },
  };
}
