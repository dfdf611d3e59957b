/**
 * What every network tool needs from the session it runs in: the cluster, who it runs as (a pod's
 * container, a node, the learner's machine), the image's tool flavour (BusyBox applets vs. the real
 * programs) and a way to let simulated time pass while it waits.
 */
import type { Pod } from '../../api/objects.ts';
import type { DataplaneHost } from '../network/view.ts';
import type { ImageProfile } from '../../node/images.ts';
import { imageVersion, resolveImage } from '../../node/images.ts';
import type { Source } from '../network/types.ts';
import type { Shell } from '../../shell/shell.ts';

/**
 * What a tool needs beyond the dataplane's view: letting simulated time pass while it waits (`ping`,
 * `curl --max-time`), and the shell to run a command inside a node's root (`chroot /host`).
 */
export interface ToolHost extends DataplaneHost {
  readonly shell: Pick<Shell, 'execIn'>;
  /** Waits of tools running as a container's process, added up instead of passed on the clock. */
  readonly detachedWaits: DetachedWaits;
  tick(ms: number): void;
}

export interface ToolContext {
  readonly cluster: ToolHost;
  readonly source: Source;
  readonly pod?: Pod;
  readonly profile?: ImageProfile;
  /** The image's version as its tag says (`latest` → the catalogue's current version). */
  readonly imageVersion?: string;
  /** Set in a `kubectl debug node/…` or node shell. */
  readonly node?: string;
}

export function podToolContext(
  cluster: ToolHost,
  pod: Pod,
  container: string,
  profile: ImageProfile,
): ToolContext {
  const c = pod.spec?.containers?.find((x) => x.name === container);
  const resolved = resolveImage(c?.image ?? '');
  return {
    cluster,
    source: {
      kind: 'pod',
      namespace: pod.metadata.namespace ?? 'default',
      name: pod.metadata.name,
      container,
    },
    pod,
    profile,
    ...(resolved.kind === 'ok' ? { imageVersion: imageVersion(resolved) } : {}),
  };
}

export function nodeToolContext(cluster: ToolHost, node: string): ToolContext {
  return { cluster, source: { kind: 'node', node }, node };
}

export function hostToolContext(cluster: ToolHost): ToolContext {
  return { cluster, source: { kind: 'external' } };
}

/** BusyBox applets (busybox, alpine and images built on them) word everything their own way. */
export function isBusybox(ctx: ToolContext): boolean {
  return ctx.profile?.tools.includes('ash') === true && !ctx.profile.tools.includes('dig');
}

/**
 * Time waited by tools running as a container's process, which the kubelet starts inside a sync.
 * Only set while such a run is under way (a stack, for a tool that runs another), so it is empty
 * between commands and has nothing for the snapshot to keep.
 */
export class DetachedWaits {
  private current: { ms: number } | undefined;

  /**
   * Runs `fn` with its tools' waits added up instead of passed on the clock: a container's main process
   * starts inside the kubelet's sync, where the clock cannot move; the container ends that much later.
   */
  run<T>(fn: () => T): { value: T; elapsedMs: number } {
    const outer = this.current;
    const mine = { ms: 0 };
    this.current = mine;
    try {
      return { value: fn(), elapsedMs: mine.ms };
    } finally {
      this.current = outer;
    }
  }

  /** Adds `ms` to the run under way; false when none is (the caller moves the clock instead). */
  add(ms: number): boolean {
    if (!this.current) return false;
    this.current.ms += ms;
    return true;
  }
}

/** Lets simulated time pass while a tool waits (timeouts, retries). */
export function wait(ctx: ToolContext, ms: number): void {
  if (ms <= 0) return;
  if (!ctx.cluster.detachedWaits.add(Math.round(ms))) ctx.cluster.tick(Math.round(ms));
}

export function repositoryOf(ctx: ToolContext): string {
  return ctx.profile?.repository ?? '';
}
