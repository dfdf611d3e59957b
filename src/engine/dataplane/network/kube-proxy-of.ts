/**
 * The kube-proxy instance a cluster's packets go through: the controller the cluster runs
 * (`cluster.kubeProxy`, one ruleset and one conntrack table per node), so `conntrack -L` and
 * `ipvsadm -Ln` counters show the learner's own connections. It is synced before use so a line such as
 * `kubectl apply -f svc.yaml && curl …` sees the new Service (a sync is a no-op when nothing changed).
 */
import type { DataplaneHost } from './view.ts';
import type { KubeProxy } from '../proxy/kube-proxy.ts';

export function kubeProxyOf(cluster: DataplaneHost): KubeProxy {
  cluster.kubeProxy.sync();
  return cluster.kubeProxy;
}
