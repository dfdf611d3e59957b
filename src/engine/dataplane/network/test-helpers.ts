/**
 * Test scenarios for the connection model. Conventions (the IP plan follows from the seed and the
 * distribution; tests read addresses back from the objects, never hard-code pod IPs):
 *
 * - kind nodes `kind-control-plane` 172.18.0.2, `kind-worker` 172.18.0.3, `kind-worker2` 172.18.0.4;
 *   the learner's machine is 172.18.0.1.
 * - `server-a` (nginx) runs on kind-worker, `server-b` (nginx) on kind-worker2, both `app=server`;
 *   `echo-a`/`echo-b` (agnhost netexec, port 8080, `app=echo`) likewise.
 * - Clients pinned to kind-worker: `client` (busybox, glibc), `alpine` (musl), `netshoot`, `curl`
 *   (curlimages/curl).
 * - Services: `server` ClusterIP 80 → 80; `echo` ClusterIP 80 → 8080; `echo-np` NodePort 80 → 8080.
 */
import type { Manifest } from '../../api/objects.ts';
import { createCluster, type Cluster } from '../../cluster/cluster.ts';

export function kindConfig(
  cni: 'flannel' | 'calico' | 'cilium',
  mode: 'iptables' | 'ipvs' | 'nftables' | 'none' = 'iptables',
): string {
  return `kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnetworking:\n  kubeProxyMode: ${mode}\npacketpath:\n  cni: ${cni}\n`;
}

export function pod(
  name: string,
  node: string,
  image: string,
  labels: Record<string, string> = {},
  extra: Record<string, unknown> = {},
): Manifest {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { run: name, ...labels } },
    spec: { nodeName: node, containers: [{ name: 'main', image, ...extra }] },
  };
}

export function service(
  name: string,
  selector: Record<string, string>,
  port: number,
  targetPort: number,
  spec: Record<string, unknown> = {},
): Manifest {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'default' },
    spec: { selector, ports: [{ port, targetPort, protocol: 'TCP' }], ...spec },
  };
}

const AGNHOST = 'registry.k8s.io/e2e-test-images/agnhost:2.53';
export const NETEXEC = { args: ['netexec', '--http-port=8080'] };

export function apply(cluster: Cluster, manifests: readonly Manifest[]): void {
  for (const m of manifests) cluster.api.create(m);
  cluster.settle();
  cluster.tick(30_000);
}

export function scenario(
  cni: 'flannel' | 'calico' | 'cilium',
  mode: 'iptables' | 'ipvs' | 'nftables' | 'none' = 'iptables',
  seed = 7,
): Cluster {
  const cluster = createCluster(kindConfig(cni, mode), { seed });
  apply(cluster, [
    pod('server-a', 'kind-worker', 'nginx', { app: 'server' }),
    pod('server-b', 'kind-worker2', 'nginx', { app: 'server' }),
    pod('echo-a', 'kind-worker', AGNHOST, { app: 'echo' }, NETEXEC),
    pod('echo-b', 'kind-worker2', AGNHOST, { app: 'echo' }, NETEXEC),
    pod('client', 'kind-worker', 'busybox', {}, { command: ['sleep', '3600'] }),
    pod('alpine', 'kind-worker', 'alpine', {}, { command: ['sleep', '3600'] }),
    pod('netshoot', 'kind-worker', 'nicolaka/netshoot', {}, { command: ['sleep', '3600'] }),
    pod('curl', 'kind-worker', 'curlimages/curl', {}, { command: ['sleep', '3600'] }),
    service('server', { app: 'server' }, 80, 80),
    service('echo', { app: 'echo' }, 80, 8080),
    service('echo-np', { app: 'echo' }, 80, 8080, { type: 'NodePort' }),
  ]);
  return cluster;
}

export function podIP(cluster: Cluster, name: string, namespace = 'default'): string {
  return cluster.store.get('pods', namespace, name)?.status?.podIP ?? '';
}

export function clusterIP(cluster: Cluster, name: string, namespace = 'default'): string {
  return cluster.store.get('services', namespace, name)?.spec?.clusterIP ?? '';
}

export function nodePort(cluster: Cluster, name: string, namespace = 'default'): number {
  return cluster.store.get('services', namespace, name)?.spec?.ports?.[0]?.nodePort ?? 0;
}

/** What one line prints on a node, from a netshoot debug pod in the node's network namespace. */
export function nodeShell(cluster: Cluster, node: string, line: string): string {
  cluster.execSync(`kubectl debug node/${node} -it --profile=general --image=nicolaka/netshoot`, {
    interactive: true,
  });
  const r = cluster.execSync(line, { interactive: true });
  cluster.execSync('exit', { interactive: true });
  return r.stdout;
}

/** Runs a line as the learner would, in an exec. */
export function exec(
  cluster: Cluster,
  podName: string,
  command: string,
): { stdout: string; stderr: string; exitCode: number } {
  return cluster.execSync(`kubectl exec ${podName} -- ${command}`);
}

/**
 * Gives flannel's bridge delegate an explicit `"mtu"` the way a learner would: edit kube-flannel-cfg,
 * restart kube-flannel-ds (install-cni copies the conflist at start) and recreate the named pods (the
 * MTU is applied at their CNI ADD).
 */
export function setFlannelPodMtu(cluster: Cluster, mtu: number, recreate: readonly string[]): void {
  const cm = cluster.store.get('configmaps', 'kube-flannel', 'kube-flannel-cfg')!;
  cluster.api.update({
    ...cm,
    data: {
      ...cm.data,
      'cni-conf.json': `{"name":"cbr0","cniVersion":"0.3.1","plugins":[{"type":"flannel","delegate":{"hairpinMode":true,"isDefaultGateway":true,"mtu":${mtu}}},{"type":"portmap","capabilities":{"portMappings":true}}]}`,
    },
  });
  cluster.execSync('kubectl -n kube-flannel rollout restart daemonset/kube-flannel-ds');
  cluster.settle();
  cluster.tick(120_000);
  recreatePods(cluster, recreate);
}

/** Deletes and recreates bare pods with the same spec (a new sandbox, so a new CNI ADD). */
export function recreatePods(cluster: Cluster, names: readonly string[]): void {
  for (const name of names) {
    const old = cluster.store.get('pods', 'default', name)!;
    cluster.execSync(`kubectl delete pod ${name} --grace-period=0 --force`);
    cluster.settle();
    cluster.api.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default', labels: old.metadata.labels ?? {} },
      spec: old.spec!,
    });
  }
  cluster.settle();
  cluster.tick(30_000);
}
