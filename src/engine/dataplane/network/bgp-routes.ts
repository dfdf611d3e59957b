/**
 * Calico's routes to other nodes' pod blocks exist because BIRD, inside each node's `calico-node`
 * pod, announces its node's block to the others (node-to-node BGP mesh, `proto bird` routes). The
 * generated bird.cfg (projectcalico/calico confd/etc/calico/confd/templates/bird.cfg.template) decides
 * what happens when one node's calico-node stops running (deleted, ImagePullBackOff, evicted):
 *
 * - its own kernel keeps every route BIRD installed (`protocol kernel { persist; }`: "Don't remove
 *   routes on bird shutdown"), so that node still reaches the others;
 * - its peers see the BGP session drop and keep its routes as stale for `graceful restart time 120`
 *   seconds (mesh peers); when no BIRD has come back by then, they withdraw them. From then on a
 *   packet for the node's block matches only the default route (`default via 172.18.0.1 dev eth0`)
 *   and leaves for the docker network's gateway, which has no route to the pod network either: the
 *   packet is lost and the client times out. Replies to that node's pods are lost the same way.
 *
 * Calico VXLAN is not affected: Felix programs those routes from the IPAM blocks, without BIRD. The
 * rule applies only while the calico-node DaemonSet exists (clusters whose CNI the learner installs
 * are modelled elsewhere). Simplified: the node is taken as down since its calico-node container last
 * stopped or, if it never ran, since its pod was created (the moment its predecessor was gone); a node
 * with no calico-node pod at all has been down longer than any restart.
 */
import { cniPlugin } from '../../node/cni/index.ts';
import type { DataplaneHost } from './view.ts';
import { isCniAgentPod } from '../../node/cni/cni-settings.ts';
import { parseTimestamp } from '../../util/clock.ts';
import type { CniDataplane } from './cni-dataplane.ts';
import type { Hop } from './types.ts';
import { externalClientIP, type NetworkView } from './view.ts';

/** `graceful restart time 120` on every node-to-node mesh peer in bird.cfg. */
export const BIRD_GRACEFUL_RESTART_MS = 120_000;

/** Since when BIRD has not run on `node` (its calico-node pod's `calico-node` container), if at all. */
function birdDownSince(cluster: DataplaneHost, node: string): number | 'running' | 'never' {
  const agents = cluster.store
    .list('pods', 'kube-system')
    .filter((p) => p.spec?.nodeName === node && isCniAgentPod(p, 'calico'));
  let since: number | undefined;
  for (const pod of agents) {
    const c = pod.status?.containerStatuses?.find((s) => s.name === 'calico-node');
    // A terminating pod's BIRD still runs until its container stops.
    if (c?.state?.running) return 'running';
    // Down since its container last stopped, or, if it never ran, since the pod replaced its predecessor.
    const stopped = c?.state?.terminated?.finishedAt ?? c?.lastState?.terminated?.finishedAt;
    const t = parseTimestamp(stopped ?? pod.metadata.creationTimestamp);
    if (!Number.isNaN(t)) since = since === undefined ? t : Math.max(since, t);
  }
  return since ?? 'never';
}

function birdRoutesGone(cluster: DataplaneHost, node: string): boolean {
  const down = birdDownSince(cluster, node);
  if (down === 'running') return false;
  return down === 'never' || cluster.clock.now() - down >= BIRD_GRACEFUL_RESTART_MS;
}

/**
 * Whether node `at` has lost its route to the pod block of node `owner` (BIRD stopped on `owner`
 * longer than the graceful restart ago, and `at`'s BIRD, still running, withdrew it).
 */
export function bgpRouteWithdrawn(
  cluster: DataplaneHost,
  dp: CniDataplane,
  at: string,
  owner: string,
): boolean {
  if (cniPlugin(dp.cni).routingDaemon !== 'bird' || dp.encapsulation === 'vxlan' || at === owner)
    return false;
  if (!cluster.store.get('daemonsets.apps', 'kube-system', 'calico-node')) return false;
  // Only a running BIRD withdraws: a node whose own BIRD stopped keeps its routes (persist).
  return birdDownSince(cluster, at) === 'running' && birdRoutesGone(cluster, owner);
}

/**
 * The hop where a packet for the pod address `ip` is lost on node `at` because the route to its
 * block was withdrawn; `reply` for the answer to a client on that block (the request got through).
 */
export function withdrawnRouteHop(
  view: NetworkView,
  dp: CniDataplane,
  at: string,
  ip: string,
  reply = false,
): Hop | undefined {
  const owner = view.nodeForPodIP(ip);
  if (!owner || !bgpRouteWithdrawn(view.cluster, dp, at, owner.name)) return undefined;
  const what = reply ? `the reply to ${ip}` : 'the packet';
  return {
    kind: 'no-route',
    ip,
    node: at,
    reason:
      `${at} has no route to ${owner.podCIDR}: calico-node is not running on ${owner.name}, so BGP ` +
      `withdrew its block; ${what} takes default via ${externalClientIP(view.config)} dev eth0 ` +
      `and is lost (the node network does not route pod addresses)`,
  };
}
