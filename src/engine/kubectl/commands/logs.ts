/**
 * `kubectl logs` (pkg/cmd/logs): POD [CONTAINER] or TYPE/NAME, `-c`, `-p/--previous`, `--tail`,
 * `--timestamps`, `--all-containers`, `--all-pods`, `--prefix`, `--since`, `--since-time`,
 * `--limit-bytes`. `-f` prints what there is and returns (no streaming), with the real checks of
 * `--max-log-requests` and `--ignore-errors` when several streams are followed. Log text comes from the
 * container runtime as the kubelet would serve it.
 */
import type { Pod } from '../../api/objects.ts';
import { StatusError } from '../../api/errors.ts';
import { containerLogs as runtimeLogs } from '../../node/container-runtime.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError, KubectlError, usageError } from '../errors.ts';
import { matches } from '../../api/labels.ts';
import { checkListSelector, mustResolve, parseLabelSelector } from '../resource-args.ts';
import { parseRFC3339 } from './go-time.ts';
import { byLogging, pickContainer, resolvePodTarget } from './pod-target.ts';

const USAGE = `error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.
POD or TYPE/NAME is a required argument for the logs command
See 'kubectl logs -h' for help and examples`;

/** RFC3339Nano as the kubelet prefixes lines with `--timestamps`. */
function nano(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
}

interface StreamOptions {
  /** `--since-time`, parsed (ms since the epoch). */
  readonly sinceTime: number | undefined;
  /** TailLines: -1 for all (`-l` without `--tail` makes it 10). */
  readonly tail: number;
  readonly prefix: boolean;
}

function logsOf(ctx: KubectlContext, pod: Pod, container: string, opts: StreamOptions): string {
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
  // --since-time: the kubelet skips the lines stamped before it.
  const { sinceTime, tail } = opts;
  if (sinceTime !== undefined) lines = lines.filter((l) => l.time >= sinceTime);
  if (tail >= 0) lines = tail === 0 ? [] : lines.slice(-tail);
  const prefix = opts.prefix ? `[pod/${pod.metadata.name}/${container}] ` : '';
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

/**
 * kubectl v1.35's logs wraps a NotFound for its target (logs.go): `error: error from server
 * (NotFound): pods "x" not found in namespace "default"`, naming the namespace when that is missing.
 * Found by running the real kubectl against packetpath serve (test/cli/serve/differential.test.ts).
 */
function findTarget(ctx: KubectlContext, arg: string): ReturnType<typeof resolvePodTarget> {
  try {
    return resolvePodTarget(ctx, arg, byLogging, 'logs');
  } catch (e) {
    if (!(e instanceof StatusError) || e.reason !== 'NotFound') throw e;
    const missingNamespace = !ctx.host.api.get('namespaces', undefined, ctx.namespace);
    const what = missingNamespace ? `namespaces "${ctx.namespace}" not found` : e.message;
    throw cmdError(`error from server (NotFound): ${what} in namespace "${ctx.namespace}"`);
  }
}

/** One log stream kubectl requests (LogsForObject's map entries): a pod's container. */
interface LogRequest {
  readonly pod: Pod;
  readonly container: string;
}

/** logs.go `selectorTail`: with `-l` and no `--tail`, the last 10 lines of each container. */
const SELECTOR_TAIL = 10;

export function runLogs(ctx: KubectlContext): number {
  const f = ctx.flags;
  const args = f.args;
  const selector = f.string('selector');
  if ((args.length === 0 && selector === '') || args.length > 2) throw new KubectlError(USAGE);
  if (args.length === 1 && selector !== '')
    throw usageError(ctx.commandPath, 'only a selector (-l) or a POD name is allowed');
  // Complete → ToLogOptions: util.ParseRFC3339, Go's own parse error as is.
  let sinceTime: number | undefined;
  if (f.string('since-time') !== '') {
    const parsed = parseRFC3339(f.string('since-time'));
    if (!parsed.ok) throw cmdError(parsed.error);
    sinceTime = parsed.ms;
  }
  // logs.go Validate.
  if (sinceTime !== undefined && f.duration('since') !== 0)
    throw cmdError('at most one of `sinceTime` or `sinceSeconds` may be specified');
  const inline = args[1];
  const named = inline ?? f.string('container');
  if (f.bool('all-containers') && named !== '')
    throw cmdError(`--all-containers=true should not be specified with container name ${named}`);
  if (f.changed('container') && inline !== undefined)
    throw cmdError('only one of -c or an inline [CONTAINER] arg is allowed');
  if (f.int('limit-bytes') < 0) throw cmdError('--limit-bytes must be greater than 0');
  if (f.duration('since') < 0) throw cmdError('--since must be greater than 0');
  if (f.int('tail') < -1) throw cmdError('--tail must be greater than or equal to -1');
  const tail = selector !== '' && !f.changed('tail') ? SELECTOR_TAIL : f.int('tail');

  const requests = args.length === 0 ? selectorRequests(ctx, selector) : targetRequests(ctx, args[0]!, named);
  const opts = { sinceTime, tail, prefix: f.bool('prefix') || f.bool('all-pods') };
  // RunLogs: several streams followed at once go in parallel, within --max-log-requests.
  if (f.bool('follow') && requests.length > 1) {
    const max = f.int('max-log-requests');
    if (requests.length > max)
      throw cmdError(
        `you are attempting to follow ${requests.length} log streams, but maximum allowed concurrency is ${max}, use --max-log-requests to increase the limit`,
      );
    for (const r of requests) {
      try {
        ctx.out(logsOf(ctx, r.pod, r.container, opts));
      } catch (e) {
        // parallelConsumeRequest: with --ignore-errors the error goes into the merged stream, unprefixed.
        if (!f.bool('ignore-errors')) throw e;
        ctx.out(`error: ${e instanceof Error ? e.message : String(e)}\n`);
      }
    }
    return 0;
  }
  // sequentialConsumeRequest: the first failing stream ends the command. No streaming here: -f prints
  // what the container has logged so far and returns, as `get -w` prints the current list.
  for (const r of requests) ctx.out(logsOf(ctx, r.pod, r.container, opts));
  return 0;
}

/** Every container of a pod: init, regular, then ephemeral (LogsForObject with allContainers). */
function allContainerNames(pod: Pod): string[] {
  return [
    ...(pod.spec?.initContainers ?? []),
    ...(pod.spec?.containers ?? []),
    ...(pod.spec?.ephemeralContainers ?? []),
  ].map((c) => c.name);
}

function podRequests(ctx: KubectlContext, pod: Pod, named: string): LogRequest[] {
  if (ctx.flags.bool('all-containers'))
    return allContainerNames(pod).map((container) => ({ pod, container }));
  const container = named !== '' ? named : pickContainer(ctx, pod, '');
  if (!allContainerNames(pod).includes(container))
    throw cmdError(`container ${container} is not valid for pod ${pod.metadata.name}`);
  return [{ pod, container }];
}

/**
 * POD or TYPE/NAME: one pod (the first in ByLogging order, "Found 3 pods, using pod/…"), or with
 * `--all-pods` every pod the object selects.
 */
function targetRequests(ctx: KubectlContext, arg: string, named: string): LogRequest[] {
  const target = findTarget(ctx, arg);
  if (ctx.flags.bool('all-pods')) return target.pods.flatMap((p) => podRequests(ctx, p, named));
  if (target.candidates > 1)
    ctx.err(`Found ${target.candidates} pods, using pod/${target.pod.metadata.name}\n`);
  return podRequests(ctx, target.pod, named);
}

/**
 * `kubectl logs -l SELECTOR` (logs.go Complete + LogsForObject on a PodList): every matching pod's
 * default container, one after the other (the real order is a Go map's; here by pod name).
 */
function selectorRequests(ctx: KubectlContext, selectorText: string): LogRequest[] {
  const selector = parseLabelSelector(selectorText);
  checkListSelector(mustResolve('pods'), selector);
  const pods = (ctx.host.api.list('pods', ctx.namespace) as Pod[])
    .filter((p) => matches(selector, p.metadata.labels))
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  if (pods.length === 0) ctx.err(`No resources found in ${ctx.namespace} namespace.\n`);
  return pods.flatMap((p) => podRequests(ctx, p, ctx.flags.string('container')));
}
