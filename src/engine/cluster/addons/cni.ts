/**
 * The network add-on's own workloads, as their upstream manifests install them: Calico
 * (calico.yaml: `calico-node` DaemonSet with its init containers, `calico-kube-controllers`),
 * flannel on kubeadm (kube-flannel.yml: namespace `kube-flannel`, `kube-flannel-ds`, `kube-flannel-cfg`)
 * and Cilium (helm defaults: `cilium` and `cilium-envoy` DaemonSets, `cilium-operator`). k3s runs
 * flannel inside its own process, so it has none.
 */
import { distributionOf } from '../../api/distribution.ts';
import type { Manifest } from '../../api/objects.ts';
import type { ClusterConfig } from '../../api/cluster-config.ts';
import { FLANNEL_CONFLIST } from '../../node/cni/flannel.ts';
import { kindnetManifests } from './kindnet.ts';

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

/**
 * The `cilium-config` ConfigMap of the Helm chart (install/kubernetes/cilium/templates/cilium-configmap.yaml)
 * with the chart's defaults, the ones kind's guide changes and what the cluster config decides:
 * kube-proxy replacement when the cluster has no kube-proxy, and a cluster-pool IPAM whose pool is the
 * cluster's pod subnet cut into node-sized blocks (`--set ipam.operator.clusterPoolIPv4PodCIDRList`),
 * so pods get the addresses of their node's podCIDR. No `mtu` key: the agent detects it (a learner may
 * add one). The agent reads this at start (node/cni/cni-settings.ts).
 */
function ciliumConfig(config: ClusterConfig): Manifest {
  const kpr = config.kubeProxyMode === 'none';
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'cilium-config', namespace: 'kube-system' },
    data: {
      'agent-not-ready-taint-key': 'node.cilium.io/agent-not-ready',
      'arping-refresh-period': '30s',
      'auto-direct-node-routes': 'false',
      'bpf-lb-acceleration': 'disabled',
      'bpf-lb-sock': 'false',
      'bpf-map-dynamic-size-ratio': '0.0025',
      'bpf-policy-map-max': '16384',
      'cgroup-root': '/run/cilium/cgroupv2',
      'cluster-id': '0',
      'cluster-name': 'default',
      'cluster-pool-ipv4-cidr': config.podSubnet,
      'cluster-pool-ipv4-mask-size': String(config.nodeCidrMaskSize),
      'cni-exclusive': 'true',
      'cni-log-file': '/var/run/cilium/cilium-cni.log',
      'custom-cni-conf': 'false',
      debug: 'false',
      'default-lb-service-ipam': 'lbipam',
      'direct-routing-skip-unreachable': 'false',
      'enable-bpf-clock-probe': 'false',
      'enable-bpf-masquerade': 'false',
      'enable-endpoint-health-checking': 'true',
      'enable-health-check-loadbalancer-ip': 'false',
      'enable-health-check-nodeport': 'true',
      'enable-health-checking': 'true',
      'enable-hubble': 'true',
      'enable-ipv4': 'true',
      'enable-ipv4-big-tcp': 'false',
      'enable-ipv4-masquerade': 'true',
      'enable-ipv6': 'false',
      'enable-ipv6-big-tcp': 'false',
      'enable-ipv6-masquerade': 'true',
      'enable-k8s-networkpolicy': 'true',
      'enable-l2-neigh-discovery': 'true',
      'enable-l7-proxy': 'true',
      'enable-policy': 'default',
      'enable-well-known-identities': 'false',
      'hubble-disable-tls': 'false',
      'hubble-listen-address': ':4244',
      'identity-allocation-mode': 'crd',
      ipam: 'cluster-pool',
      'ipam-cilium-node-update-rate': '15s',
      'k8s-client-burst': '20',
      'k8s-client-qps': '10',
      'kube-proxy-replacement': kpr ? 'true' : 'false',
      'kube-proxy-replacement-healthz-bind-address': '',
      'monitor-aggregation': 'medium',
      'monitor-aggregation-flags': 'all',
      'monitor-aggregation-interval': '5s',
      'operator-api-serve-addr': '127.0.0.1:9234',
      'policy-cidr-match-mode': '',
      'preallocate-bpf-maps': 'false',
      procfs: '/host/proc',
      'remove-cilium-node-taints': 'true',
      'routing-mode': 'tunnel',
      'synchronize-k8s-nodes': 'true',
      'tofqdns-dns-reject-response-code': 'refused',
      'tofqdns-enable-dns-compression': 'true',
      'tofqdns-endpoint-max-ip-per-hostname': '1000',
      'tofqdns-proxy-response-max-delay': '100ms',
      'tunnel-protocol': 'vxlan',
      'unmanaged-pod-watcher-interval': '15',
      'vtep-cidr': '',
      'vtep-endpoint': '',
      'vtep-mac': '',
      'vtep-mask': '',
      'write-cni-conf-when-ready': '/host/etc/cni/net.d/05-cilium.conflist',
    },
  };
}

export function cniManifests(config: ClusterConfig): Manifest[] {
  if (config.disableDefaultCNI || distributionOf(config).cniInProcess) return [];
  switch (config.cni) {
    case 'kindnet':
      return kindnetManifests(config);
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
        ciliumConfig(config),
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
