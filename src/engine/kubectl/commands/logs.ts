/**
 * `kubectl logs` (pkg/cmd/logs): POD [CONTAINER] or TYPE/NAME, `-c`, `-p/--previous`, `--tail`,
 * `--timestamps`, `--all-containers`, `--prefix`, `--since`, `--limit-bytes`. `-f` prints what there is and returns (no
 * streaming). Log text comes from the container runtime as the kubelet would serve it.
 */
import type { Pod } from '../../api/objects.ts';
import { StatusError } from '../../api/errors.ts';
import { containerLogs as runtimeLogs } from '../../node/container-runtime.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError, KubectlError } from '../errors.ts';
import { matches } from '../../api/labels.ts';
import { parseLabelSelector } from '../resource-args.ts';
import { byLogging, pickContainer, resolvePodTarget } from './pod-target.ts';

const USAGE = `error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.
POD or TYPE/NAME is a required argument for the logs command
See 'kubectl logs -h' for help and examples`;

/** RFC3339Nano as the kubelet prefixes lines with `--timestamps`. */
function nano(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
}

function logsOf(ctx: KubectlContext, pod: Pod, container: string): string {
  const f = ctx.flags;
  const previous = f.bool('previous');
  let lines: { time: number; text: string }[];
  const timed = ctx.hooks.containerLogLines?.(pod, container, { previous });
  const hooked = timed ? undefined : ctx.hooks.containerLogs?.(pod, container, { previous });
  if (timed !== undefined) {
    lines = timed;
  } else if (hooked !== undefined) {
    lines = hooked
      .split('\n')
      .filter((l, i, a) => !(l === '' && i === a.length - 1))
      .map((t) => ({ time: ctx.now(), text: t }));
  } else {
    // The runtime keeps each line's time (for --timestamps) and words the kubelet's errors.
    const r = runtimeLogs(pod, container, { previous, now: ctx.now() });
    if (!r.ok) throw new StatusError('BadRequest', r.error);
    lines = r.lines;
  }
  // --since: the kubelet serves lines from now - sinceSeconds on (logs.go rounds to whole seconds).
  const since = f.duration('since');
  if (since > 0) {
    const from = ctx.now() - Math.round(since / 1000) * 1000;
    lines = lines.filter((l) => l.time >= from);
  }
  const tail = f.int('tail');
  if (tail >= 0) lines = tail === 0 ? [] : lines.slice(-tail);
  const prefix = f.bool('prefix') ? `[pod/${pod.metadata.name}/${container}] ` : '';
  const text = lines
    .map((l) => `${prefix}${f.bool('timestamps') ? `${nano(l.time)} ` : ''}${l.text}\n`)
    .join('');
  // --limit-bytes: the kubelet stops the stream after that many bytes (mid-line if need be).
  const limit = f.int('limit-bytes');
  return limit > 0 ? truncateBytes(text, limit) : text;
}

function truncateBytes(text: string, limit: number): string {
  let used = 0;
  let end = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    const size = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    // A character cut in two would not decode; the stream stops before it.
    if (used + size > limit) break;
    used += size;
    end += ch.length;
  }
  return text.slice(0, end);
}

export function runLogs(ctx: KubectlContext): number {
  const f = ctx.flags;
  const args = f.args;
  if ((args.length === 0 && f.string('selector') === '') || args.length > 2) throw new KubectlError(USAGE);
  // logs.go Validate.
  if (f.string('since-time') !== '' && f.duration('since') !== 0)
    throw cmdError('at most one of `sinceTime` or `sinceSeconds` may be specified');
  if (f.duration('since') < 0) throw cmdError('--since must be greater than 0');
  let pod: Pod;
  if (args.length === 0) {
    return logsBySelector(ctx);
  } else {
    const target = resolvePodTarget(ctx, args[0]!, byLogging);
    pod = target.pod;
    if (target.candidates > 1) ctx.err(`Found ${target.candidates} pods, using pod/${pod.metadata.name}\n`);
  }
  if (f.bool('all-containers')) {
    for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])])
      ctx.out(logsOf(ctx, pod, c.name));
    return 0;
  }
  const container = args[1] ?? pickContainer(ctx, pod, f.string('container'));
  const known = [
    ...(pod.spec?.containers ?? []),
    ...(pod.spec?.initContainers ?? []),
    ...(pod.spec?.ephemeralContainers ?? []),
  ];
  if (!known.some((c) => c.name === container))
    throw cmdError(`container ${container} is not valid for pod ${pod.metadata.name}`);
  ctx.out(logsOf(ctx, pod, container));
  return 0;
}

/**
 * `kubectl logs -l SELECTOR` (logs.go Complete + LogsForObject on a PodList): every matching pod's
 * default container, one after the other (the real order is a Go map's; here by pod name).
 */
function logsBySelector(ctx: KubectlContext): number {
  const f = ctx.flags;
  const selector = parseLabelSelector(f.string('selector'));
  const pods = (ctx.host.api.list('pods', ctx.namespace) as Pod[])
    .filter((p) => matches(selector, p.metadata.labels))
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  if (pods.length === 0) {
    ctx.err(`No resources found in ${ctx.namespace} namespace.\n`);
    return 0;
  }
  for (const pod of pods) {
    const containers = f.bool('all-containers')
      ? [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c) => c.name)
      : [pickContainer(ctx, pod, f.string('container'))];
    for (const c of containers) ctx.out(logsOf(ctx, pod, c));
  }
  return 0;
}
