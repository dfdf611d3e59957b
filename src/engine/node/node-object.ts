/**
 * The Node object a kubelet registers (pkg/kubelet/kubelet_node_status.go `initialNode`,
 * `setNodeStatus`): well-known labels, kind's/k3s's annotations, addresses, capacity with
 * `pods: 110`, the four kubelet conditions and nodeInfo (kubelet version, OS image, kernel, container
 * runtime). `spec.podCIDR` is left to the node-ipam controller.
 */
import type { Manifest } from '../api/objects.ts';
import type { ClusterConfig, NodeConfig } from '../api/cluster-config.ts';
import { K3S_VERSION, KUBERNETES_VERSION } from '../api/cluster-config.ts';
import { fnv32a } from '../util/rng.ts';

export const CONTROL_PLANE_TAINT = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' };
export const NOT_READY_TAINT = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };

function hexId(seed: string, length: number): string {
  let hex = '';
  for (let i = 0; hex.length < length; i++) hex += fnv32a(`${seed}#${i}`).toString(16).padStart(8, '0');
  return hex.slice(0, length);
}

const uuidOf = (seed: string) => {
  const h = hexId(seed, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

/** The Node manifest a kubelet on `node` registers, with its initial status. */
export function nodeManifest(node: NodeConfig, config: ClusterConfig, now: string): Manifest {
  const k3s = config.distribution === 'k3s';
  const controlPlane = node.role === 'control-plane';
  const networkReady = !config.disableDefaultCNI;
  const labels: Record<string, string> = {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': node.name,
    'kubernetes.io/os': 'linux',
    ...(k3s ? { 'beta.kubernetes.io/instance-type': 'k3s', 'node.kubernetes.io/instance-type': 'k3s' } : {}),
    ...(controlPlane
      ? k3s
        ? { 'node-role.kubernetes.io/control-plane': 'true', 'node-role.kubernetes.io/master': 'true' }
        : {
            'node-role.kubernetes.io/control-plane': '',
            'node.kubernetes.io/exclude-from-external-load-balancers': '',
          }
      : {}),
    ...node.labels,
  };
  const annotations: Record<string, string> = k3s
    ? {
        'alpha.kubernetes.io/provided-node-ip': node.internalIP,
        'k3s.io/hostname': node.name,
        'k3s.io/internal-ip': node.internalIP,
        'k3s.io/node-args': controlPlane ? '["server"]' : '["agent"]',
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      }
    : {
        'kubeadm.alpha.kubernetes.io/cri-socket': 'unix:///run/containerd/containerd.sock',
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      };
  const taints = [
    ...(controlPlane && !k3s ? [CONTROL_PLANE_TAINT] : []),
    ...(networkReady ? [] : [NOT_READY_TAINT]),
  ];
  const resources = {
    cpu: '8',
    'ephemeral-storage': '102625208Ki',
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: '16299848Ki',
    pods: String(config.maxPods),
  };
  const condition = (type: string, status: string, reason: string, message: string) => ({
    type,
    status,
    lastHeartbeatTime: now,
    lastTransitionTime: now,
    reason,
    message,
  });
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: node.name, labels, annotations },
    spec: {
      ...(k3s
        ? { providerID: `k3s://${node.name}` }
        : { providerID: `kind://docker/${config.name}/${node.name}` }),
      ...(taints.length > 0 ? { taints } : {}),
    },
    status: {
      addresses: [
        { type: 'InternalIP', address: node.internalIP },
        { type: 'Hostname', address: node.name },
      ],
      allocatable: resources,
      capacity: resources,
      conditions: [
        condition(
          'MemoryPressure',
          'False',
          'KubeletHasSufficientMemory',
          'kubelet has sufficient memory available',
        ),
        condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        networkReady
          ? condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status')
          : condition(
              'Ready',
              'False',
              'KubeletNotReady',
              'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
            ),
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        architecture: 'amd64',
        bootID: uuidOf(`${node.name}/boot`),
        containerRuntimeVersion: k3s ? 'containerd://2.1.5-k3s1' : 'containerd://2.1.5',
        kernelVersion: '6.8.0-90-generic',
        kubeProxyVersion: '',
        kubeletVersion: k3s ? K3S_VERSION : KUBERNETES_VERSION,
        machineID: hexId(`${node.name}/machine`, 32),
        operatingSystem: 'linux',
        osImage: k3s ? `K3s ${K3S_VERSION}` : 'Debian GNU/Linux 12 (bookworm)',
        systemUUID: uuidOf(`${node.name}/system`),
      },
      images: [],
    },
  };
}
