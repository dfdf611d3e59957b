/**
 * The hop vocabulary the walk draws: the dataplane's own types (`TraceResult` from
 * `dataplane/trace`, `Hop` from `dataplane/network`), imported as types only, so nothing of the
 * engine reaches the page bundle.
 */
export type { TraceResult, Hop, HopKind, PodRef, Source } from '../../engine/index.ts';
