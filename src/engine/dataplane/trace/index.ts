/** The packet walk: `traceConnection` (structured hops for the UI and grader), `formatTrace`, the `trace` command. */
export { traceConnection, planFor, TRACE_PROGRAMS } from './trace-connection.ts';
export type { TraceResult, TraceRequest, TraceProgram } from './trace-connection.ts';
export { formatTrace, hopLine } from './format-trace.ts';
export { traceCommand, TRACE_HELP } from './trace-command.ts';
