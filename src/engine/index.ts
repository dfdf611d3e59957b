/**
 * The engine's public surface: the only module that code outside `src/engine/` may import. Hosts (the
 * Web Worker, the Node CLI, the WebContainer build) and the grader build on these names.
 */
export {
  Cluster,
  createCluster,
  restoreCluster,
  SnapshotError,
  COMMAND_STEP_MS,
  type ClusterSnapshot,
  type ClusterChange,
  type ClusterOptions,
} from './cluster/cluster.ts';
export {
  parseClusterConfig,
  defaultClusterConfig,
  ClusterConfigError,
  KUBERNETES_VERSION,
  type ClusterConfig,
  type CniName,
  type Distribution,
  type KubeProxyMode,
} from './api/cluster-config.ts';
export { LabFiles, normalisePath, MAX_FILE_BYTES, type FileChange } from './shell/lab-files.ts';
export { fileBytes, fileContent } from './util/encoding.ts';
export type { ExecResult, SessionContext } from './shell/types.ts';
export { needsMoreInput, type ShellState, type Completion } from './shell/shell.ts';
export type { AnyObject, ResourceKey } from './api/objects.ts';
export { resolveResource, type ResourceInfo } from './api/resources.ts';
export {
  parseSelector,
  matches as selectorMatches,
  formatLabels,
  SelectorParseError,
  type Selector,
  type Labels,
} from './api/labels.ts';
export { ApiStore, type StoreSnapshot } from './api/store.ts';
export {
  parseJsonPath,
  evaluateJsonPath,
  executeJsonPath,
  relaxedJsonPath,
  JsonPathError,
} from './kubectl/printers/jsonpath.ts';
export { jsonEqual } from './util/json.ts';
export { YAML_LIMITS } from './util/yaml-limits.ts';
export { Rng } from './util/rng.ts';
export { SimClock } from './util/clock.ts';
export {
  connect,
  probe,
  reachabilityMatrix,
  resolveName,
  graderHop,
  verdictOf,
  type ConnectRequest,
  type ConnectResult,
  type MatrixCell,
  type Hop,
  type HopKind,
  type Outcome,
} from './dataplane/network/index.ts';
export {
  traceConnection,
  formatTrace,
  type TraceResult,
  type TraceRequest,
} from './dataplane/trace/index.ts';
// For hosts that serve the Kubernetes API over HTTP (`packetpath serve`): discovery, errors as
// metav1.Status, server-side Table columns from kubectl's own printers, selectors and patches.
export { RESOURCES, apiVersionOf, resourceForKind } from './api/resources.ts';
export { StatusError, type StatusReason, type StatusCause } from './api/errors.ts';
export type { WatchEvent } from './api/store.ts';
export type { DeleteOptions, WriteOptions } from './apiserver/apiserver.ts';
export { tableFor } from './kubectl/printers/registry.ts';
export type { TableDef, Column as TableColumn } from './kubectl/printers/table.ts';
export { serverFieldSelector, matchesFields } from './kubectl/field-selector.ts';
export { mergePatch, strategicMergePatch, jsonPatch, PatchError } from './kubectl/patch.ts';
export { readContainerLog, execInContainer } from './cluster/commands.ts';
export { notFoundInPath as execNotFoundError } from './kubectl/commands/exec.ts';
export { sameObject } from './kubectl/commands/patch.ts';
