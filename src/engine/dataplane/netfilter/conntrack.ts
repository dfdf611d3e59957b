/**
 * The connection tracking table: one entry per connection with its original and reply tuples, so the
 * reply tuple records the DNAT (the backend) and the SNAT (masquerade) chosen for the first packet;
 * later packets of the connection follow the entry instead of the rules, which is why a connection
 * stays on its backend. Timeouts are the kernel's, with the two kube-proxy sets at start-up
 * (`conntrack.tcpEstablishedTimeout` 24h, `tcpCloseWaitTimeout` 1h). `conntrack -L` prints entries as
 * conntrack-tools 1.4.7 / libnetfilter_conntrack do (`%-8s %u %lu ` then the tuples).
 */
import { parseIPv4 } from '../../util/ip.ts';

export type CtProtocol = 'tcp' | 'udp' | 'sctp' | 'icmp';

export interface Tuple {
  readonly src: string;
  readonly dst: string;
  /** Ports for tcp/udp/sctp; for icmp, the echo id. */
  readonly sport: number;
  readonly dport: number;
}

export type TcpState = 'SYN_SENT' | 'ESTABLISHED' | 'TIME_WAIT' | 'CLOSE';

export interface ConntrackEntry {
  readonly protocol: CtProtocol;
  readonly orig: Tuple;
  readonly reply: Tuple;
  state?: TcpState;
  replied: boolean;
  assured: boolean;
  expiresAt: number;
  /**
   * UDP: when the flow counts as a stream (nf_conntrack_proto_udp: `stream_ts = jiffies + 2 * HZ`
   * at creation): traffic after a reply and past this instant extends the timeout and sets ASSURED.
   */
  readonly streamAt: number;
  /** `ip:port` the first packet was DNATed to (a Service backend). */
  readonly dnat?: string;
  /** Source address after masquerade. */
  readonly snat?: string;
  /** Source port after masquerade (`--random-fully` picks a new one). */
  readonly snatPort?: number;
  /** Free-form owner data (the mode and the chosen IPVS virtual server, for counters). */
  readonly tag?: string;
}

/** nf_conntrack_proto_udp: a UDP flow still active two seconds after its first packet is a stream. */
const UDP_STREAM_AFTER_MS = 2000;

const PROTO_NUMBER: Readonly<Record<CtProtocol, number>> = { icmp: 1, tcp: 6, udp: 17, sctp: 132 };

/** Seconds: kernel defaults, except the two kube-proxy overrides. */
export const CONNTRACK_TIMEOUTS = {
  tcpSynSent: 120,
  tcpEstablished: 86400,
  tcpTimeWait: 120,
  udpUnreplied: 30,
  udpStream: 120,
  icmp: 30,
} as const;

export interface NewConnection {
  readonly protocol: CtProtocol;
  readonly orig: Tuple;
  readonly dnat?: string;
  readonly snat?: string;
  readonly snatPort?: number;
  readonly tag?: string;
}

export class ConntrackTable {
  private readonly entries = new Map<string, ConntrackEntry>();

  /** The entries in creation order, for the cluster snapshot. */
  snapshot(): ConntrackEntry[] {
    return [...this.entries.values()].map((e) => ({ ...e }));
  }

  restore(entries: readonly ConntrackEntry[]): void {
    this.entries.clear();
    for (const e of entries) this.entries.set(key(e.protocol, e.orig), { ...e });
  }

  /** The live entry a packet belongs to, by its original tuple. */
  lookup(protocol: CtProtocol, t: Tuple, nowMs: number): ConntrackEntry | undefined {
    const e = this.entries.get(key(protocol, t));
    if (e && e.expiresAt <= nowMs) {
      this.entries.delete(key(protocol, t));
      return undefined;
    }
    return e;
  }

  /** Records the first packet of a connection (unreplied). */
  create(c: NewConnection, nowMs: number): ConntrackEntry {
    const [dip, dport] = c.dnat ? splitHostPort(c.dnat) : [c.orig.dst, c.orig.dport];
    const reply: Tuple = {
      src: dip,
      dst: c.snat ?? c.orig.src,
      sport: dport,
      dport: c.snatPort ?? c.orig.sport,
    };
    const timeout =
      c.protocol === 'tcp'
        ? CONNTRACK_TIMEOUTS.tcpSynSent
        : c.protocol === 'icmp'
          ? CONNTRACK_TIMEOUTS.icmp
          : CONNTRACK_TIMEOUTS.udpUnreplied;
    const e: ConntrackEntry = {
      protocol: c.protocol,
      orig: c.orig,
      reply,
      ...(c.protocol === 'tcp' ? { state: 'SYN_SENT' as const } : {}),
      replied: false,
      assured: false,
      expiresAt: nowMs + timeout * 1000,
      streamAt: nowMs + UDP_STREAM_AFTER_MS,
      ...(c.dnat ? { dnat: c.dnat } : {}),
      ...(c.snat ? { snat: c.snat } : {}),
      ...(c.snatPort !== undefined ? { snatPort: c.snatPort } : {}),
      ...(c.tag ? { tag: c.tag } : {}),
    };
    this.entries.set(key(c.protocol, c.orig), e);
    return e;
  }

  /**
   * A reply-direction packet (and, for UDP/ICMP, every exchange after it). TCP: the handshake
   * completes, ESTABLISHED and ASSURED. UDP as nf_conntrack_udp_packet: the first reply only clears
   * [UNREPLIED] (IPS_SEEN_REPLY is set after the protocol handler ran, so that packet still refreshes
   * the unreplied timeout, 30 s); later traffic refreshes to the stream timeout (120 s) and sets
   * ASSURED only once the flow is older than two seconds, so a lone DNS query and its answer is
   * neither [UNREPLIED] nor [ASSURED]. ICMP: replied, never assured (icmp_packet only refreshes).
   */
  replied(e: ConntrackEntry, nowMs: number): void {
    if (e.protocol === 'tcp') {
      e.replied = true;
      e.assured = true;
      e.state = 'ESTABLISHED';
      e.expiresAt = nowMs + CONNTRACK_TIMEOUTS.tcpEstablished * 1000;
      return;
    }
    if (e.protocol === 'icmp') {
      e.replied = true;
      e.expiresAt = nowMs + CONNTRACK_TIMEOUTS.icmp * 1000;
      return;
    }
    if (!e.replied) {
      e.expiresAt = nowMs + CONNTRACK_TIMEOUTS.udpUnreplied * 1000;
      e.replied = true;
      return;
    }
    if (nowMs > e.streamAt) {
      e.expiresAt = nowMs + CONNTRACK_TIMEOUTS.udpStream * 1000;
      e.assured = true;
    } else e.expiresAt = nowMs + CONNTRACK_TIMEOUTS.udpUnreplied * 1000;
  }

  /** A TCP connection closed normally: TIME_WAIT for two minutes. */
  close(e: ConntrackEntry, nowMs: number): void {
    if (e.protocol !== 'tcp') return;
    e.state = 'TIME_WAIT';
    e.expiresAt = nowMs + CONNTRACK_TIMEOUTS.tcpTimeWait * 1000;
  }

  /** `conntrack -D` for every entry whose destination or DNAT target matches (kube-proxy's UDP cleanup). */
  deleteWhere(pred: (e: ConntrackEntry) => boolean): number {
    let n = 0;
    for (const [k, e] of this.entries) {
      if (pred(e)) {
        this.entries.delete(k);
        n++;
      }
    }
    return n;
  }

  /** Live entries, sorted by protocol and original tuple. */
  list(nowMs: number): ConntrackEntry[] {
    for (const [k, e] of this.entries) if (e.expiresAt <= nowMs) this.entries.delete(k);
    return [...this.entries.values()].sort(compareEntries);
  }

  get size(): number {
    return this.entries.size;
  }
}

export interface ConntrackListing {
  readonly stdout: string;
  readonly stderr: string;
}

/** `conntrack -L`: entries on stdout, the summary line on stderr. */
export function conntrackList(table: ConntrackTable, nowMs: number): ConntrackListing {
  const entries = table.list(nowMs);
  return {
    stdout: entries.map((e) => formatEntry(e, nowMs) + '\n').join(''),
    stderr: `conntrack v1.4.7 (conntrack-tools): ${entries.length} flow entries have been shown.\n`,
  };
}

export function formatEntry(e: ConntrackEntry, nowMs: number): string {
  const remaining = Math.max(0, Math.floor((e.expiresAt - nowMs) / 1000));
  const parts = [`${e.protocol.padEnd(8)} ${PROTO_NUMBER[e.protocol]} ${remaining}`];
  if (e.state) parts.push(e.state);
  parts.push(tupleText(e.protocol, e.orig, true));
  if (!e.replied) parts.push('[UNREPLIED]');
  parts.push(tupleText(e.protocol, e.reply, false));
  if (e.assured) parts.push('[ASSURED]');
  parts.push('mark=0', 'use=1');
  return parts.join(' ');
}

function tupleText(protocol: CtProtocol, t: Tuple, original: boolean): string {
  if (protocol === 'icmp') {
    return `src=${t.src} dst=${t.dst} type=${original ? 8 : 0} code=0 id=${original ? t.sport : t.dport}`;
  }
  return `src=${t.src} dst=${t.dst} sport=${t.sport} dport=${t.dport}`;
}

function key(protocol: CtProtocol, t: Tuple): string {
  return `${protocol} ${t.src}:${t.sport} ${t.dst}:${t.dport}`;
}

function splitHostPort(hp: string): [string, number] {
  const i = hp.lastIndexOf(':');
  return [hp.slice(0, i), Number(hp.slice(i + 1))];
}

function compareEntries(a: ConntrackEntry, b: ConntrackEntry): number {
  const ip = (s: string) => parseIPv4(s) ?? 0;
  return (
    PROTO_NUMBER[a.protocol] - PROTO_NUMBER[b.protocol] ||
    ip(a.orig.src) - ip(b.orig.src) ||
    ip(a.orig.dst) - ip(b.orig.dst) ||
    a.orig.sport - b.orig.sport ||
    a.orig.dport - b.orig.dport
  );
}
