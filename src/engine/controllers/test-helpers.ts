/**
 * Builders for controller and kubelet tests. Conventions: a default kind cluster (kubeadm + Calico,
 * kind-control-plane 172.18.0.2 with 10.244.0.0/24, kind-worker 172.18.0.3 with 10.244.1.0/24,
 * kind-worker2 172.18.0.4 with 10.244.2.0/24), booted and 5 minutes old; objects are created through
 * the API server exactly as kubectl would send them.
 */
import { createCluster, type Cluster } from '../cluster/cluster.ts';
import { defaultClusterConfig, parseClusterConfig, type ClusterConfig } from '../api/cluster-config.ts';
import type { AnyObject, Pod } from '../api/objects.ts';

export function makeCluster(config?: ClusterConfig | string, seed: number | string = 1): Cluster {
  return createCluster(
    typeof config === 'string' ? parseClusterConfig(config) : (config ?? defaultClusterConfig()),
    { seed },
  );
}

type Mutate<T> = (obj: T) => void;

export function deployment(
  name: string,
  replicas: number,
  mutate?: Mutate<Record<string, any>>,
): Record<string, any> {
  const d: Record<string, any> = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'nginx', image: 'nginx' }] },
      },
    },
  };
  mutate?.(d);
  return d;
}

export function pod(
  name: string,
  containers: Record<string, unknown>[],
  mutate?: Mutate<Record<string, any>>,
): Record<string, any> {
  const p: Record<string, any> = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { run: name } },
    spec: { containers },
  };
  mutate?.(p);
  return p;
}

export function service(
  name: string,
  selector: Record<string, string>,
  ports: Record<string, unknown>[],
): Record<string, any> {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'default' },
    spec: { selector, ports },
  };
}

export function getPod(c: Cluster, name: string, ns = 'default'): Pod {
  const p = c.api.get('pods', ns, name);
  if (!p) throw new Error(`pod ${name} not found`);
  return p;
}

export function podsOf(c: Cluster, prefix: string, ns = 'default'): Pod[] {
  return c.api.list('pods', ns).filter((p) => p.metadata.name.startsWith(prefix));
}

export function eventsFor(
  c: Cluster,
  obj: AnyObject | Pod,
): { reason: string; message: string; type: string; count: number; fieldPath?: string }[] {
  return c.api
    .list('events', obj.metadata.namespace ?? 'default')
    .filter((e) => e.involvedObject.uid === obj.metadata.uid)
    .map((e) => ({
      reason: e.reason ?? '',
      message: e.message ?? '',
      type: e.type ?? '',
      count: e.count ?? 1,
      ...(e.involvedObject.fieldPath ? { fieldPath: e.involvedObject.fieldPath } : {}),
    }));
}

/** Runs the cluster forward `ms` of simulated time. */
export function advance(c: Cluster, ms: number): void {
  c.settle();
  c.tick(ms);
}
