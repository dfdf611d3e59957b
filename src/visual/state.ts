/** What a host sends the page for the network views (see `host.ts`): plain, structured-clone-safe data. */
import type { MatrixCell, ProbeVerdict } from '../engine/index.ts';
import type { TraceResult, Source } from './walk/hops.ts';
import type { TopologyModel } from './topology/types.ts';

/**
 * One source pod × one Service port, as a real client connection to ClusterIP:port meets it: kube-proxy's
 * translation on the source node (one endpoint picked), then the policies and the listener of that endpoint.
 */
export interface ServiceMatrixCell {
  /** Source pod, `namespace/name`. */
  readonly from: string;
  /** Service, `namespace/name`. */
  readonly service: string;
  readonly clusterIP: string;
  readonly port: number;
  readonly protocol: 'TCP' | 'UDP';
  /** The Service port's name, when it has one. */
  readonly portName?: string;
  readonly verdict: ProbeVerdict;
  /** Why: the policy side for a connection that got through, else what stopped it. */
  readonly reason:
    | 'not-isolated'
    | 'allowed-by-rule'
    | 'not-enforced'
    | 'no-rule-allowed'
    | 'no-endpoints'
    | 'no-listener'
    | 'no-route'
    | 'dropped';
  readonly direction?: 'Ingress' | 'Egress';
  /** The endpoint kube-proxy picked (`ip:port`) and its pod (`namespace/name`) or node. */
  readonly backend?: { readonly address: string; readonly pod?: string; readonly node?: string };
}

export interface NetworkState {
  readonly topology: TopologyModel;
  readonly matrix: readonly MatrixCell[];
  /** Pod × Service port; empty with `servicesTooLarge` set when there are too many pods to probe. */
  readonly services: readonly ServiceMatrixCell[];
  readonly servicesTooLarge?: { readonly pods: number; readonly ports: number };
  /** The store revision it was computed at: the page redraws only when it changes. */
  readonly revision: number;
}

/** A pair to trace (the form, a matrix cell), or a `trace …` line the learner ran in the terminal. */
export type NetworkTraceRequest =
  | {
      readonly from: Source;
      /** A name or an IP address. */
      readonly to: string;
      /** Absent: ping (ICMP). */
      readonly port?: number;
      readonly protocol?: string;
      /**
       * A matrix cell: replay the cell's own probe (same state and request, same endpoint picked), so the
       * walk shows the connection whose verdict the cell shows.
       */
      readonly probe?: boolean;
    }
  | { readonly command: string };

export type NetworkTraceResult = TraceResult | { readonly error: string };

/** What `<pp-network>` needs from a host: the lab island implements it over the worker protocol. */
export interface NetworkHost {
  state(signal?: AbortSignal): Promise<NetworkState>;
  trace(request: NetworkTraceRequest, signal?: AbortSignal): Promise<NetworkTraceResult>;
}
