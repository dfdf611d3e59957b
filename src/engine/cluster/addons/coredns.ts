/**
 * The cluster DNS add-on as kubeadm installs it (cmd/kubeadm/app/phases/addons/dns/manifests.go) and as
 * k3s ships it (manifests/coredns.yaml): the `coredns` ConfigMap with the Corefile, the `coredns`
 * Deployment (2 replicas on kubeadm, 1 on k3s) and the `kube-dns` Service at the cluster DNS IP.
 */
import type { Manifest } from '../../api/objects.ts';
import type { ClusterConfig } from '../../api/cluster-config.ts';
import { defaultCorefileText } from '../../dataplane/dns/corefile.ts';

/** k3s's Corefile (k3s manifests/coredns.yaml), with NodeHosts and the custom import hooks. */
export function k3sCorefile(domain: string): string {
  return `.:53 {
    errors
    health
    ready
    kubernetes ${domain} in-addr.arpa ip6.arpa {
      pods insecure
      fallthrough in-addr.arpa ip6.arpa
    }
    hosts /etc/coredns/NodeHosts {
      ttl 60
      reload 15s
      fallthrough
    }
    prometheus :9153
    cache 30
    loop
    reload
    loadbalance
    import /etc/coredns/custom/*.override
    forward . /etc/resolv.conf
}
import /etc/coredns/custom/*.server
`;
}

export function corednsManifests(config: ClusterConfig): Manifest[] {
  const k3s = config.distribution === 'k3s';
  const data: Record<string, string> = {
    Corefile: k3s ? k3sCorefile(config.clusterDomain) : defaultCorefileText(config.clusterDomain),
  };
  if (k3s) data.NodeHosts = config.nodes.map((n) => `${n.internalIP} ${n.name}`).join('\n');
  const labels = { 'k8s-app': 'kube-dns' };
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'coredns', namespace: 'kube-system' } },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'coredns', namespace: 'kube-system' }, data },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'coredns',
        namespace: 'kube-system',
        labels: k3s ? { 'k8s-app': 'kube-dns', 'kubernetes.io/name': 'CoreDNS' } : labels,
      },
      spec: {
        replicas: k3s ? 1 : 2,
        revisionHistoryLimit: 0,
        selector: { matchLabels: labels },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: '25%' } },
        template: {
          metadata: { labels },
          spec: {
            priorityClassName: 'system-cluster-critical',
            serviceAccountName: 'coredns',
            dnsPolicy: 'Default',
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            tolerations: [
              { key: 'CriticalAddonsOnly', operator: 'Exists' },
              { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
            ],
            containers: [
              {
                name: 'coredns',
                image: k3s
                  ? 'rancher/mirrored-coredns-coredns:1.13.1'
                  : 'registry.k8s.io/coredns/coredns:v1.13.1',
                imagePullPolicy: 'IfNotPresent',
                args: ['-conf', '/etc/coredns/Corefile'],
                ports: [
                  { name: 'dns', containerPort: 53, protocol: 'UDP' },
                  { name: 'dns-tcp', containerPort: 53, protocol: 'TCP' },
                  { name: 'metrics', containerPort: 9153, protocol: 'TCP' },
                ],
                resources: { limits: { memory: '170Mi' }, requests: { cpu: '100m', memory: '70Mi' } },
                livenessProbe: {
                  httpGet: { path: '/health', port: 8080, scheme: 'HTTP' },
                  initialDelaySeconds: 60,
                  timeoutSeconds: 5,
                  successThreshold: 1,
                  failureThreshold: 5,
                },
                readinessProbe: { httpGet: { path: '/ready', port: 8181, scheme: 'HTTP' } },
                volumeMounts: [
                  { name: 'config-volume', mountPath: '/etc/coredns', readOnly: true },
                  // k3s's Corefile imports /etc/coredns/custom/*.override and *.server from here.
                  ...(k3s
                    ? [{ name: 'custom-config-volume', mountPath: '/etc/coredns/custom', readOnly: true }]
                    : []),
                ],
              },
            ],
            volumes: [
              {
                name: 'config-volume',
                configMap: {
                  name: 'coredns',
                  items: k3s
                    ? [
                        { key: 'Corefile', path: 'Corefile' },
                        { key: 'NodeHosts', path: 'NodeHosts' },
                      ]
                    : [{ key: 'Corefile', path: 'Corefile' }],
                },
              },
              ...(k3s
                ? [{ name: 'custom-config-volume', configMap: { name: 'coredns-custom', optional: true } }]
                : []),
            ],
          },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: 'kube-dns',
        namespace: 'kube-system',
        labels: {
          'k8s-app': 'kube-dns',
          'kubernetes.io/cluster-service': 'true',
          'kubernetes.io/name': 'CoreDNS',
        },
        annotations: { 'prometheus.io/port': '9153', 'prometheus.io/scrape': 'true' },
      },
      spec: {
        selector: labels,
        clusterIP: config.dnsIP,
        clusterIPs: [config.dnsIP],
        ports: [
          { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
          { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
          { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
        ],
      },
    },
  ];
}
