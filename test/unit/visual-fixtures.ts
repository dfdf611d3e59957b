/**
 * Clusters for the visualisation tests. Conventions: kind clusters (nodes `kind-control-plane`,
 * `kind-worker`, `kind-worker2`), addresses always read back from the objects, never hard-coded.
 *
 * - `crossNode(cni)`: the connection model's scenario (client on kind-worker) plus Service `only-b`
 *   (80 → 8080) whose single backend `echo-b` runs on kind-worker2, so a call through it always
 *   crosses nodes.
 * - `echoAllowClient`: the policy the tests apply to `crossNode` (only `run=client` reaches echo:8080).
 * - `xyz()`: the NetworkPolicy e2e suite's topology: namespaces x, y, z (label `ns`), pods a, b, c in
 *   each (label `pod`), agnhost serving HTTP on port 80, under calico (which enforces policies).
 */
import { createCluster, type Cluster, type Manifest } from '../../src/engine/index.ts';
import { apply, kindConfig, scenario, service } from '../../src/engine/dataplane/network/test-helpers.ts';

export function crossNode(
  cni: 'flannel' | 'calico' | 'cilium',
  mode: 'iptables' | 'ipvs' | 'nftables' | 'none' = 'iptables',
): Cluster {
  const cluster = scenario(cni, mode, 11);
  apply(cluster, [service('only-b', { run: 'echo-b' }, 80, 8080)]);
  return cluster;
}

const AGNHOST = 'registry.k8s.io/e2e-test-images/agnhost:2.53';

export function xyz(): Cluster {
  const cluster = createCluster(kindConfig('calico'), { seed: 5 });
  const manifests: Manifest[] = [];
  const nodes = ['kind-worker', 'kind-worker2'];
  ['x', 'y', 'z'].forEach((ns) => {
    manifests.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { ns } } });
    ['a', 'b', 'c'].forEach((pod, i) =>
      manifests.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: pod, namespace: ns, labels: { pod } },
        spec: {
          nodeName: nodes[i % 2]!,
          containers: [
            {
              name: 'cont-80',
              image: AGNHOST,
              args: ['netexec', '--http-port=80'],
              ports: [{ containerPort: 80 }],
            },
          ],
        },
      }),
    );
  });
  apply(cluster, manifests);
  return cluster;
}

export const defaultDenyX: Manifest = {
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name: 'default-deny-ingress', namespace: 'x' },
  spec: { podSelector: {}, policyTypes: ['Ingress'] },
};

/** x/a accepts port 80 from pods `b` of any namespace. */
export const allowBToXA: Manifest = {
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name: 'allow-b-to-a', namespace: 'x' },
  spec: {
    podSelector: { matchLabels: { pod: 'a' } },
    policyTypes: ['Ingress'],
    ingress: [
      {
        from: [{ namespaceSelector: {}, podSelector: { matchLabels: { pod: 'b' } } }],
        ports: [{ protocol: 'TCP', port: 80 }],
      },
    ],
  },
};

/** Every pod of `default` isolated for ingress, nothing allowed. */
export const denyAllDefault: Manifest = {
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name: 'deny', namespace: 'default' },
  spec: { podSelector: {} },
};

/** echo-a and echo-b (`app=echo`) accept TCP 8080 from `run=client` only; alpine is then blocked. */
export const echoAllowClient: Manifest = {
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name: 'echo-allow-client', namespace: 'default' },
  spec: {
    podSelector: { matchLabels: { app: 'echo' } },
    policyTypes: ['Ingress'],
    ingress: [
      {
        from: [{ podSelector: { matchLabels: { run: 'client' } } }],
        ports: [{ protocol: 'TCP', port: 8080 }],
      },
    ],
  },
};

/** Hop kinds of `client` → Service `only-b` by name (runs of one kind counted once): a cross-node call. */
export const CROSS_NODE_HOPS = [
  'resolv-conf',
  'dns-query',
  'dns-result',
  'socket',
  'service',
  'dnat',
  'network-policy',
  'route',
  'network-policy',
  'delivered',
];

/**
 * A kind cluster of `nodes` nodes (one control plane, the rest workers) under calico, with `perNode` pods
 * of one Deployment-like set pinned to every worker (`app=web-<n>` on the n-th worker, a Service for each
 * set, and one more Service `spread` over a pod of every worker) and a policy selecting all `tier=web`
 * pods: Services and policies reach every frame, the case where a naive layout crosses frames.
 */
export function manyNodes(nodes: number, perNode: number): Cluster {
  const roles = ['- role: control-plane', ...Array.from({ length: nodes - 1 }, () => '- role: worker')];
  const cluster = createCluster(
    `kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n${roles.join('\n')}\npacketpath:\n  cni: calico\n`,
    { seed: 3 },
  );
  const workers = cluster.store
    .list('nodes')
    .map((n) => n.metadata.name)
    .filter((n) => n !== 'kind-control-plane');
  const manifests: Manifest[] = [];
  workers.forEach((node, w) => {
    for (let i = 0; i < perNode; i++)
      manifests.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: `web-${w}-${i}`,
          namespace: 'default',
          labels: { app: `web-${w}`, tier: 'web', ...(i === 0 ? { spread: 'yes' } : {}) },
        },
        spec: { nodeName: node, containers: [{ name: 'web', image: 'nginx' }] },
      });
    manifests.push(service(`web-${w}`, { app: `web-${w}` }, 80, 80));
  });
  manifests.push(service('spread', { spread: 'yes' }, 80, 80), {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: 'web-ingress', namespace: 'default' },
    spec: {
      podSelector: { matchLabels: { tier: 'web' } },
      policyTypes: ['Ingress'],
      ingress: [{ from: [{ podSelector: { matchLabels: { tier: 'web' } } }] }],
    },
  });
  apply(cluster, manifests);
  return cluster;
}

export { apply };
