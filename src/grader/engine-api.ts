/**
 * Everything the grader takes from the engine, in one place. The engine's public surface
 * (`src/engine/index.ts`) does not export resource discovery, label selectors or JSONPath yet, so
 * these come from their modules directly; when index.ts exports them, only this file changes.
 * Nothing here builds a cluster: that is `LabEngine`'s job, so the grader loads (and its unit tests
 * run) without the composition root.
 */
import type { AnyObject, ResourceKey } from '../engine/api/objects.ts';
import type { ExecResult } from '../engine/shell/types.ts';
import type { ClusterSnapshot } from '../engine/cluster/cluster.ts';

export { resolveResource, type ResourceInfo } from '../engine/api/resources.ts';
export {
  parseSelector,
  matches as selectorMatches,
  formatLabels,
  SelectorParseError,
} from '../engine/api/labels.ts';
export {
  parseJsonPath,
  evaluateJsonPath,
  executeJsonPath,
  relaxedJsonPath,
  JsonPathError,
} from '../engine/kubectl/printers/jsonpath.ts';
export { jsonEqual } from '../engine/util/json.ts';
export { parseClusterConfig } from '../engine/cluster/config.ts';
import type { TrafficProbes } from './probes.ts';

export type { AnyObject, ResourceKey, ExecResult, ClusterSnapshot };
export type {
  ConnectRequest,
  ConnectResult,
  Hop as DataplaneHop,
} from '../engine/dataplane/network/types.ts';

/**
 * What the grader needs from a running cluster: a structural slice of the engine's `Cluster`, so the
 * grader never depends on how the cluster is composed.
 */
export interface GradableCluster {
  readonly store: {
    list(resource: ResourceKey, namespace?: string): readonly AnyObject[];
    get(resource: ResourceKey, namespace: string | undefined, name: string): AnyObject | undefined;
  };
  readonly files: {
    toJSON(): Record<string, string>;
    write(path: string, content: string): string | undefined;
    remove(path: string): boolean;
  };
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
