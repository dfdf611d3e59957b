/**
 * The network add-on's own workloads, as their upstream manifests install them: Calico
 * (calico.yaml: `calico-node` DaemonSet with its init containers, `calico-kube-controllers`),
 * flannel on kubeadm (kube-flannel.yml: namespace `kube-flannel`, `kube-flannel-ds`, `kube-flannel-cfg`)
 * and Cilium (helm defaults: `cilium` and `cilium-envoy` DaemonSets, `cilium-operator`). k3s runs
 * flannel inside its own process, so it has none.
 */
import type { Manifest } from '../../api/objects.ts';
import type { ClusterConfig } from '../../cluster/config.ts';
import { FLANNEL_CONFLIST } from '../../node/cni/flannel.ts';

type Container = Record<string, unknown>;

function daemonSet(
  name: string,
  namespace: string,
  labels: Record<string, string>,
  initContainers: Container[],
  containers: Container[],
  extra: Record<string, unknown> = {},
): Manifest {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace, labels },
    spec: {
      selector: { matchLabels: labels },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
      template: {
        metadata: { labels },
        spec: {
          hostNetwork: true,
          priorityClassName: 'system-node-critical',
          serviceAccountName: name,
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          tolerations: [
            { operator: 'Exists', effect: 'NoSchedule' },
            { key: 'CriticalAddonsOnly', operator: 'Exists' },
            { operator: 'Exists', effect: 'NoExecute' },
          ],
          terminationGracePeriodSeconds: 0,
          initContainers,
          containers,
          ...extra,
        },
      },
    },
  };
}

function deployment(
  name: string,
  namespace: string,
  labels: Record<string, string>,
  containers: Container[],
  replicas = 1,
): Manifest {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, labels },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      strategy: { type: 'Recreate' },
      template: {
        metadata: { labels },
        spec: {
          priorityClassName: 'system-cluster-critical',
          serviceAccountName: name,
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          tolerations: [
            { key: 'CriticalAddonsOnly', operator: 'Exists' },
            { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
          ],
          containers,
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

export function cniManifests(config: ClusterConfig): Manifest[] {
  if (config.disableDefaultCNI || config.distribution === 'k3s') return [];
  switch (config.cni) {
    case 'calico': {
      const v = 'v3.31.2';
      return [
        sa('calico-node', 'kube-system'),
        sa('calico-kube-controllers', 'kube-system'),
        daemonSet(
          'calico-node',
          'kube-system',
          { 'k8s-app': 'calico-node' },
          [
            {
              name: 'upgrade-ipam',
              image: `docker.io/calico/cni:${v}`,
              imagePullPolicy: 'IfNotPresent',
              command: ['/opt/cni/bin/calico-ipam', '-upgrade'],
            },
            {
              name: 'install-cni',
              image: `docker.io/calico/cni:${v}`,
              imagePullPolicy: 'IfNotPresent',
              command: ['/opt/cni/bin/install'],
            },
            {
              name: 'mount-bpffs',
              image: `docker.io/calico/node:${v}`,
              imagePullPolicy: 'IfNotPresent',
              command: ['calico-node', '-init', '-best-effort'],
            },
          ],
          [
            {
              name: 'calico-node',
              image: `docker.io/calico/node:${v}`,
              imagePullPolicy: 'IfNotPresent',
              env: [
                { name: 'DATASTORE_TYPE', value: 'kubernetes' },
                { name: 'CLUSTER_TYPE', value: 'k8s,bgp' },
                { name: 'IP', value: 'autodetect' },
                { name: 'CALICO_IPV4POOL_IPIP', value: 'Always' },
                { name: 'CALICO_IPV4POOL_CIDR', value: config.podSubnet },
                { name: 'FELIX_IPINIPMTU', value: String(config.nodeMTU - 20) },
              ],
              readinessProbe: {
                exec: { command: ['/bin/calico-node', '-felix-ready', '-bird-ready'] },
                periodSeconds: 10,
                timeoutSeconds: 10,
              },
              livenessProbe: {
                exec: { command: ['/bin/calico-node', '-felix-live', '-bird-live'] },
                periodSeconds: 10,
                initialDelaySeconds: 10,
                failureThreshold: 6,
                timeoutSeconds: 10,
              },
              resources: { requests: { cpu: '250m' } },
              securityContext: { privileged: true },
            },
          ],
        ),
        deployment('calico-kube-controllers', 'kube-system', { 'k8s-app': 'calico-kube-controllers' }, [
          {
            name: 'calico-kube-controllers',
            image: `docker.io/calico/kube-controllers:${v}`,
            imagePullPolicy: 'IfNotPresent',
            env: [
              { name: 'ENABLED_CONTROLLERS', value: 'node,loadbalancer' },
              { name: 'DATASTORE_TYPE', value: 'kubernetes' },
            ],
          },
        ]),
      ];
    }
    case 'flannel': {
      const labels = { app: 'flannel', 'k8s-app': 'flannel', tier: 'node' };
      return [
        {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: {
            name: 'kube-flannel',
            labels: { 'k8s-app': 'flannel', 'pod-security.kubernetes.io/enforce': 'privileged' },
          },
        },
        sa('flannel', 'kube-flannel'),
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: {
            name: 'kube-flannel-cfg',
            namespace: 'kube-flannel',
            labels: { app: 'flannel', 'k8s-app': 'flannel', tier: 'node' },
          },
          data: {
            'cni-conf.json': FLANNEL_CONFLIST,
            'net-conf.json': `{\n  "Network": "${config.podSubnet}",\n  "EnableNFTables": false,\n  "Backend": {\n    "Type": "vxlan"\n  }\n}\n`,
          },
        },
        {
          ...daemonSet(
            'kube-flannel-ds',
            'kube-flannel',
            labels,
            [
              {
                name: 'install-cni-plugin',
                image: 'ghcr.io/flannel-io/flannel-cni-plugin:v1.8.0-flannel1',
                imagePullPolicy: 'IfNotPresent',
                command: ['cp'],
                args: ['-f', '/flannel', '/opt/cni/bin/flannel'],
              },
              {
                name: 'install-cni',
                image: 'ghcr.io/flannel-io/flannel:v0.27.4',
                imagePullPolicy: 'IfNotPresent',
                command: ['cp'],
                args: ['-f', '/etc/kube-flannel/cni-conf.json', '/etc/cni/net.d/10-flannel.conflist'],
              },
            ],
            [
              {
                name: 'kube-flannel',
                image: 'ghcr.io/flannel-io/flannel:v0.27.4',
                imagePullPolicy: 'IfNotPresent',
                command: ['/opt/bin/flanneld'],
                args: ['--ip-masq', '--kube-subnet-mgr'],
                env: [{ name: 'EVENT_QUEUE_DEPTH', value: '5000' }],
                resources: { requests: { cpu: '100m', memory: '50Mi' } },
                securityContext: { privileged: false, capabilities: { add: ['NET_ADMIN', 'NET_RAW'] } },
              },
            ],
            { serviceAccountName: 'flannel' },
          ),
        },
      ];
    }
    case 'cilium': {
      const v = 'v1.18.4';
      return [
        sa('cilium', 'kube-system'),
        sa('cilium-operator', 'kube-system'),
        sa('cilium-envoy', 'kube-system'),
        daemonSet(
          'cilium',
          'kube-system',
          {
            'k8s-app': 'cilium',
            'app.kubernetes.io/name': 'cilium-agent',
            'app.kubernetes.io/part-of': 'cilium',
          },
          [
            {
              name: 'config',
              image: `quay.io/cilium/cilium:${v}`,
              imagePullPolicy: 'IfNotPresent',
              command: ['cilium-dbg', 'build-config'],
            },
            {
              name: 'mount-cgroup',
              image: `quay.io/cilium/cilium:${v}`,
              imagePullPolicy: 'IfNotPresent',
              command: ['sh', '-ec', 'cp /usr/bin/cilium-mount /hostbin/cilium-mount;'],
            },
            {
              name: 'apply-sysctl-overwrites',
              image: `quay.io/cilium/cilium:${v}`,
              imagePullPolicy: 'IfNotPresent',
              command: ['sh', '-ec', 'cp /usr/bin/cilium-sysctlfix /hostbin/cilium-sysctlfix;'],
            },
            {
              name: 'mount-bpf-fs',
              image: `quay.io/cilium/cilium:${v}`,
              imagePullPolicy: 'IfNotPresent',
              command: ['/bin/bash', '-c', '--'],
              args: ['mount | grep "/sys/fs/bpf type bpf" || mount -t bpf bpf /sys/fs/bpf'],
            },
            {
              name: 'clean-cilium-state',
              image: `quay.io/cilium/cilium:${v}`,
              imagePullPolicy: 'IfNotPresent',
              command: ['/init-container.sh'],
            },
            {
              name: 'install-cni-binaries',
              image: `quay.io/cilium/cilium:${v}`,
              imagePullPolicy: 'IfNotPresent',
              command: ['/install-plugin.sh'],
            },
          ],
          [
            {
              name: 'cilium-agent',
              image: `quay.io/cilium/cilium:${v}`,
              imagePullPolicy: 'IfNotPresent',
              command: ['cilium-agent'],
              args: ['--config-dir=/tmp/cilium/config-map'],
              readinessProbe: {
                httpGet: { host: '127.0.0.1', path: '/healthz', port: 9879, scheme: 'HTTP' },
                periodSeconds: 30,
                failureThreshold: 3,
              },
              livenessProbe: {
                httpGet: { host: '127.0.0.1', path: '/healthz', port: 9879, scheme: 'HTTP' },
                periodSeconds: 30,
                failureThreshold: 10,
              },
            },
          ],
        ),
        daemonSet(
          'cilium-envoy',
          'kube-system',
          {
            'k8s-app': 'cilium-envoy',
            'app.kubernetes.io/name': 'cilium-envoy',
            'app.kubernetes.io/part-of': 'cilium',
          },
          [],
          [
            {
              name: 'cilium-envoy',
              image: 'quay.io/cilium/cilium-envoy:v1.34.10',
              imagePullPolicy: 'IfNotPresent',
              command: ['/usr/bin/cilium-envoy-starter'],
            },
          ],
        ),
        {
          ...deployment(
            'cilium-operator',
            'kube-system',
            {
              'io.cilium/app': 'operator',
              name: 'cilium-operator',
              'app.kubernetes.io/name': 'cilium-operator',
              'app.kubernetes.io/part-of': 'cilium',
            },
            [
              {
                name: 'cilium-operator',
                image: `quay.io/cilium/operator-generic:${v}`,
                imagePullPolicy: 'IfNotPresent',
                command: ['cilium-operator-generic'],
                args: ['--config-dir=/tmp/cilium/config-map'],
              },
            ],
          ),
        },
      ];
    }
  }
}
