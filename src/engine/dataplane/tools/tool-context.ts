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

/** Time waited by tools running as a container's process, which the kubelet starts inside a sync. */
const detached = new WeakMap<ToolHost, { ms: number }>();

/**
 * Runs `fn` with its tools' waits added up instead of passed on the clock: a container's main process
 * starts inside the kubelet's sync, where the clock cannot move; the container ends that much later.
 */
export function runDetached<T>(cluster: ToolHost, fn: () => T): { value: T; elapsedMs: number } {
  const outer = detached.get(cluster);
  const mine = { ms: 0 };
  detached.set(cluster, mine);
  try {
    return { value: fn(), elapsedMs: mine.ms };
  } finally {
    if (outer) detached.set(cluster, outer);
    else detached.delete(cluster);
  }
}

/** Lets simulated time pass while a tool waits (timeouts, retries). */
export function wait(ctx: ToolContext, ms: number): void {
  if (ms <= 0) return;
  const d = detached.get(ctx.cluster);
  if (d) d.ms += Math.round(ms);
  else ctx.cluster.tick(Math.round(ms));
}

export function repositoryOf(ctx: ToolContext): string {
  return ctx.profile?.repository ?? '';
}
