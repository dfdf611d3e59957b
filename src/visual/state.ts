/** What a host sends the page for the network views (see `host.ts`): plain, structured-clone-safe data. */
import type { MatrixCell } from '../engine/dataplane/network/index.ts';
import type { TraceResult, Source } from './walk/hops.ts';
import type { TopologyModel } from './topology/types.ts';

export interface NetworkState {
  readonly topology: TopologyModel;
  readonly matrix: readonly MatrixCell[];
  /** The store revision it was computed at: the page redraws only when it changes. */
  readonly revision: number;
}

export interface NetworkTraceRequest {
  readonly from: Source;
  /** A name or an IP address. */
  readonly to: string;
  /** Absent: ping (ICMP). */
  readonly port?: number;
  readonly protocol?: string;
}

export type NetworkTraceResult = TraceResult | { readonly error: string };

/** What `<pp-network>` needs from a host: the lab island implements it over the worker protocol. */
export interface NetworkHost {
  state(signal?: AbortSignal): Promise<NetworkState>;
  trace(request: NetworkTraceRequest, signal?: AbortSignal): Promise<NetworkTraceResult>;
}
