/**
 * The ConfigMaps the control plane writes while it comes up, besides CoreDNS's and kube-proxy's:
 *
 * - kube-apiserver's own two, on every distribution: `extension-apiserver-authentication` (the
 *   cluster authentication trust controller publishes its client CA and its `--requestheader-*`
 *   settings for aggregated API servers) and `kube-apiserver-legacy-service-account-token-tracking`
 *   (the day it began tracking legacy token use, `since: YYYY-MM-DD`);
 * - kubeadm's uploads (cmd/kubeadm/app/phases/uploadconfig, kubelet, bootstraptoken/clusterinfo):
 *   `kubeadm-config` (the ClusterConfiguration, as kind generates it), `kubelet-config` (the
 *   KubeletConfiguration with kind's patches: systemd cgroups, no disk-based eviction, swap allowed)
 *   and `kube-public/cluster-info` (a kubeconfig holding only the CA and the control-plane endpoint,
 *   signed by the bootstrap signer with kind's bootstrap token `abcdef`).
 */
import { distributionOf } from '../../api/distribution.ts';
import type { NewObject } from '../../api/store.ts';
import type { ClusterConfig } from '../../api/cluster-config.ts';
import { KUBERNETES_VERSION } from '../../api/cluster-config.ts';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base64Encode, base64UrlEncode, utf8Encode } from '../../util/encoding.ts';
import { clusterCaPem } from '../../controllers/cluster-ca.ts';

/** What the control plane knows of itself: kube-system's uid seeds its certificates, as it does the CA. */
export interface ControlPlaneIdentity {
  readonly systemUid: string;
  /** When kube-system was created: the control plane's birth, which dates its certificates. */
  readonly createdMs: number;
}

/** A ConfigMap as decoding would store it (data keys sorted), for the store directly. */
export const configMap = (namespace: string, name: string, data: Record<string, string>): NewObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace },
  data: Object.fromEntries(Object.entries(data).sort(([a], [b]) => (a < b ? -1 : 1))),
});

/** A seed for one of the control plane's certificates, from the same root as the cluster CA's. */
const caSeed = (config: ClusterConfig, id: ControlPlaneIdentity): string => `${config.name}/${id.systemUid}`;

/** The cluster CA, exactly as the root CA publisher puts it in every `kube-root-ca.crt`. */
export function clusterCa(config: ClusterConfig, id: ControlPlaneIdentity): string {
  return clusterCaPem(distributionOf(config).bootstrap, caSeed(config, id), id.createdMs);
}

export function apiserverConfigMaps(
  config: ClusterConfig,
  id: ControlPlaneIdentity,
  today: string,
): NewObject[] {
  const k3s = distributionOf(config).bootstrap === 'k3s';
  const seed = caSeed(config, id);
  // k3s signs client certificates with a CA of their own (client-ca.crt); kubeadm uses the cluster CA.
  const clientCa = k3s
    ? clusterCaPem('k3s', `${seed}/client`, id.createdMs, 'k3s-client-ca')
    : clusterCa(config, id);
  const requestHeaderCa = k3s
    ? clusterCaPem('k3s', `${seed}/request-header`, id.createdMs, 'k3s-request-header-ca')
    : clusterCaPem('kubeadm', `${seed}/front-proxy`, id.createdMs, 'front-proxy-ca');
  return [
    configMap('kube-system', 'extension-apiserver-authentication', {
      'client-ca-file': clientCa,
      'requestheader-allowed-names': JSON.stringify([k3s ? 'system:auth-proxy' : 'front-proxy-client']),
      'requestheader-client-ca-file': requestHeaderCa,
      'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
      'requestheader-group-headers': '["X-Remote-Group"]',
      'requestheader-username-headers': '["X-Remote-User"]',
    }),
    configMap('kube-system', 'kube-apiserver-legacy-service-account-token-tracking', { since: today }),
  ];
}

/** kind's endpoint: its load balancer when there are several control planes, else the one node. */
function controlPlaneEndpoint(config: ClusterConfig): string {
  const masters = config.nodes.filter((n) => n.role === 'control-plane');
  const host = masters.length > 1 ? `${config.name}-external-load-balancer` : masters[0]?.name;
  return `${host ?? `${config.name}-control-plane`}:6443`;
}

export function kubeadmConfigMaps(config: ClusterConfig, id: ControlPlaneIdentity): NewObject[] {
  const endpoint = controlPlaneEndpoint(config);
  const clusterConfiguration = `apiServer:
  certSANs:
  - localhost
  - 127.0.0.1
  extraArgs:
  - name: runtime-config
    value: ""
apiVersion: kubeadm.k8s.io/v1beta4
caCertificateValidityPeriod: 87600h0m0s
certificateValidityPeriod: 8760h0m0s
certificatesDir: /etc/kubernetes/pki
clusterName: ${config.name}
controlPlaneEndpoint: ${endpoint}
controllerManager:
  extraArgs:
  - name: enable-hostpath-provisioner
    value: "true"
dns: {}
encryptionAlgorithm: RSA-2048
etcd:
  local:
    dataDir: /var/lib/etcd
imageRepository: registry.k8s.io
kind: ClusterConfiguration
kubernetesVersion: ${KUBERNETES_VERSION}
networking:
  dnsDomain: ${config.clusterDomain}
  podSubnet: ${config.podSubnet}
  serviceSubnet: ${config.serviceSubnet}
proxy: {}
scheduler: {}
`;
  const kubeletConfiguration = `apiVersion: kubelet.config.k8s.io/v1beta1
authentication:
  anonymous:
    enabled: false
  webhook:
    cacheTTL: 0s
    enabled: true
  x509:
    clientCAFile: /etc/kubernetes/pki/ca.crt
authorization:
  mode: Webhook
  webhook:
    cacheAuthorizedTTL: 0s
    cacheUnauthorizedTTL: 0s
cgroupDriver: systemd
cgroupRoot: /kubelet
clusterDNS:
- ${config.dnsIP}
clusterDomain: ${config.clusterDomain}
containerRuntimeEndpoint: ""
cpuManagerReconcilePeriod: 0s
crashLoopBackOff: {}
evictionHard:
  imagefs.available: 0%
  nodefs.available: 0%
  nodefs.inodesFree: 0%
evictionPressureTransitionPeriod: 0s
failSwapOn: false
fileCheckFrequency: 0s
healthzBindAddress: 127.0.0.1
healthzPort: 10248
httpCheckFrequency: 0s
imageGCHighThresholdPercent: 100
imageMaximumGCAge: 0s
imageMinimumGCAge: 0s
kind: KubeletConfiguration
logging:
  flushFrequency: 0
  options:
    json:
      infoBufferSize: "0"
    text:
      infoBufferSize: "0"
  verbosity: 0
memorySwap: {}
nodeStatusReportFrequency: 0s
nodeStatusUpdateFrequency: 0s
rotateCertificates: true
runtimeRequestTimeout: 0s
shutdownGracePeriod: 0s
shutdownGracePeriodCriticalPods: 0s
staticPodPath: /etc/kubernetes/manifests
streamingConnectionIdleTimeout: 0s
syncFrequency: 0s
volumeStatsAggPeriod: 0s
`;
  const kubeconfig = `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: ${base64Encode(utf8Encode(clusterCa(config, id)))}
    server: https://${endpoint}
  name: ""
contexts: null
current-context: ""
kind: Config
preferences: {}
users: null
`;
  // The bootstrap signer's detached JWS (header..signature): HS256 over the kubeconfig, keyed by the
  // token's secret (bootstrap/jws ComputeDetachedSignature), so it verifies as the real one does.
  const header = base64UrlEncode(utf8Encode('{"alg":"HS256","kid":"abcdef"}'));
  const signature = base64UrlEncode(
    hmac(
      sha256,
      utf8Encode(BOOTSTRAP_TOKEN_SECRET),
      utf8Encode(`${header}.${base64UrlEncode(utf8Encode(kubeconfig))}`),
    ),
  );
  return [
    configMap('kube-public', 'cluster-info', {
      'jws-kubeconfig-abcdef': `${header}..${signature}`,
      kubeconfig,
    }),
    configMap('kube-system', 'kubeadm-config', { ClusterConfiguration: clusterConfiguration }),
    withConfigHash(configMap('kube-system', 'kubelet-config', { kubelet: kubeletConfiguration })),
  ];
}

/** kind's bootstrap token is `abcdef.0123456789abcdef` (pkg/cluster/internal/kubeadm/const.go). */
const BOOTSTRAP_TOKEN_SECRET = '0123456789abcdef';

/**
 * kubeadm's `component-config.hash` annotation (componentconfigs.ChecksumForConfigMap): sha256 over
 * the data values in key order.
 */
function withConfigHash(cm: NewObject): NewObject {
  const data = (cm as { data?: Record<string, string> }).data ?? {};
  const h = sha256.create();
  for (const k of Object.keys(data).sort()) h.update(utf8Encode(data[k]!));
  const hex = [...h.digest()].map((b) => b.toString(16).padStart(2, '0')).join('');
  return {
    ...cm,
    metadata: {
      ...cm.metadata,
      annotations: { 'kubeadm.kubernetes.io/component-config.hash': `sha256:${hex}` },
    },
  };
}
