/**
 * The hop vocabulary the walk draws: the dataplane's own types (`TraceResult` from
 * `dataplane/trace`, `Hop` from `dataplane/network`), imported as types only, so nothing of the
 * engine reaches the page bundle.
 */
export type { TraceResult } from '../../engine/dataplane/trace/index.ts';
export type { Hop, HopKind, PodRef, Source } from '../../engine/dataplane/network/index.ts';
