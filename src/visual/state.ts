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

/** A pair to trace (the form, a matrix cell), or a `trace …` line the learner ran in the terminal. */
export type NetworkTraceRequest =
  | {
      readonly from: Source;
      /** A name or an IP address. */
      readonly to: string;
      /** Absent: ping (ICMP). */
      readonly port?: number;
      readonly protocol?: string;
    }
  | { readonly command: string };

export type NetworkTraceResult = TraceResult | { readonly error: string };

/** What `<pp-network>` needs from a host: the lab island implements it over the worker protocol. */
export interface NetworkHost {
  state(signal?: AbortSignal): Promise<NetworkState>;
  trace(request: NetworkTraceRequest, signal?: AbortSignal): Promise<NetworkTraceResult>;
}
