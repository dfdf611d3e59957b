/**
 * The connection model's public surface: `connect` (one client connection end to end), `probe` and
 * `reachabilityMatrix` (the grader and the policy matrix), and the hop vocabulary.
 */
export { connect, resolveName } from './connect.ts';
export { probe, reachabilityMatrix, graderHop, verdictOf } from './probe.ts';
export type { ProbeRequest, ProbeResult, ProbeVerdict, MatrixCell, SideVerdict, GraderHop } from './probe.ts';
export { coreDnsLogLines } from './dns-client.ts';
export { cniDataplane, pathMtu } from './cni-dataplane.ts';
export type { CniDataplane, Encapsulation } from './cni-dataplane.ts';
export { kubeProxyOf } from './kube-proxy-of.ts';
export type {
  AppResponse,
  Backend,
  ConnectRequest,
  ConnectResult,
  DnsSummary,
  Hop,
  HopKind,
  Outcome,
  PodRef,
  Protocol,
  Source,
} from './types.ts';
