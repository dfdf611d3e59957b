/**
 * kube-proxy as kubeadm deploys it (cmd/kubeadm/app/phases/addons/proxy/manifests.go): the
 * `kube-proxy` ConfigMap whose `config.conf` holds the KubeProxyConfiguration (`mode:`), and the
 * `kube-proxy` DaemonSet on every node, hostNetwork, tolerating every taint.
 */
import type { Manifest } from '../../api/objects.ts';
import type { ClusterConfig } from '../../api/cluster-config.ts';
import { KUBERNETES_VERSION } from '../../api/cluster-config.ts';

export function kubeProxyConfig(config: ClusterConfig): string {
  const mode = config.kubeProxyMode === 'none' ? 'iptables' : config.kubeProxyMode;
  return `apiVersion: kubeproxy.config.k8s.io/v1alpha1
bindAddress: 0.0.0.0
bindAddressHardFail: false
clientConnection:
  acceptContentTypes: ""
  burst: 0
  contentType: ""
  kubeconfig: /var/lib/kube-proxy/kubeconfig.conf
  qps: 0
clusterCIDR: ${config.podSubnet}
configSyncPeriod: 0s
conntrack:
  maxPerCore: 0
  min: null
  tcpBeLiberal: false
  tcpCloseWaitTimeout: null
  tcpEstablishedTimeout: null
  udpStreamTimeout: 0s
  udpTimeout: 0s
detectLocal:
  bridgeInterface: ""
  interfaceNamePrefix: ""
detectLocalMode: ""
enableProfiling: false
healthzBindAddress: ""
hostnameOverride: ""
iptables:
  localhostNodePorts: null
  masqueradeAll: false
  masqueradeBit: null
  minSyncPeriod: 1s
  syncPeriod: 0s
ipvs:
  excludeCIDRs: null
  minSyncPeriod: 0s
  scheduler: ""
  strictARP: false
  syncPeriod: 0s
  tcpFinTimeout: 0s
  tcpTimeout: 0s
  udpTimeout: 0s
kind: KubeProxyConfiguration
logging:
  flushFrequency: 0
  options:
    json:
      infoBufferSize: "0"
    text:
      infoBufferSize: "0"
  verbosity: 0
metricsBindAddress: ""
mode: "${mode}"
nftables:
  masqueradeAll: false
  masqueradeBit: null
  minSyncPeriod: 0s
  syncPeriod: 0s
nodePortAddresses: null
oomScoreAdj: null
portRange: ""
showHiddenMetricsForVersion: ""
winkernel:
  enableDSR: false
  forwardHealthCheckVip: false
  networkName: ""
  rootHnsEndpointName: ""
  sourceVip: ""
`;
}

export function kubeProxyManifests(config: ClusterConfig): Manifest[] {
  const controlPlane = config.nodes.find((n) => n.role === 'control-plane')!;
  const labels = { 'k8s-app': 'kube-proxy' };
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'kube-proxy', namespace: 'kube-system' } },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'kube-proxy', namespace: 'kube-system', labels: { app: 'kube-proxy' } },
      data: {
        'config.conf': kubeProxyConfig(config),
        'kubeconfig.conf': `apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority: /var/run/secrets/kubernetes.io/serviceaccount/ca.crt
    server: https://${config.name}-control-plane:6443
  name: default
contexts:
- context:
    cluster: default
    namespace: default
    user: default
  name: default
current-context: default
users:
- name: default
  user:
    tokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token
`.replace(`${config.name}-control-plane`, controlPlane.name),
      },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'kube-proxy', namespace: 'kube-system', labels },
      spec: {
        selector: { matchLabels: labels },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
        template: {
          metadata: { labels },
          spec: {
            hostNetwork: true,
            priorityClassName: 'system-node-critical',
            serviceAccountName: 'kube-proxy',
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            tolerations: [{ operator: 'Exists' }],
            containers: [
              {
                name: 'kube-proxy',
                image: `registry.k8s.io/kube-proxy:${KUBERNETES_VERSION}`,
                imagePullPolicy: 'IfNotPresent',
                command: [
                  '/usr/local/bin/kube-proxy',
                  '--config=/var/lib/kube-proxy/config.conf',
                  '--hostname-override=$(NODE_NAME)',
                ],
                env: [
                  {
                    name: 'NODE_NAME',
                    valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } },
                  },
                ],
                securityContext: { privileged: true },
                volumeMounts: [
                  { name: 'kube-proxy', mountPath: '/var/lib/kube-proxy' },
                  { name: 'xtables-lock', mountPath: '/run/xtables.lock' },
                  { name: 'lib-modules', mountPath: '/lib/modules', readOnly: true },
                ],
              },
            ],
            volumes: [
              { name: 'kube-proxy', configMap: { name: 'kube-proxy' } },
              { name: 'xtables-lock', hostPath: { path: '/run/xtables.lock', type: 'FileOrCreate' } },
              { name: 'lib-modules', hostPath: { path: '/lib/modules' } },
            ],
          },
        },
      },
    },
  ];
}
