/**
 * The kube-proxy instance a cluster's packets go through. kube-proxy is a controller (proxy/kube-proxy.ts)
 * that keeps one ruleset and one conntrack table per node; the connection model needs that very instance
 * so `conntrack -L` and `ipvsadm -Ln` counters show the learner's own connections.
 *
 * The composition root does not list kube-proxy among its controllers yet. Until it does, each cluster
 * gets one instance here, started against the cluster's API and synced before every use (a sync is a
 * no-op when nothing changed). When the cluster runs its own, that one is used instead.
 */
import type { Cluster } from '../../cluster/cluster.ts';
import { KubeProxy } from '../proxy/kube-proxy.ts';

const OWN = new WeakMap<Cluster, KubeProxy>();

/** The cluster's own kube-proxy controller, when the composition root runs one. */
function registered(cluster: Cluster): KubeProxy | undefined {
  // Cluster keeps its controllers private; reading the list through a structural view avoids
  // widening the Cluster API for this one lookup.
  const view = cluster as unknown as { readonly controllers?: readonly unknown[] };
  const found = view.controllers?.find((c) => c instanceof KubeProxy);
  return found instanceof KubeProxy ? found : undefined;
}

export function kubeProxyOf(cluster: Cluster): KubeProxy {
  const own = registered(cluster);
  if (own) return own;
  let proxy = OWN.get(cluster);
  if (!proxy) {
    proxy = new KubeProxy({
      api: cluster.api,
      clock: cluster.clock,
      config: cluster.config,
      recorder: cluster.recorder,
    });
    proxy.start();
    OWN.set(cluster, proxy);
  }
  proxy.sync();
  return proxy;
}
