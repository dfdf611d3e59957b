/**
 * One connection's first packet from a socket to whoever answers, in the order a real packet meets
 * things (after name resolution, which connect.ts does first):
 *
 * 1. the entry node's Service handling (kube-proxy's PREROUTING/OUTPUT rules or Cilium's socket LB):
 *    DNAT to a backend, REJECT (no ready endpoint) or DROP (externalTrafficPolicy Local without a local
 *    endpoint), masquerade marks;
 * 2. the source pod's egress NetworkPolicy, on the post-DNAT destination;
 * 3. the route: same node, or across nodes through the CNI's encapsulation; egress to the internet is
 *    SNATed to the node's address (calico natOutgoing, flannel --ip-masq, cilium masquerading);
 * 4. the destination pod's ingress NetworkPolicy, on the post-SNAT source;
 * 5. delivery to a listening socket, or a refusal (RST / ICMP port unreachable).
 *
 * The outside world (the learner's machine) reaches node addresses — NodePorts, LoadBalancer VIPs
 * answered by a node, node sockets — but no pod or Service address: those are not routed outside.
 */
import { cniPlugin } from '../../node/cni/index.ts';
import type { Pod } from '../../api/objects.ts';
import type { Rng } from '../../util/rng.ts';
import type { Endpoint } from '../policy/evaluate.ts';
import { internetHost, type InternetHost } from '../internet.ts';
import type { Packet } from '../netfilter/packet.ts';
import { cniDataplane, type CniDataplane } from './cni-dataplane.ts';
import { nodeListener, podListener, type Listener } from './listeners.ts';
import { announcingNodeInfo } from './load-balancer.ts';
import { podEndpoint, policyCheck } from './policy-hops.ts';
import { masqueradeAddress } from './masquerade-address.ts';
import { routeHops, type Place } from './routes.ts';
import { withdrawnRouteHop } from './bgp-routes.ts';
import { servicePodRef, translate, type Translation } from './service-translation.ts';
import type { Hop, PodRef, Protocol } from './types.ts';
import { externalClientIP, type NetworkView, type NodeInfo } from './view.ts';

/** Where a connection starts, resolved against the cluster. */
export type Origin =
  | { readonly kind: 'pod'; readonly pod: Pod; readonly node: NodeInfo; readonly ip: string }
  | { readonly kind: 'node'; readonly node: NodeInfo; readonly ip: string; readonly pod?: Pod }
  | { readonly kind: 'external'; readonly ip: string };

export type Target =
  | { readonly kind: 'pod'; readonly pod: Pod; readonly node: NodeInfo; readonly listener?: Listener }
  | { readonly kind: 'node'; readonly node: NodeInfo; readonly listener?: Listener }
  | { readonly kind: 'internet'; readonly host: InternetHost };

export interface TransportResult {
  readonly status: 'delivered' | 'refused' | 'timeout' | 'unreachable';
  readonly hops: Hop[];
  readonly deciding?: Hop;
  readonly target?: Target;
  /** Destination after DNAT. */
  readonly destIP: string;
  readonly destPort?: number;
  /** The source address the destination sees. */
  readonly clientIP: string;
  readonly crossNode: boolean;
  readonly dataplane: CniDataplane;
  readonly translation?: { readonly node: string; readonly t: Translation };
  readonly service?: PodRef;
}

export interface TransportInput {
  readonly origin: Origin;
  readonly destIP: string;
  readonly destPort?: number;
  readonly srcPort: number;
  readonly protocol: Protocol;
}

function originPlace(o: Origin): Place | undefined {
  if (o.kind === 'pod') return { node: o.node.name, ip: o.ip, pod: o.pod };
  if (o.kind === 'node') return { node: o.node.name, ip: o.ip };
  return undefined;
}

function originEndpoint(view: NetworkView, o: Origin): Endpoint {
  if (o.kind === 'pod') return podEndpoint(o.pod, o.node.ip);
  if (o.kind === 'node')
    return o.pod ? podEndpoint(o.pod, o.node.ip) : { kind: 'node', node: o.node.name, ip: o.ip };
  return { kind: 'external', ip: o.ip || externalClientIP(view.config) };
}

function fail(
  status: TransportResult['status'],
  hops: Hop[],
  deciding: Hop | undefined,
  rest: Omit<TransportResult, 'status' | 'hops' | 'deciding'>,
): TransportResult {
  if (deciding && hops[hops.length - 1] !== deciding) hops.push(deciding);
  return { status, hops, ...(deciding ? { deciding } : {}), ...rest };
}

/** The node where the packet first meets netfilter, or undefined when it never reaches the cluster. */
function entryNode(view: NetworkView, o: Origin, destIP: string): NodeInfo | undefined {
  if (o.kind !== 'external') return o.node;
  return view.nodeByIP(destIP) ?? announcingNodeInfo(view, destIP);
}

export function transport(view: NetworkView, input: TransportInput, rng: Rng): TransportResult {
  const { origin, protocol } = input;
  const dp = cniDataplane(view.cluster);
  const hops: Hop[] = [];
  const src = originEndpoint(view, origin);
  let destIP = input.destIP;
  let destPort = input.destPort;
  let clientIP = src.ip;
  const base = () => ({
    destIP,
    ...(destPort !== undefined ? { destPort } : {}),
    clientIP,
    crossNode: false,
    dataplane: dp,
  });

  // Loopback never leaves the namespace (kube-proxy's localhost NodePorts aside, handled below for nodes).
  const loopback = destIP.startsWith('127.');
  if (loopback && origin.kind === 'pod') {
    return deliver(
      view,
      origin,
      { node: origin.node.name, ip: destIP, pod: origin.pod },
      hops,
      base(),
      input,
      dp,
    );
  }

  const entry = entryNode(view, origin, destIP);
  if (!entry) {
    const hop: Hop = {
      kind: 'no-route',
      ip: destIP,
      reason:
        view.inPodNetwork(destIP) || view.inServiceNetwork(destIP)
          ? 'pod and Service addresses are not routed outside the cluster'
          : 'nothing answers for this address on the node network',
    };
    return fail('timeout', hops, hop, base());
  }

  // 1. Services: kube-proxy's rules (or Cilium's BPF maps) on the entry node.
  const packet: Packet = {
    srcIP: loopback && origin.kind !== 'pod' ? '127.0.0.1' : src.ip,
    destIP,
    ...(destPort !== undefined ? { destPort } : {}),
    ...(protocol !== 'ICMP' ? { srcPort: input.srcPort } : {}),
    protocol,
    ...(origin.kind === 'pod' ? { fromLocalPod: true } : {}),
    ...(origin.kind === 'external' ? { inboundInterface: 'eth0' } : {}),
  };
  const t = translate(view, entry, packet, rng);
  const translation = { node: entry.name, t };
  const service = t.service ? servicePodRef(t.service) : undefined;
  const withT = () => ({ ...base(), translation, ...(service ? { service } : {}) });
  if (t.verdict === 'REJECT' || t.verdict === 'DROP') {
    const last = t.matched[t.matched.length - 1];
    const hop: Hop = {
      kind: 'netfilter',
      node: entry.name,
      table: last?.table ?? 'filter',
      chain: last?.chain ?? '',
      rule: last?.rule ?? '',
      verdict: t.verdict,
      ...(service ? { service } : {}),
    };
    // kube-proxy's REJECT for a Service without endpoints says so in its comment; other REJECTs
    // (IPVS mode's KUBE-IPVS-FILTER, load-balancer source ranges) are about the packet, not the Service.
    if (t.verdict === 'REJECT' && service && /no (endpoints|backends)/.test(last?.rule ?? ''))
      hops.push({ kind: 'no-endpoints', service, node: entry.name });
    return fail(t.verdict === 'REJECT' ? 'refused' : 'timeout', hops, hop, withT());
  }
  if (t.verdict === 'DNAT' && t.dnatTo) {
    const from = `${destIP}:${destPort ?? ''}`;
    const [ip, port] = t.dnatTo.split(':');
    destIP = ip ?? destIP;
    if (port !== undefined) destPort = Number(port);
    const endpointPod = view.podByIP(destIP);
    hops.push({
      kind: 'service',
      service: service ?? { namespace: '', name: '' },
      address: input.destIP,
      port: input.destPort ?? 0,
      mode: t.mode,
      node: entry.name,
      rules: t.matched,
      evaluatedRules: t.evaluatedRules,
      endpoint: t.dnatTo,
      ...(endpointPod
        ? {
            endpointPod: {
              namespace: endpointPod.metadata.namespace ?? 'default',
              name: endpointPod.metadata.name,
            },
          }
        : {}),
      established: t.established,
    });
    hops.push({ kind: 'dnat', node: entry.name, from, to: t.dnatTo });
  }

  // 2. Where does the (translated) destination live?
  const dstPod = view.podByIP(destIP);
  const dstNode = dstPod
    ? undefined
    : (view.nodeByIP(destIP) ?? (t.ipvsLocal || loopback ? entry : undefined));
  const internet = !dstPod && !dstNode ? internetHost(destIP) : undefined;
  const dstEndpoint: Endpoint = dstPod
    ? podEndpoint(dstPod, view.nodeByName(dstPod.spec?.nodeName ?? '')?.ip)
    : dstNode
      ? { kind: 'node', node: dstNode.name, ip: destIP }
      : { kind: 'external', ip: destIP };

  // 3. Egress policy of the source pod, on the post-DNAT destination.
  const egress = policyCheck(view.cluster, 'Egress', src, dstEndpoint, destPort, protocol);
  if (egress.hop) hops.push(egress.hop);
  if (!egress.allowed) return fail('timeout', hops, egress.hop, withT());

  // 4. SNAT: kube-proxy's masquerade mark, or the CNI's masquerade for traffic leaving the cluster.
  const leavingCluster = !dstPod && !dstNode;
  const snatNode = origin.kind === 'external' ? entry : origin.kind === 'pod' ? origin.node : origin.node;
  if (t.masquerade || (leavingCluster && origin.kind === 'pod')) {
    const to = masqueradeAddress(view, cniDataplane(view.cluster, snatNode.name), snatNode, destIP);
    if (to !== clientIP) {
      hops.push({
        kind: 'snat',
        node: snatNode.name,
        from: clientIP,
        to,
        reason: t.masquerade ? 'kube-proxy-masquerade' : 'egress-masquerade',
      });
      clientIP = to;
    }
  }

  // 5. Routing.
  const fromPlace: Place = originPlace(origin) ?? { node: entry.name, ip: entry.ip };
  if (dstPod) {
    const nodeName = dstPod.spec?.nodeName ?? '';
    const toPlace: Place = { node: nodeName, ip: destIP, pod: dstPod };
    const crossNode = nodeName !== fromPlace.node;
    // Calico's BGP route to the destination's block may be gone (bgp-routes.ts): lost on the way out.
    const lostOut = withdrawnRouteHop(view, dp, fromPlace.node, destIP);
    if (lostOut) return fail('timeout', hops, lostOut, { ...withT(), crossNode });
    hops.push(...routeHops(view, dp, fromPlace, toPlace));
    const ingressSrc: Endpoint =
      clientIP === src.ip ? src : { kind: 'node', node: snatNode.name, ip: clientIP };
    const ingress = policyCheck(view.cluster, 'Ingress', ingressSrc, dstEndpoint, destPort, protocol);
    if (ingress.hop) hops.push(ingress.hop);
    if (!ingress.allowed) return fail('timeout', hops, ingress.hop, { ...withT(), crossNode });
    // ... or the route back to the client's block: the request arrives, its answer is lost.
    const lostBack = withdrawnRouteHop(view, dp, nodeName, clientIP, true);
    if (lostBack) return fail('timeout', hops, lostBack, { ...withT(), crossNode });
    return deliver(
      view,
      origin,
      toPlace,
      hops,
      { ...withT(), crossNode },
      { ...input, destIP, ...(destPort !== undefined ? { destPort } : {}) },
      dp,
      t,
    );
  }
  if (dstNode) {
    const toPlace: Place = { node: dstNode.name, ip: destIP };
    if (origin.kind === 'pod' || fromPlace.node !== dstNode.name)
      hops.push(...routeHops(view, dp, fromPlace, toPlace));
    const lostBack = withdrawnRouteHop(view, dp, dstNode.name, clientIP, true);
    if (lostBack)
      return fail('timeout', hops, lostBack, { ...withT(), crossNode: dstNode.name !== fromPlace.node });
    return deliver(
      view,
      origin,
      toPlace,
      hops,
      { ...withT(), crossNode: dstNode.name !== fromPlace.node },
      { ...input, destIP, ...(destPort !== undefined ? { destPort } : {}) },
      dp,
      t,
    );
  }
  if (view.inPodNetwork(destIP)) {
    const owner = view.nodeForPodIP(destIP);
    const hop: Hop = {
      kind: 'no-route',
      ip: destIP,
      node: owner?.name ?? entry.name,
      reason: owner ? `no pod has ${destIP} on ${owner.name}` : `no node owns the block of ${destIP}`,
    };
    // A bridge answers a dead neighbour with ICMP host unreachable; routed CNIs blackhole the block.
    return fail(owner ? cniPlugin(dp.cni).deadNeighbour : 'timeout', hops, hop, withT());
  }
  if (view.inServiceNetwork(destIP)) {
    const hop: Hop = {
      kind: 'no-route',
      ip: destIP,
      node: entry.name,
      reason:
        protocol === 'ICMP'
          ? `a ClusterIP is not an interface: kube-proxy only rewrites the Service's ports, nothing answers ICMP`
          : `no Service rule matches ${destIP}:${destPort ?? ''}/${protocol}; the address is not routed`,
    };
    return fail('timeout', hops, hop, withT());
  }
  if (internet) {
    hops.push({
      kind: 'route',
      node: snatNode.name,
      via: 'uplink',
      device: 'eth0',
      text: `default route out of ${snatNode.name} to the internet`,
    });
    const open = protocol === 'ICMP' || (destPort !== undefined && internet.ports.includes(destPort));
    const hop: Hop = {
      kind: 'external',
      ip: destIP,
      ...(destPort !== undefined ? { port: destPort } : {}),
      ...(internet.names[0] ? { host: internet.names[0] } : {}),
    };
    if (!open) return fail('timeout', hops, hop, withT());
    hops.push(hop);
    return {
      status: 'delivered',
      hops,
      deciding: hop,
      target: { kind: 'internet', host: internet },
      ...withT(),
    };
  }
  const hop: Hop = {
    kind: 'no-route',
    ip: destIP,
    node: snatNode.name,
    reason: 'no host answers at this address',
  };
  return fail('timeout', hops, hop, withT());
}

function deliver(
  view: NetworkView,
  origin: Origin,
  to: Place,
  hops: Hop[],
  rest: Omit<TransportResult, 'status' | 'hops' | 'deciding'>,
  input: TransportInput,
  dp: CniDataplane,
  t?: Translation,
): TransportResult {
  const node = view.nodeByName(to.node);
  const pod = to.pod;
  const podRef = pod
    ? { namespace: pod.metadata.namespace ?? 'default', name: pod.metadata.name }
    : undefined;
  if (input.protocol === 'ICMP') {
    const hop: Hop = {
      kind: 'delivered',
      ...(podRef ? { pod: podRef } : { node: to.node }),
      ip: input.destIP,
      clientIP: rest.clientIP,
    };
    hops.push(hop);
    return {
      status: 'delivered',
      hops,
      deciding: hop,
      ...(node ? { target: pod ? { kind: 'pod', pod, node } : { kind: 'node', node } } : {}),
      ...rest,
    };
  }
  const port = input.destPort ?? 0;
  const proto = input.protocol === 'UDP' ? 'UDP' : 'TCP';
  const listener = pod
    ? podListener(pod, port, proto, input.destIP, view.now)
    : node
      ? nodeListener(view, node.name, port, proto, input.destIP)
      : undefined;
  void dp;
  void origin;
  void t;
  if (!listener || !node) {
    const hop: Hop = {
      kind: 'no-listener',
      ...(podRef ? { pod: podRef } : { node: to.node }),
      ip: input.destIP,
      port,
      protocol: input.protocol,
    };
    return fail('refused', hops, hop, rest);
  }
  const owner = listener.pod;
  const hop: Hop = {
    kind: 'delivered',
    ...(podRef
      ? { pod: podRef }
      : {
          node: to.node,
          ...(owner
            ? { pod: { namespace: owner.metadata.namespace ?? 'default', name: owner.metadata.name } }
            : {}),
        }),
    ip: input.destIP,
    port,
    ...(listener.container ? { container: listener.container } : {}),
    process: listener.process,
    clientIP: rest.clientIP,
  };
  hops.push(hop);
  return {
    status: 'delivered',
    hops,
    deciding: hop,
    target: pod ? { kind: 'pod', pod, node, listener } : { kind: 'node', node, listener },
    ...rest,
  };
}
