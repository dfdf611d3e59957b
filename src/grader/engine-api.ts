/**
 * Everything the grader takes from the engine, in one place, and only from the engine's public surface
 * (`src/engine/index.ts`): the read-only cluster view, resource discovery, label selectors, JSONPath,
 * JSON equality. Keeping the grader off engine internals keeps that surface explicit
 * (test/unit/engine-entry.test.ts checks it). Nothing here builds a cluster: that is `LabEngine`'s job,
 * so the grader's unit tests can run on a fake cluster (test-helpers.ts).
 */
import type {
  AnyObject,
  ClusterSnapshot,
  ClusterView,
  ExecResult,
  ResourceKey,
  SeenOutput,
} from '../engine/index.ts';

export {
  resolveResource,
  parseSelector,
  selectorMatches,
  formatLabels,
  SelectorParseError,
  parseJsonPath,
  evaluateJsonPath,
  executeJsonPath,
  relaxedJsonPath,
  JsonPathError,
  jsonEqual,
  parseClusterConfig,
  type ResourceInfo,
} from '../engine/index.ts';
import type { TrafficProbes } from './probes.ts';

export type { AnyObject, ResourceKey, ExecResult, ClusterSnapshot, ClusterView, SeenOutput };
export type { ConnectRequest, ConnectResult, Hop as DataplaneHop, MatrixCell } from '../engine/index.ts';

/** The objects of a cluster, read-only: the part of the engine's `ClusterView` every check reads. */
export interface ObjectView {
  list(resource: ResourceKey, namespace?: string): readonly AnyObject[];
  get(resource: ResourceKey, namespace: string | undefined, name: string): AnyObject | undefined;
}

/**
 * What the grader needs from a running cluster: a structural slice of the engine's `ClusterHandle`, so
 * the grader never depends on how the cluster is composed. Checks read through `view()`; only the
 * engine's view also answers traffic questions (`isDataplaneView`).
 */
export interface GradableCluster {
  view(): ObjectView;
  readonly files: {
    toJSON(): Record<string, string>;
    write(path: string, content: string): string | undefined;
    remove(path: string): boolean;
  };
  /** What the learner's terminal showed: the objects each typed line displayed (observation checks). */
  readonly sightings: { list(): readonly SeenOutput[] };
  execSync(line: string, opts?: { interactive?: boolean }): ExecResult;
  tick(ms: number): void;
  snapshot(): ClusterSnapshot;
}

/** How the grader makes clusters: `createCluster` and `restoreCluster` from the engine, or a fake in tests. */
export interface LabEngine<C extends GradableCluster = GradableCluster> {
  createCluster(config: string | undefined, opts: { seed: number; files: Record<string, string> }): C;
  restoreCluster(snapshot: ClusterSnapshot): C;
  /** How traffic and DNS checks are answered on this engine's clusters (see probes.ts). */
  readonly probes?: TrafficProbes;
}

/** Whether a cluster's view is the engine's, which answers connections and the policy matrix too. */
export function isDataplaneView(view: ObjectView): view is ClusterView {
  return 'connect' in view && 'reachabilityMatrix' in view;
}
