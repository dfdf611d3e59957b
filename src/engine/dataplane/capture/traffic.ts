/**
 * The packets of the flows the engine models, for the captures that are running: a DNS query and its
 * answer (one per search-list candidate, as the resolver sends them), a TCP connection (handshake, the
 * request and the answer, the close; an RST for a closed port; SYN retransmissions for a drop; ICMP
 * port unreachable for kube-proxy's REJECT). Each packet is built once before and once
 * after the translation (`legs.ts` says where each form is seen) and offered to the captures with its
 * simulated time. Nothing here runs when no capture is running.
 */
import type { AppResponse, HttpRequestSpec } from '../network/types.ts';
import { cniDataplane } from '../network/cni-dataplane.ts';
import { externalClientIP, type NetworkView, type NodeInfo } from '../network/view.ts';
import type { Origin, TransportResult } from '../network/transport.ts';
import type { DnsResponse, QType } from '../dns/message.ts';
import { fnv32a } from '../../util/rng.ts';
import { utf8Encode as utf8 } from '../../util/encoding.ts';
import { masqueradePort } from '../netfilter/nat-port.ts';
import { capturesRunning, recordLegs } from './captures.ts';
import { nodeIcmpSource, packetLegs, Topology, type NatAt, type Place, type Reach } from './legs.ts';
import {
  dnsQuery,
  dnsResponse,
  icmpUnreachable,
  ipv4,
  tcp,
  udp,
  IPPROTO_ICMP,
  IPPROTO_TCP,
  IPPROTO_UDP,
  TCP_ACK,
  TCP_FIN,
  TCP_PSH,
  TCP_RST,
  TCP_SYN,
  type TcpFields,
} from './wire.ts';

/** Linux's SYN retransmission times (tcp_syn_retries 6): 1 s doubling, from the first SYN. */
const SYN_RETRIES_MS = [0, 1000, 3000, 7000, 15000, 31000, 63000];

interface Ends {
  readonly src: string;
  readonly sport: number;
  readonly dst: string;
  readonly dport: number;
}

function reversed(e: Ends): Ends {
  return { src: e.dst, sport: e.dport, dst: e.src, dport: e.sport };
}

/** The two ends of a flow, before (as the client dialled) and after the translation (as the server saw). */
interface FlowShape {
  readonly client: Place;
  readonly server: Place;
  readonly near: Ends;
  readonly far: Ends;
  /** The node that translated, absent when nothing did. */
  readonly translated: boolean;
}

function originPlace(view: NetworkView, origin: Origin, t: TransportResult): Place {
  if (origin.kind === 'pod') return { kind: 'pod', pod: origin.pod, node: origin.node };
  if (origin.kind === 'node') return { kind: 'node', node: origin.node };
  const entry = t.translation ? view.nodeByName(t.translation.node) : undefined;
  return entry ? { kind: 'outside', node: entry } : { kind: 'outside' };
}

/**
 * Where the packet was headed: the transport's target, or for a refusal or a drop (which have none)
 * the pod or node that owns the translated address.
 */
function targetPlace(view: NetworkView, t: TransportResult): Place | undefined {
  const target = t.target;
  if (!target) {
    const pod = view.podByIP(t.destIP);
    const podNode = pod ? view.nodeByName(pod.spec?.nodeName ?? '') : undefined;
    if (pod && podNode) return { kind: 'pod', pod, node: podNode };
    const node = view.nodeByIP(t.destIP);
    return node ? { kind: 'node', node } : undefined;
  }
  if (target.kind === 'pod') return { kind: 'pod', pod: target.pod, node: target.node };
  if (target.kind === 'node') return { kind: 'node', node: target.node };
  return { kind: 'outside' };
}

/** The port the server sees: the client's own, or the one masquerading picked. */
function serverSidePort(clientIP: string, localIP: string, srcPort: number): number {
  return clientIP === localIP ? srcPort : masqueradePort(srcPort);
}

function shapeOf(
  view: NetworkView,
  origin: Origin,
  t: TransportResult,
  srcPort: number,
  dialIP: string,
  dialPort: number,
): FlowShape | undefined {
  const client = originPlace(view, origin, t);
  const server = targetPlace(view, t);
  if (!server) return undefined;
  const src = origin.ip || externalClientIP(view.config);
  const near = { src, sport: srcPort, dst: dialIP, dport: dialPort };
  const clientIP = t.clientIP || src;
  const far = {
    src: clientIP,
    sport: serverSidePort(clientIP, src, srcPort),
    dst: t.destIP,
    dport: t.destPort ?? dialPort,
  };
  return { client, server, near, far, translated: near.dst !== far.dst || near.src !== far.src };
}

type L4 = (src: string, dst: string, e: Ends) => Uint8Array;

class FlowRecorder {
  private readonly topo: Topology;
  private readonly view: NetworkView;
  private readonly shape: FlowShape;
  private readonly proto: number;
  private ipId: number;

  constructor(view: NetworkView, shape: FlowShape, proto: number) {
    this.view = view;
    this.shape = shape;
    this.proto = proto;
    this.topo = new Topology(view, (node) => cniDataplane(view.cluster, node));
    this.ipId = fnv32a(`${shape.near.src}:${shape.near.sport}`) & 0xffff;
  }

  /** The round trip between the two ends, in microseconds (a bridge is quick, a tunnel slower). */
  get rttUs(): number {
    const a = this.shape.client.node?.name;
    const b = this.shape.server.node?.name;
    if (this.shape.server.kind === 'outside' && !this.shape.server.node) return 12000;
    return a !== undefined && a === b ? 60 : 420;
  }

  /** Sends one packet from the client (`up`) or the server, built by `l4` over the right addresses. */
  send(up: boolean, l4: L4, atUs: number, opts: { df?: boolean; reach?: Reach } = {}): void {
    const s = this.shape;
    const id = (this.ipId = (this.ipId + 1) & 0xffff);
    const df = opts.df ?? true;
    const build =
      (e: Ends) =>
      (ttlDrop: number): Uint8Array =>
        ipv4(
          { src: e.src, dst: e.dst, protocol: this.proto, id, ttl: 64 - ttlDrop, df },
          l4(e.src, e.dst, e),
        );
    const near = up ? s.near : reversed(s.far);
    const far = up ? s.far : reversed(s.near);
    const natAt: NatAt = !s.translated ? 'none' : up ? 'sender' : 'receiver';
    const from = up ? s.client : s.server;
    const to = up ? s.server : s.client;
    const legs = packetLegs(this.topo, from, to, natAt, { near: build(near), far: build(far) }, opts.reach);
    const now = this.view.now;
    recordLegs(this.view.cluster, legs, now + Math.floor(atUs / 1000), atUs % 1000);
  }
}

// ---- DNS ----------------------------------------------------------------------------------------------

export interface DnsExchange {
  readonly origin: Origin;
  readonly path: TransportResult;
  readonly srcPort: number;
  readonly server: string;
  readonly query: { readonly id: number; readonly name: string; readonly type: QType };
  /** Absent when no answer came back. */
  readonly response?: DnsResponse;
  /** Microseconds after the lookup began (each candidate waits for the previous answer). */
  readonly offsetUs: number;
}

/** Hook of network/dns-client.ts: one query and its answer. */
export function recordDnsExchange(view: NetworkView, x: DnsExchange): void {
  if (!capturesRunning(view.cluster, view.nodes)) return;
  const shape = shapeOf(view, x.origin, x.path, x.srcPort, x.server, 53);
  if (!shape) return;
  const flow = new FlowRecorder(view, shape, IPPROTO_UDP);
  const query = dnsQuery(x.query);
  // glibc and musl set DF on their UDP sockets only with IP_PMTUDISC; the kernel's default is DF set.
  flow.send(true, (src, dst, e) => udp(src, dst, e.sport, e.dport, query), x.offsetUs, { df: false });
  if (x.response) {
    const answer = dnsResponse(x.response);
    flow.send(
      false,
      (src, dst, e) => udp(src, dst, e.sport, e.dport, answer),
      x.offsetUs + flow.rttUs + 150,
      {
        df: false,
      },
    );
  }
}

// ---- TCP ----------------------------------------------------------------------------------------------

export interface TcpConnection {
  readonly origin: Origin;
  readonly t: TransportResult;
  readonly srcPort: number;
  readonly dialIP: string;
  readonly dialPort: number;
  readonly outcome: 'connected' | 'refused' | 'timeout' | 'unreachable' | 'dns-failure';
  /** The request as the client wrote it (HTTP text), if it sent one. */
  readonly request?: string;
  readonly response?: AppResponse;
  /** The client's MSS (its eth0 MTU − 40). */
  readonly mss: number;
  /** Microseconds after the command began (after its DNS lookups). */
  readonly offsetUs: number;
}

/** The request as curl or wget writes it on the socket. */
export function requestText(r: HttpRequestSpec): string {
  return `${r.method} ${r.path} HTTP/1.1\r\n${r.headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${r.body ?? ''}`;
}

function responseText(r: AppResponse): string {
  if (r.empty) return '';
  const head = `HTTP/${r.version ?? '1.1'} ${r.status ?? 200} ${r.reason ?? 'OK'}\r\n`;
  return head + r.headers.map(([k, v]) => `${k}: ${v}\r\n`).join('') + '\r\n' + r.body;
}

/** Where a timed-out SYN was lost, from the hop that decided. */
function dropPoint(t: TransportResult): Reach {
  const d = t.deciding;
  if (d?.kind === 'network-policy' && d.direction === 'Ingress') return 'before-receiver';
  return 'sender-side';
}

/** Hook of network/connect.ts: the packets of one TCP connection attempt. */
export function recordTcpConnection(view: NetworkView, c: TcpConnection): void {
  if (!capturesRunning(view.cluster, view.nodes)) return;
  if (c.outcome === 'dns-failure' || c.outcome === 'unreachable') return;
  const rejectedAt = c.t.deciding?.kind === 'netfilter' && c.t.deciding.verdict === 'REJECT';
  const shape = rejectedAt
    ? rejectShape(view, c)
    : shapeOf(view, c.origin, c.t, c.srcPort, c.dialIP, c.dialPort);
  if (!shape) return;
  const flow = new FlowRecorder(view, shape, IPPROTO_TCP);
  const isn = fnv32a(`isn/${shape.near.src}:${c.srcPort}/${view.now}`);
  const serverIsn = fnv32a(`isn/${shape.far.dst}:${shape.far.dport}/${isn}`);
  const tsBase = (view.now & 0x7fffffff) >>> 0;
  const serverTs = fnv32a(`ts/${shape.far.dst}`) >>> 1;
  const synWindow = Math.floor(65535 / c.mss) * c.mss;
  const seg =
    (f: Omit<TcpFields, 'sport' | 'dport'>, payload: Uint8Array = new Uint8Array()): L4 =>
    (src, dst, e) =>
      tcp(src, dst, { ...f, sport: e.sport, dport: e.dport }, payload);
  const syn = (atUs: number, reach?: Reach): void =>
    flow.send(
      true,
      seg({
        seq: isn,
        ack: 0,
        flags: TCP_SYN,
        window: synWindow,
        syn: { mss: c.mss, tsval: tsBase + Math.floor(atUs / 1000), tsecr: 0, wscale: 7 },
      }),
      c.offsetUs + atUs,
      reach ? { reach } : {},
    );
  if (c.outcome === 'timeout') {
    const reach = dropPoint(c.t);
    for (const ms of SYN_RETRIES_MS) syn(ms * 1000, reach);
    return;
  }
  syn(0);
  const rtt = flow.rttUs;
  if (rejectedAt) {
    // kube-proxy's REJECT answers with ICMP port unreachable from the node, quoting the SYN.
    recordReject(view, c, shape, isn, synWindow, rtt);
    return;
  }
  if (c.outcome === 'refused') {
    flow.send(false, seg({ seq: 0, ack: isn + 1, flags: TCP_RST | TCP_ACK, window: 0 }), c.offsetUs + rtt);
    return;
  }
  let at = c.offsetUs + rtt;
  const ts = (client: boolean): { tsval: number; tsecr: number } => ({
    tsval: client ? tsBase + Math.floor(at / 1000) : serverTs + Math.floor(at / 1000),
    tsecr: client ? serverTs + Math.floor(at / 1000) : tsBase + Math.floor(at / 1000),
  });
  flow.send(
    false,
    seg({
      seq: serverIsn,
      ack: isn + 1,
      flags: TCP_SYN | TCP_ACK,
      window: Math.floor(65535 / c.mss) * c.mss,
      syn: { mss: c.mss, ...ts(false), wscale: 7 },
    }),
    at,
  );
  at += rtt / 2;
  let cseq = isn + 1;
  let sseq = serverIsn + 1;
  flow.send(true, seg({ seq: cseq, ack: sseq, flags: TCP_ACK, window: 502, ts: ts(true) }), at);
  const request = c.request ? utf8(c.request) : new Uint8Array();
  if (request.length > 0) {
    flow.send(
      true,
      seg({ seq: cseq, ack: sseq, flags: TCP_PSH | TCP_ACK, window: 502, ts: ts(true) }, request),
      at + 20,
    );
    cseq += request.length;
    at += rtt / 2 + 20;
    flow.send(false, seg({ seq: sseq, ack: cseq, flags: TCP_ACK, window: 507, ts: ts(false) }), at);
  }
  const answer = c.response ? utf8(responseText(c.response)) : new Uint8Array();
  at += 200;
  for (let off = 0; off < answer.length; off += c.mss - 12) {
    const chunk = answer.subarray(off, off + c.mss - 12);
    flow.send(
      false,
      seg({ seq: sseq, ack: cseq, flags: TCP_PSH | TCP_ACK, window: 507, ts: ts(false) }, chunk),
      at,
    );
    sseq += chunk.length;
    at += rtt / 2;
    flow.send(true, seg({ seq: cseq, ack: sseq, flags: TCP_ACK, window: 502, ts: ts(true) }), at);
    at += 10;
  }
  // The client closes first (curl, wget and nc -z do), then the server.
  flow.send(
    true,
    seg({ seq: cseq, ack: sseq, flags: TCP_FIN | TCP_ACK, window: 502, ts: ts(true) }),
    at + 30,
  );
  at += 30 + rtt / 2;
  flow.send(
    false,
    seg({ seq: sseq, ack: cseq + 1, flags: TCP_FIN | TCP_ACK, window: 507, ts: ts(false) }),
    at,
  );
  at += rtt / 2;
  flow.send(true, seg({ seq: cseq + 1, ack: sseq + 1, flags: TCP_ACK, window: 502, ts: ts(true) }), at);
}

/** A REJECT at the client's node: the SYN is seen on the client's side only, and the ICMP comes back. */
function rejectShape(view: NetworkView, c: TcpConnection): FlowShape | undefined {
  const client = originPlace(view, c.origin, c.t);
  const node = client.node;
  if (!node) return undefined;
  const src = c.origin.ip || externalClientIP(view.config);
  const near = { src, sport: c.srcPort, dst: c.dialIP, dport: c.dialPort };
  return { client, server: { kind: 'node', node }, near, far: near, translated: false };
}

function recordReject(
  view: NetworkView,
  c: TcpConnection,
  shape: FlowShape,
  isn: number,
  window: number,
  rttUs: number,
): void {
  const node: NodeInfo | undefined = shape.client.node;
  if (!node || shape.client.kind !== 'pod') return;
  const e = shape.near;
  const synPacket = ipv4(
    { src: e.src, dst: e.dst, protocol: IPPROTO_TCP, id: 0, ttl: 64, df: true },
    tcp(
      e.src,
      e.dst,
      { sport: e.sport, dport: e.dport, seq: isn, ack: 0, flags: TCP_SYN, window },
      new Uint8Array(),
    ),
  );
  const from = nodeIcmpSource(view, node);
  const icmpShape: FlowShape = {
    client: shape.client,
    server: { kind: 'node', node },
    near: { src: e.src, sport: 0, dst: from, dport: 0 },
    far: { src: e.src, sport: 0, dst: from, dport: 0 },
    translated: false,
  };
  const flow = new FlowRecorder(view, icmpShape, IPPROTO_ICMP);
  flow.send(false, () => icmpUnreachable(3, synPacket), c.offsetUs + rttUs / 2, { df: false });
}
