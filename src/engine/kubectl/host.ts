/**
 * What kubectl needs from the cluster. `Cluster` satisfies it as it is; tests may pass a smaller host.
 * kubectl talks to the API only through `api` (the API server: create/update/delete with
 * fieldValidation, dryRun and warnings), as the real client talks to kube-apiserver.
 */
import type { AnyObject, Manifest, ResourceKey, ResourceTypes } from '../api/objects.ts';
import type { ClusterConfig } from '../api/cluster-config.ts';
import type { LabFiles } from '../shell/lab-files.ts';
import type { SimClock } from '../util/clock.ts';
import type { Rng } from '../util/rng.ts';
import type { CommandResolver } from '../shell/types.ts';
import type { DeleteOptions, WriteOptions } from '../apiserver/apiserver.ts';

export interface KubectlApi {
  get<K extends ResourceKey>(
    resource: K,
    namespace: string | undefined,
    name: string,
  ): ResourceTypes[K] | undefined;
  list<K extends ResourceKey>(resource: K, namespace?: string): ResourceTypes[K][];
  create(manifest: Manifest, opts?: WriteOptions): AnyObject;
  update(manifest: Manifest, opts?: WriteOptions): AnyObject;
  delete(resource: ResourceKey, namespace: string | undefined, name: string, opts?: DeleteOptions): AnyObject;
  /** Metadata-only writes (labels, annotations), as kubectl's metadata patches are. */
  updateMetadata?<T extends AnyObject>(object: T): T;
  /** PUT on the status subresource (`kubectl patch --subresource=status`). */
  updateStatus?<T extends AnyObject>(object: T): T;
}

export interface KubectlHost {
  readonly api: KubectlApi;
  readonly clock: SimClock;
  readonly files: LabFiles;
  readonly config: ClusterConfig;
  /** For names kubectl itself generates (`node-debugger-<node>-xxxxx`). */
  readonly rng: Rng;
  /** Advances simulated time until `done()` holds or the timeout passes (rollout status, wait, run -it). */
  waitFor(done: () => boolean, timeoutMs: number, stepMs?: number): boolean;
}

/** The container's log text; undefined when the container has no log (never started). */
export type ContainerLogs = (
  pod: AnyObject,
  container: string,
  opts: { previous: boolean },
) => string | undefined;

/** Pieces other modules provide; every one is optional so kubectl degrades to the real error texts. */
export interface KubectlHooks {
  /** Resolves a command inside a pod's container or a node (for `kubectl exec POD -- CMD`). */
  readonly resolveCommand?: CommandResolver;
  /** The kubelet's container logs (for `kubectl logs`). */
  readonly containerLogs?: ContainerLogs;
  /** The same lines with the time each was written (for `kubectl logs --timestamps`). */
  readonly containerLogLines?: (
    pod: AnyObject,
    container: string,
    opts: { previous: boolean },
  ) => { readonly time: number; readonly text: string }[] | undefined;
  /** Told about exceptions that are bugs rather than kubectl errors (tests assert there are none). */
  readonly onInternalError?: (error: unknown) => void;
}
