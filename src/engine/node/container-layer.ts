/**
 * Each container's writable layer, as containerd's overlayfs snapshotter keeps it on the node: what
 * the container wrote over its image. Every `kubectl exec` into the container sees the same files
 * (a capture written by one exec is there for `ls` in the next and for `kubectl cp`), the layer
 * travels in the cluster snapshot, and a restarted container starts from its image again (a new
 * container, a new layer). Layers of pods that no longer exist are dropped when a layer is saved,
 * as the kubelet's garbage collection removes dead containers.
 */
import type { NodeLocalStore } from '../controllers/runtime.ts';
import { isPlainObject, type Json } from '../util/json.ts';
import type { LayerContents, WritableLayer } from '../shell/types.ts';

const STATE_KEY = 'containerLayers';

export interface LayerOwner {
  readonly node: string;
  readonly podUid: string;
  readonly container: string;
  /** The container's restartCount: each restart is a new container with an empty layer. */
  readonly instance: number;
}

function keyOf(o: LayerOwner): string {
  return `${o.podUid}/${o.container}/${o.instance}`;
}

function contentsOf(v: Json | undefined): LayerContents {
  if (!isPlainObject(v) || !isPlainObject(v['files']) || !Array.isArray(v['dirs']))
    return { files: {}, dirs: [] };
  const files: Record<string, string | null> = {};
  for (const [path, content] of Object.entries(v['files']))
    if (typeof content === 'string' || content === null) files[path] = content;
  return { files, dirs: v['dirs'].filter((d): d is string => typeof d === 'string') };
}

/** The layer of one container; `livePods` says which pod uids still exist (for the clean-up). */
export function containerLayer(
  state: NodeLocalStore,
  owner: LayerOwner,
  livePods: () => ReadonlySet<string>,
): WritableLayer {
  const key = keyOf(owner);
  return {
    read: () => {
      const record = state.get(owner.node, STATE_KEY);
      return contentsOf(isPlainObject(record) ? record[key] : undefined);
    },
    write: (contents) => {
      const live = livePods();
      state.updateRecord(owner.node, STATE_KEY, (record) => {
        for (const k of Object.keys(record)) {
          const [uid, container, instance] = k.split('/');
          const replaced =
            uid === owner.podUid && container === owner.container && instance !== String(owner.instance);
          if (replaced || !live.has(uid ?? '')) delete record[k];
        }
        record[key] = { files: { ...contents.files }, dirs: [...contents.dirs] };
      });
    },
  };
}
