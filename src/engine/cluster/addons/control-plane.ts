/**
 * kubeadm's static control-plane pods (cmd/kubeadm/app/phases/controlplane/manifests.go,
 * phases/etcd/local.go) as the kubelet mirrors them into the API: `<component>-<node>` in
 * kube-system, hostNetwork on the node's address, owned by the Node, with the flags a learner reads to
 * find the cluster's CIDRs (`--service-cluster-ip-range`, `--cluster-cidr`).
 */
import type { Manifest } from '../../api/objects.ts';
import type { ClusterConfig, NodeConfig } from '../../api/cluster-config.ts';
import { KUBERNETES_VERSION } from '../../api/cluster-config.ts';

const ETCD_VERSION = '3.6.6-0';

function staticPod(
  node: NodeConfig,
  nodeUid: string,
  component: string,
  image: string,
  command: string[],
  port: number,
  extra: Record<string, string> = {},
): Manifest {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${component}-${node.name}`,
      namespace: 'kube-system',
      labels: { component, tier: 'control-plane' },
      annotations: {
        'kubernetes.io/config.source': 'file',
        'kubernetes.io/config.seen': '2026-01-01T00:00:00.000000000Z',
        ...extra,
      },
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: node.name, uid: nodeUid, controller: true }],
    },
    spec: {
      nodeName: node.name,
      hostNetwork: true,
      priorityClassName: 'system-node-critical',
      priority: 2000001000,
      dnsPolicy: 'ClusterFirst',
      enableServiceLinks: true,
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
      terminationGracePeriodSeconds: 30,
      tolerations: [{ effect: 'NoExecute', operator: 'Exists' }],
      containers: [
        {
          name: component,
          image,
          imagePullPolicy: 'IfNotPresent',
          command,
          livenessProbe: {
            httpGet: {
              host: component === 'kube-apiserver' ? node.internalIP : '127.0.0.1',
              path: component === 'etcd' ? '/livez' : component === 'kube-apiserver' ? '/livez' : '/healthz',
              port,
              scheme: component === 'etcd' ? 'HTTP' : 'HTTPS',
            },
            initialDelaySeconds: 10,
            periodSeconds: 10,
            timeoutSeconds: 15,
            failureThreshold: 8,
            successThreshold: 1,
          },
          resources: {
            requests: {
              cpu:
                component === 'etcd'
                  ? '100m'
                  : component === 'kube-apiserver'
                    ? '250m'
                    : component === 'kube-controller-manager'
                      ? '200m'
                      : '100m',
              ...(component === 'etcd' ? { memory: '100Mi' } : {}),
            },
          },
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
        },
      ],
    },
  };
}

export function controlPlanePods(config: ClusterConfig, node: NodeConfig, nodeUid: string): Manifest[] {
  const ip = node.internalIP;
  const reg = 'registry.k8s.io';
  return [
    staticPod(
      node,
      nodeUid,
      'etcd',
      `${reg}/etcd:${ETCD_VERSION}`,
      [
        'etcd',
        `--advertise-client-urls=https://${ip}:2379`,
        '--cert-file=/etc/kubernetes/pki/etcd/server.crt',
        '--client-cert-auth=true',
        '--data-dir=/var/lib/etcd',
        '--feature-gates=InitialCorruptCheck=true',
        `--initial-advertise-peer-urls=https://${ip}:2380`,
        `--initial-cluster=${node.name}=https://${ip}:2380`,
        '--key-file=/etc/kubernetes/pki/etcd/server.key',
        `--listen-client-urls=https://127.0.0.1:2379,https://${ip}:2379`,
        '--listen-metrics-urls=http://127.0.0.1:2381',
        `--listen-peer-urls=https://${ip}:2380`,
        `--name=${node.name}`,
        '--peer-cert-file=/etc/kubernetes/pki/etcd/peer.crt',
        '--peer-client-cert-auth=true',
        '--peer-key-file=/etc/kubernetes/pki/etcd/peer.key',
        '--peer-trusted-ca-file=/etc/kubernetes/pki/etcd/ca.crt',
        '--snapshot-count=10000',
        '--trusted-ca-file=/etc/kubernetes/pki/etcd/ca.crt',
      ],
      2381,
      { 'kubeadm.kubernetes.io/etcd.advertise-client-urls': `https://${ip}:2379` },
    ),
    staticPod(
      node,
      nodeUid,
      'kube-apiserver',
      `${reg}/kube-apiserver:${KUBERNETES_VERSION}`,
      [
        'kube-apiserver',
        `--advertise-address=${ip}`,
        '--allow-privileged=true',
        '--authorization-mode=Node,RBAC',
        '--client-ca-file=/etc/kubernetes/pki/ca.crt',
        '--enable-admission-plugins=NodeRestriction',
        '--enable-bootstrap-token-auth=true',
        '--etcd-servers=https://127.0.0.1:2379',
        '--runtime-config=',
        '--secure-port=6443',
        '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
        `--service-cluster-ip-range=${config.serviceSubnet}`,
        '--tls-cert-file=/etc/kubernetes/pki/apiserver.crt',
        '--tls-private-key-file=/etc/kubernetes/pki/apiserver.key',
      ],
      6443,
      { 'kubeadm.kubernetes.io/kube-apiserver.advertise-address.endpoint': `${ip}:6443` },
    ),
    staticPod(
      node,
      nodeUid,
      'kube-controller-manager',
      `${reg}/kube-controller-manager:${KUBERNETES_VERSION}`,
      [
        'kube-controller-manager',
        '--allocate-node-cidrs=true',
        '--authentication-kubeconfig=/etc/kubernetes/controller-manager.conf',
        '--authorization-kubeconfig=/etc/kubernetes/controller-manager.conf',
        '--bind-address=127.0.0.1',
        '--client-ca-file=/etc/kubernetes/pki/ca.crt',
        `--cluster-cidr=${config.podSubnet}`,
        `--cluster-name=${config.name}`,
        '--controllers=*,bootstrapsigner,tokencleaner',
        '--enable-hostpath-provisioner=true',
        '--kubeconfig=/etc/kubernetes/controller-manager.conf',
        '--leader-elect=true',
        `--node-cidr-mask-size-ipv4=${config.nodeCidrMaskSize}`,
        `--service-cluster-ip-range=${config.serviceSubnet}`,
        '--use-service-account-credentials=true',
      ],
      10257,
    ),
    staticPod(
      node,
      nodeUid,
      'kube-scheduler',
      `${reg}/kube-scheduler:${KUBERNETES_VERSION}`,
      [
        'kube-scheduler',
        '--authentication-kubeconfig=/etc/kubernetes/scheduler.conf',
        '--authorization-kubeconfig=/etc/kubernetes/scheduler.conf',
        '--bind-address=127.0.0.1',
        '--kubeconfig=/etc/kubernetes/scheduler.conf',
        '--leader-elect=true',
      ],
      10259,
    ),
  ];
}
