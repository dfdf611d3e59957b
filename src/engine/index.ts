/**
 * The engine's public surface: with `data.ts` (plain data a page may load), the only module that code
 * outside `src/engine/` may import (test/unit/engine-entry.test.ts enforces it; the names are listed in
 * test/unit/testdata/engine-exports.txt so that a change to them is deliberate).
 *
 * - Host API: `createCluster` / `restoreCluster` give a cluster; a host drives it as a `ClusterHandle`
 *   (exec, tick, snapshot, changes, files, prompt, completion) and hands its read-only `ClusterView` to
 *   whoever only looks. A host that serves the Kubernetes API itself drives a `ServedCluster`.
 * - Queries over what a view returns: label selectors, JSONPath, JSON equality.
 * - For hosts that serve the Kubernetes API over HTTP (`packetpath serve`).
 */

// Host API.
export {
  Cluster,
  createCluster,
  restoreCluster,
  COMMAND_STEP_MS,
  type ClusterHandle,
  type ServedCluster,
  type ClusterSnapshot,
  type ClusterChange,
  type ClusterOptions,
} from './cluster/cluster.ts';
export {
  parseClusterConfig,
  ClusterConfigError,
  KUBERNETES_VERSION,
  type ClusterConfig,
  type CniName,
  type Distribution,
  type KubeProxyMode,
} from './api/cluster-config.ts';
export { LabFiles, normalisePath, MAX_FILE_BYTES, type FileChange } from './shell/lab-files.ts';
export { fileBytes, fileContent } from './util/encoding.ts';
export { outputOf, type ExecResult, type SessionContext, type Sighting } from './shell/types.ts';
export type { SeenOutput } from './shell/sightings.ts';
export { needsMoreInput, type ShellState, type Completion } from './shell/shell.ts';
export { ApiStore, type StoreSnapshot } from './api/store.ts';
export { Rng } from './util/rng.ts';
export { SimClock } from './util/clock.ts';

// The read-only view, and the vocabulary of what it answers.
export type { ClusterView, ListOptions } from './cluster/view.ts';
export type {
  AnyObject,
  Manifest,
  ResourceKey,
  ResourceTypes,
  EndpointSlice,
  Gateway,
  HTTPRoute,
  Ingress,
  Namespace,
  NetworkPolicy,
  Node,
  Pod,
  Service,
} from './api/objects.ts';
export { resolveResource, type ResourceInfo } from './api/resources.ts';
export type {
  CniDataplane,
  ConnectRequest,
  ConnectResult,
  Hop,
  HopKind,
  MatrixCell,
  Outcome,
  PodRef,
  ProbeRequest,
  ProbeResult,
  ProbeVerdict,
  Source,
} from './dataplane/network/index.ts';
export type { TraceRequest, TraceResult } from './dataplane/trace/index.ts';
export { policyEnforcement, type Enforcement } from './dataplane/policy/enforcement.ts';

// Queries: selectors, JSONPath, equality.
export {
  parseSelector,
  matches as selectorMatches,
  matchesLabelSelector,
  formatLabels,
  formatLabelSelector,
  SelectorParseError,
  type Selector,
  type Labels,
} from './api/labels.ts';
export {
  parseJsonPath,
  evaluateJsonPath,
  executeJsonPath,
  relaxedJsonPath,
  JsonPathError,
} from './kubectl/printers/jsonpath.ts';
export { jsonEqual } from './util/json.ts';

// For hosts that serve the Kubernetes API over HTTP (`packetpath serve`): discovery, errors as
// metav1.Status, server-side Table columns from kubectl's own printers, selectors and patches.
export { RESOURCES, apiVersionOf } from './api/resources.ts';
export { StatusError, type StatusReason, type StatusCause } from './api/errors.ts';
export type { WatchEvent } from './api/store.ts';
export type { DeleteOptions, WriteOptions } from './apiserver/apiserver.ts';
export { tableFor } from './kubectl/printers/registry.ts';
export type { TableDef, Column as TableColumn } from './kubectl/printers/table.ts';
export { serverFieldSelector, matchesFields } from './kubectl/field-selector.ts';
export { mergePatch, strategicMergePatch, jsonPatch, PatchError } from './kubectl/patch.ts';
export { notFoundInPath as execNotFoundError } from './kubectl/commands/exec.ts';
export { sameObject } from './kubectl/commands/patch.ts';
