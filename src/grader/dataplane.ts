/**
 * Traffic and DNS probes on the real engine: `dataplaneProbes` over the dataplane's `connect`
 * (src/engine/dataplane/network/connect.ts), one real client connection from the pod, with the hop
 * that decided. Probes run on the scratch copy the evaluator hands them, never on the learner's
 * cluster: a connection leaves conntrack entries, IPVS counters and CoreDNS cache/log lines, and a
 * check must leave no trace. Each probe gets its own RNG seeded from the cluster clock and the request,
 * so the same state always gives the same verdict (the instructor's replay depends on it).
 */
import { isDataplaneView, type ClusterView, type GradableCluster } from './engine-api.ts';
import { dataplaneProbes, type TrafficProbes } from './probes.ts';

function engineView(cluster: GradableCluster): ClusterView {
  const view = cluster.view();
  if (!isDataplaneView(view)) throw new Error('traffic probes need an engine cluster');
  return view;
}

export const engineProbes: TrafficProbes = {
  ...dataplaneProbes((cluster, request) => {
    const view = engineView(cluster);
    return view.connect(request, `grader-probe:${view.now()}:${JSON.stringify(request)}`);
  }),
  // The policy verdicts only: no packet is sent, so the matrix needs no RNG and leaves no trace.
  connections: (cluster) => engineView(cluster).reachabilityMatrix(),
};
