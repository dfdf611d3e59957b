/**
 * The connection model's vocabulary: who sends, what to, and the hops a real packet meets on the way.
 * Hop kinds are stable identifiers: the `trace` command prints them, the lab UI draws them and the
 * grader names the deciding one, so a kind is never renamed, only added.
 */
import type { RuleHit } from '../netfilter/packet.ts';
import type { QType } from '../dns/message.ts';

export type Protocol = 'TCP' | 'UDP' | 'ICMP';

/** Who opens the connection. */
export type Source =
  | { readonly kind: 'pod'; readonly namespace: string; readonly name: string; readonly container?: string }
  /** A process in a node's network namespace (`kubectl debug node/…`, a node shell). */
  | { readonly kind: 'node'; readonly node: string }
  /** The learner's machine, outside the cluster. */
  | { readonly kind: 'external' };

export interface HttpRequestSpec {
  readonly method: string;
  /** Path with query string. */
  readonly path: string;
  /** The Host header. */
  readonly host: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: string;
  /** `https` when the client speaks TLS first (curl's `https://` URLs); absent means plain HTTP. */
  readonly scheme?: 'http' | 'https';
  /** The TLS server name the client sends: the URL's host name (curl sends none for an IP literal). */
  readonly sni?: string;
}

export interface ConnectRequest {
  readonly from: Source;
  /** An IP address or a name to resolve. */
  readonly to: string;
  /** Absent for ICMP. */
  readonly port?: number;
  readonly protocol: Protocol;
  /** What the client sends once connected; HTTP gets an HTTP answer from the listener. */
  readonly payload?: { readonly http?: HttpRequestSpec; readonly bytes?: number };
  /** Reuse this source port (same socket ⇒ same conntrack entry ⇒ same backend). */
  readonly srcPort?: number;
  /** Address families the client's getaddrinfo asks for (curl and wget: both). */
  readonly family?: 'A' | 'AAAA' | 'both';
}

export interface PodRef {
  readonly namespace: string;
  readonly name: string;
}

export type PolicyHopVerdict = 'allowed' | 'blocked' | 'not-isolated' | 'not-enforced';

export type Hop =
  | {
      readonly kind: 'resolv-conf';
      readonly libc: string;
      readonly nameserver: string;
      readonly search: readonly string[];
      readonly ndots: number;
      /** The names the resolver will try, in order (before any answer stops it). */
      readonly candidates: readonly string[];
    }
  | { readonly kind: 'hosts-file'; readonly name: string; readonly addresses: readonly string[] }
  | {
      readonly kind: 'dns-query';
      readonly name: string;
      readonly type: QType;
      readonly server: string;
      readonly outcome: 'answered' | 'timeout' | 'refused';
      readonly rcode?: string;
      readonly answers: readonly string[];
      /** The CoreDNS pod that answered (through the kube-dns Service). */
      readonly answeredBy?: PodRef;
    }
  | {
      readonly kind: 'dns-result';
      readonly name: string;
      readonly addresses: readonly string[];
      readonly error?: string;
    }
  | {
      readonly kind: 'socket';
      readonly from: string;
      readonly to: string;
      readonly protocol: Protocol;
      readonly pod?: PodRef;
      readonly node?: string;
      readonly external?: boolean;
      readonly hostNetwork?: boolean;
    }
  | {
      readonly kind: 'port-forward';
      readonly localPort: number;
      readonly pod: PodRef;
      readonly podPort: number;
    }
  | {
      readonly kind: 'service';
      readonly service: PodRef;
      readonly address: string;
      readonly port: number;
      /** kube-proxy's mode on the node, or `cilium` for its kube-proxy replacement. */
      readonly mode: string;
      readonly node: string;
      readonly rules: readonly RuleHit[];
      readonly evaluatedRules: number;
      /** `ip:port` the connection was DNATed to. */
      readonly endpoint?: string;
      readonly endpointPod?: PodRef;
      /** An existing conntrack entry decided (same socket as before). */
      readonly established: boolean;
    }
  | {
      readonly kind: 'netfilter';
      readonly node: string;
      readonly table: string;
      readonly chain: string;
      readonly rule: string;
      readonly verdict: 'DROP' | 'REJECT';
      readonly service?: PodRef;
    }
  | { readonly kind: 'no-endpoints'; readonly service: PodRef; readonly node: string }
  | { readonly kind: 'dnat'; readonly node: string; readonly from: string; readonly to: string }
  | {
      readonly kind: 'snat';
      readonly node: string;
      readonly from: string;
      readonly to: string;
      readonly reason: 'kube-proxy-masquerade' | 'egress-masquerade';
    }
  | {
      readonly kind: 'network-policy';
      readonly direction: 'Egress' | 'Ingress';
      readonly pod: PodRef;
      readonly verdict: PolicyHopVerdict;
      readonly enforcement: string;
      readonly enforcer?: string;
      readonly policies: readonly PodRef[];
      readonly allowedBy?: PodRef & { readonly rule: number };
      readonly peer: string;
      readonly port?: number;
    }
  | {
      readonly kind: 'route';
      readonly node: string;
      readonly via:
        | 'loopback'
        | 'local'
        | 'bridge'
        | 'routed-veth'
        | 'vxlan'
        | 'ipip'
        | 'bgp'
        | 'node-network'
        | 'uplink';
      readonly device: string;
      readonly toNode?: string;
      readonly outer?: {
        readonly src: string;
        readonly dst: string;
        readonly protocol: 'UDP' | 'IPIP' | 'none';
        readonly port?: number;
      };
      readonly mtu?: number;
      readonly text: string;
    }
  | {
      readonly kind: 'mtu';
      readonly podMtu: number;
      readonly pathMtu: number;
      readonly bytes: number;
      readonly stalled: boolean;
      /** The device whose MTU a full-size segment exceeds (`flannel.1`, `tunl0`, `cilium_vxlan`). */
      readonly device?: string;
      /**
       * Path MTU discovery: the node that answered ICMP "fragmentation needed" and from which address,
       * after which the sender resent smaller segments. Absent when no ICMP comes back (the black hole).
       */
      readonly icmp?: { readonly node: string; readonly from: string; readonly mtu: number };
    }
  | { readonly kind: 'no-route'; readonly ip: string; readonly reason: string; readonly node?: string }
  | {
      readonly kind: 'delivered';
      readonly pod?: PodRef;
      readonly node?: string;
      readonly ip: string;
      readonly port?: number;
      readonly container?: string;
      readonly process?: string;
      readonly clientIP: string;
    }
  | {
      readonly kind: 'no-listener';
      readonly pod?: PodRef;
      readonly node?: string;
      readonly ip: string;
      readonly port: number;
      readonly protocol: Protocol;
    }
  | { readonly kind: 'external'; readonly ip: string; readonly port?: number; readonly host?: string }
  /**
   * An Ingress controller or Gateway API proxy (Traefik, ingress-nginx) received the request: which
   * rule matched the Host header and path, the backend it chose (and the weighted draw of an HTTPRoute),
   * or the answer the proxy gave itself. The proxy's own connection to the backend follows as hops.
   */
  | {
      readonly kind: 'edge-proxy';
      readonly proxy: PodRef;
      readonly implementation: string;
      readonly host: string;
      readonly path: string;
      readonly scheme: 'http' | 'https';
      /** The certificate subject served when the proxy terminated TLS. */
      readonly certificate?: string;
      readonly matched?: {
        readonly kind: 'Ingress' | 'HTTPRoute';
        readonly object: PodRef;
        /** `host shop.example.com, path /api (Prefix)`, `rule 0`, `defaultBackend`. */
        readonly rule: string;
        readonly gateway?: PodRef;
        readonly listener?: string;
      };
      readonly draw?: { readonly value: number; readonly total: number; readonly weight: number };
      readonly backend?: {
        readonly service: PodRef;
        readonly port: number | string;
        readonly endpoint?: string;
      };
      /** A status the proxy answered itself (404 no match, 308/302 redirect, 500, 502, 503, 504). */
      readonly answered?: number;
      readonly reason?: string;
    };

export type HopKind = Hop['kind'];

export type Outcome = 'connected' | 'refused' | 'timeout' | 'unreachable' | 'dns-failure';

/** What the server answered (HTTP or a raw exchange). */
export interface AppResponse {
  readonly status?: number;
  readonly reason?: string;
  /** HTTP version of the status line (Go's TLS server answers plain HTTP with HTTP/1.0). */
  readonly version?: '1.0' | '1.1';
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string;
  /** A listener that accepts then closes without a byte (port-forward to a closed port). */
  readonly empty?: boolean;
}

export interface Backend {
  readonly pod?: PodRef;
  readonly node?: string;
  readonly container?: string;
  readonly process?: string;
  readonly host?: string;
  readonly ip: string;
  readonly port?: number;
}

export interface DnsSummary {
  readonly name: string;
  readonly addresses: readonly string[];
  readonly queries: number;
  readonly error?: { readonly code: string; readonly message: string };
  /** The resolution timed out (DNS unreachable): the simulated time it took. */
  readonly timedOut: boolean;
  readonly elapsedMs: number;
}

export interface ConnectResult {
  readonly outcome: Outcome;
  readonly hops: readonly Hop[];
  /** The hop that decided a failure (or the delivery). */
  readonly decidingHop?: Hop;
  readonly response?: AppResponse;
  /** The source address the server saw (after any SNAT). */
  readonly serverSawClientIP?: string;
  readonly backend?: Backend;
  readonly dns?: DnsSummary;
  /** The local socket. */
  readonly local: { readonly ip: string; readonly port: number };
  /** The address dialled (after DNS, before any DNAT). */
  readonly remote?: { readonly ip: string; readonly port?: number };
  /** Connected, but data larger than the path MTU never arrives (the MTU black hole). */
  readonly stalled?: boolean;
  /** ICMP: the address that answered an echo (the node for an IPVS ClusterIP). */
  readonly replyFrom?: string;
  /** The certificate presented when TLS was terminated by an edge proxy. */
  readonly tls?: ServedTls;
  /** Simulated milliseconds a refusal or an unreachable answer took (ARP timeouts, DNS waits). */
  readonly elapsedMs: number;
}

/** A certificate as `curl -v` describes it (OpenSSL's one-line names, `; ` between RDNs). */
export interface ServedTls {
  readonly subject: string;
  readonly issuer: string;
  /** Where the proxy took it from: a `kubernetes.io/tls` Secret, or its built-in default. */
  readonly source: 'secret' | 'default';
  readonly secret?: PodRef;
}
