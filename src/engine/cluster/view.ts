/**
 * `ClusterView`: what the grader and the network views may know about a running cluster, and nothing
 * they could change it with. Objects come back as the API server stores them (get, list, by label
 * selector); the dataplane answers questions the way a client in the cluster would find out (one
 * connection, a probe, the reachability matrix, a traced request). Selectors and JSONPath over what it
 * returns are the pure functions exported beside it (src/engine/index.ts).
 *
 * A connection or a probe does leave what a real one leaves (conntrack entries, IPVS counters,
 * CoreDNS cache and log lines): callers that must leave no trace ask a restored copy, as the grader's
 * scratch cluster and the service matrix do.
 */
import type { ClusterConfig } from '../api/cluster-config.ts';
import { matches, type Selector } from '../api/labels.ts';
import type { Pod, ResourceKey, ResourceTypes } from '../api/objects.ts';
import type { ExecResult } from '../shell/types.ts';
import { Rng } from '../util/rng.ts';
import {
  cniDataplane,
  connect,
  probe,
  reachabilityMatrix,
  type CniDataplane,
  type ConnectRequest,
  type ConnectResult,
  type MatrixCell,
  type ProbeRequest,
  type ProbeResult,
} from '../dataplane/network/index.ts';
import { traceConnection, type TraceRequest, type TraceResult } from '../dataplane/trace/index.ts';
import type { Cluster } from './cluster.ts';

export interface ListOptions {
  /** Only objects whose labels match (a parsed `parseSelector` result). */
  readonly labelSelector?: Selector;
}

export interface ClusterView {
  /** The cluster's definition (distribution, CNI, kube-proxy mode, nodes, addresses). */
  readonly config: ClusterConfig;
  /** The store's resourceVersion: it moves with every write, so equal numbers mean equal objects. */
  resourceVersion(): number;
  /** Simulated time in milliseconds since the cluster booted. */
  now(): number;
  get<K extends ResourceKey>(
    resource: K,
    namespace: string | undefined,
    name: string,
  ): ResourceTypes[K] | undefined;
  /** Every object of `resource` (in `namespace` when given), in the store's order. */
  list<K extends ResourceKey>(
    resource: K,
    namespace?: string,
    opts?: ListOptions,
  ): readonly ResourceTypes[K][];
  /** One client connection end to end; `seed` draws its backend and ports without touching the cluster's RNG. */
  connect(request: ConnectRequest, seed: string): ConnectResult;
  /** A real connection from a pod, with the hop that decided (the grader's and the matrix's question). */
  probe(request: ProbeRequest): ProbeResult;
  /** NetworkPolicy verdicts pod × pod on each listening port, from the compiled policies (no packet is sent). */
  reachabilityMatrix(pods?: readonly Pod[]): MatrixCell[];
  /** A request traced hop by hop (the walk), or why it cannot be. */
  trace(request: TraceRequest): TraceResult | { readonly error: string };
  /** A terminal `trace …` line's arguments, run as the `trace` command runs them (its stdout, stderr, exit code). */
  traceCommand(args: string): ExecResult;
  /** How the CNI carries pod traffic (encapsulation, tunnel device, MTUs) with the cluster's current settings. */
  dataplane(): CniDataplane;
}

export function clusterView(cluster: Cluster): ClusterView {
  return {
    config: cluster.config,
    resourceVersion: () => cluster.store.resourceVersion,
    now: () => cluster.clock.now(),
    get: (resource, namespace, name) => cluster.store.get(resource, namespace, name),
    list(resource, namespace, opts = {}) {
      const all = cluster.store.list(resource, namespace);
      const selector = opts.labelSelector;
      return selector ? all.filter((o) => matches(selector, o.metadata.labels ?? {})) : all;
    },
    connect: (request, seed) => connect(request, cluster, new Rng(seed)),
    probe: (request) => probe(cluster, request),
    reachabilityMatrix: (pods) => reachabilityMatrix(cluster, pods),
    trace: (request) => traceConnection(cluster, request),
    traceCommand: (args) => cluster.shell.run(`trace ${args}`, { interactive: false }),
    dataplane: () => cniDataplane(cluster),
  };
}
