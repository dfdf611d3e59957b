/**
 * Brings a new cluster to what its distribution shows a few minutes after `kind create cluster` or a
 * k3s install, by doing what the real components do, through the API, in their order:
 *
 * 1. the API server's own namespaces and the `kubernetes` Service (with its Endpoints and slice);
 * 2. the control-plane kubelets register their Nodes (node IPAM gives them a podCIDR) and, on kubeadm,
 *    their static pods (etcd, kube-apiserver, kube-controller-manager, kube-scheduler) are mirrored;
 *    kube-controller-manager's controllers create their ServiceAccounts, and every namespace gets its
 *    `default` ServiceAccount and `kube-root-ca.crt` ConfigMap; kube-apiserver publishes its
 *    authentication settings and kubeadm uploads its configuration (kubeadm-config, kubelet-config,
 *    kube-public's cluster-info);
 * 3. the add-ons: kube-proxy (unless `kubeProxyMode: none`; k3s runs it in-process), the CNI's own
 *    pods (k3s's flannel is in-process), CoreDNS with its ConfigMap and the kube-dns Service, kind's
 *    local-path-provisioner or k3s's local-path, metrics-server and Traefik;
 * 4. the workers register (so, as on a real cluster, CoreDNS already sits on the control plane);
 * 5. time runs until every system pod is up, then a few minutes more.
 */
import type { Cluster } from './cluster.ts';
import type { AnyObject, Manifest } from '../api/objects.ts';
import { isStatusError } from '../api/errors.ts';
import { formatIPv4, nthAddress, parseCidr } from '../util/ip.ts';
import { nodeManifest } from '../node/node-object.ts';
import { controlPlanePods } from './addons/control-plane.ts';
import { controllerServiceAccounts } from './addons/kube-controller-manager.ts';
import { corednsManifests } from './addons/coredns.ts';
import { kubeProxyManifests } from './addons/kube-proxy.ts';
import { cniManifests } from './addons/cni.ts';
import { k3sAddons, k3sLocalPathConfig, kindLocalPath } from './addons/k3s.ts';
import {
  apiserverConfigMaps,
  kubeadmConfigMaps,
  type ControlPlaneIdentity,
} from './addons/kubeadm-config.ts';
import type { NewObject } from '../api/store.ts';
import { Rng } from '../util/rng.ts';
import { parseTimestamp } from '../util/clock.ts';
import { imageIdOf, resolveImage } from '../node/images.ts';
import { formatImageRef } from '../api/image-ref.ts';
import { KUBERNETES_VERSION } from '../api/cluster-config.ts';

/** How old the cluster is when the learner gets it. */
const CLUSTER_AGE_MS = 5 * 60_000;
/** Images baked into kind's node image (`kindest/node`), so their pods start without a pull. */
const KIND_PRELOADED = [
  'registry.k8s.io/coredns/coredns:v1.13.1',
  'registry.k8s.io/etcd:3.6.6-0',
  `registry.k8s.io/kube-apiserver:${KUBERNETES_VERSION}`,
  `registry.k8s.io/kube-controller-manager:${KUBERNETES_VERSION}`,
  `registry.k8s.io/kube-scheduler:${KUBERNETES_VERSION}`,
  `registry.k8s.io/kube-proxy:${KUBERNETES_VERSION}`,
  'registry.k8s.io/pause:3.10.1',
  'docker.io/kindest/local-path-provisioner:v20250214-acbabc1a',
];

export function bootstrapCluster(cluster: Cluster): void {
  const { api, config } = cluster;
  const k3s = config.distribution === 'k3s';
  const apply = (m: Manifest): AnyObject | undefined => {
    try {
      return api.create(m);
    } catch (e) {
      if (isStatusError(e) && e.reason === 'AlreadyExists') return undefined;
      const meta = (m.metadata ?? {}) as { name?: string };
      throw new Error(
        `bootstrap: cannot create ${String(m.kind)} ${meta.name ?? ''}: ${(e as Error).message}`,
      );
    }
  };

  for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
    apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
  kubernetesService(cluster, apply);
  const system = api.get('namespaces', undefined, 'kube-system')!;
  const identity: ControlPlaneIdentity = {
    systemUid: system.metadata.uid,
    createdMs: parseTimestamp(system.metadata.creationTimestamp),
  };
  const systemConfigMaps = (cms: readonly NewObject[]) => {
    for (const cm of cms) {
      const { name, namespace } = cm.metadata;
      if (api.get('configmaps', namespace, name)) continue;
      // Uids from a generator of their own: these came later than the rest of bootstrap, and drawing
      // from the cluster's would change every uid and name suffix after them.
      const uid = new Rng(`${config.name}/${identity.systemUid}/configmaps/${namespace}/${name}`).uuid();
      cluster.store.create('configmaps', cm, { uid });
    }
  };
  systemConfigMaps(apiserverConfigMaps(config, identity, cluster.clock.rfc3339().slice(0, 10)));

  const register = (role: 'control-plane' | 'worker') => {
    for (const n of config.nodes.filter((x) => x.role === role)) {
      const manifest = nodeManifest(n, config, cluster.clock.rfc3339());
      const created = apply(manifest);
      if (!created) continue;
      const status = { ...(manifest.status as Record<string, unknown>), images: k3s ? [] : preloaded() };
      api.updateStatus({ ...created, status });
      if (!k3s && role === 'control-plane')
        for (const pod of controlPlanePods(config, n, created.metadata.uid)) apply(pod);
    }
    cluster.settle();
  };

  register('control-plane');
  if (!k3s) systemConfigMaps(kubeadmConfigMaps(config, identity));
  // kube-controller-manager is up: each of its controllers has created its ServiceAccount.
  for (const sa of controllerServiceAccounts(config)) apply(sa);
  const addons: Manifest[] = [
    ...(k3s || config.kubeProxyMode === 'none' ? [] : kubeProxyManifests(config)),
    ...cniManifests(config),
    ...corednsManifests(config),
    ...(k3s ? k3sAddons(config) : kindLocalPath()),
  ];
  for (const m of addons) apply(m);
  if (k3s) systemConfigMaps(k3sLocalPathConfig(config));
  cluster.settle();
  register('worker');

  cluster.waitFor(() => systemPodsUp(cluster), 10 * 60_000, 1000);
  const origin =
    Date.parse(api.list('namespaces')[0]?.metadata.creationTimestamp ?? '') || cluster.clock.now();
  cluster.tick(Math.max(0, origin + CLUSTER_AGE_MS - cluster.clock.now()));
}

/** The `kubernetes` Service at the first address of the Service CIDR, backed by the API servers. */
function kubernetesService(cluster: Cluster, apply: (m: Manifest) => AnyObject | undefined): void {
  const { config } = cluster;
  const cidr = parseCidr(config.serviceSubnet)!;
  const ip = formatIPv4(nthAddress(cidr, 1));
  const masters = config.nodes.filter((n) => n.role === 'control-plane');
  const svc = apply({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: 'kubernetes',
      namespace: 'default',
      labels: { component: 'apiserver', provider: 'kubernetes' },
    },
    spec: {
      type: 'ClusterIP',
      clusterIP: ip,
      clusterIPs: [ip],
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }],
      sessionAffinity: 'None',
    },
  });
  apply({
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: {
      name: 'kubernetes',
      namespace: 'default',
      labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' },
    },
    subsets: [
      {
        addresses: masters.map((n) => ({ ip: n.internalIP })),
        ports: [{ name: 'https', port: 6443, protocol: 'TCP' }],
      },
    ],
  });
  apply({
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: 'kubernetes',
      namespace: 'default',
      labels: { 'kubernetes.io/service-name': 'kubernetes' },
      ...(svc ? {} : {}),
    },
    addressType: 'IPv4',
    endpoints: masters.map((n) => ({ addresses: [n.internalIP], conditions: { ready: true } })),
    ports: [{ name: 'https', port: 6443, protocol: 'TCP' }],
  });
}

function preloaded(): { names: string[]; sizeBytes: number }[] {
  return KIND_PRELOADED.flatMap((image) => {
    const r = resolveImage(image);
    return r.kind === 'ok'
      ? [{ names: [imageIdOf(r.ref), formatImageRef(r.ref)], sizeBytes: r.profile.sizeBytes }]
      : [];
  }).sort((a, b) => b.sizeBytes - a.sizeBytes);
}

/** Every pod of the system namespaces is Running with all containers ready (or has completed). */
function systemPodsUp(cluster: Cluster): boolean {
  const pods = cluster.api.list('pods').filter((p) => p.metadata.namespace !== 'default');
  return pods.every(
    (p) =>
      p.status?.phase === 'Succeeded' ||
      (p.status?.phase === 'Running' && (p.status.containerStatuses ?? []).every((c) => c.ready)),
  );
}
