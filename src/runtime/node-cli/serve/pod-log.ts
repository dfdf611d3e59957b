/**
 * GET pods/NAME/log: the kubelet's log of one container (kubelet `GetContainerLogs` through the API
 * server), with its query options. With `follow=true` the answer stays open: what the container
 * logs later is sent as the cluster's time moves, and the stream ends when the container stops
 * running or its pod goes away, as the kubelet's follow ends when the container exits.
 */
import type { AnyObject, Pod, ServedCluster } from '../../../engine/index.ts';
import type { ApiContext, ApiRequest, Reply } from './handler.ts';
import { badRequest } from './status.ts';

/** A followed log: the text so far, then `next` gives what was logged since (and whether it ended). */
export interface LogFollow {
  readonly text: string;
  next(cluster: ServedCluster): { readonly text: string; readonly done: boolean };
}

interface LogLine {
  readonly time: number;
  readonly text: string;
}

function nano(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
}

function running(pod: AnyObject, container: string): boolean {
  const status = pod.status as
    | { containerStatuses?: { name: string; state?: { running?: object } }[] }
    | undefined;
  return status?.containerStatuses?.find((c) => c.name === container)?.state?.running !== undefined;
}

export function podLog(ctx: ApiContext, req: ApiRequest, pod: AnyObject): Reply {
  const spec = (pod as { spec?: { containers?: { name: string }[]; initContainers?: { name: string }[] } })
    .spec;
  const names = (spec?.containers ?? []).map((c) => c.name);
  const inits = (spec?.initContainers ?? []).map((c) => c.name);
  let container = req.query.get('container') ?? '';
  if (container === '') {
    if (names.length !== 1)
      throw badRequest(
        `a container name must be specified for pod ${pod.metadata.name}, choose one of: [${names.join(' ')}]${inits.length ? ` or one of the init containers: [${inits.join(' ')}]` : ''}`,
      );
    container = names[0]!;
  }
  if (![...names, ...inits].includes(container))
    throw badRequest(`container ${container} is not valid for pod ${pod.metadata.name}`);
  const int = (name: string): number | undefined => {
    const v = req.query.get(name);
    if (v === null) return undefined;
    if (!/^-?\d+$/.test(v)) throw badRequest(`invalid value for ${name}: ${v}`);
    return Number(v);
  };
  const previous = req.query.get('previous') === 'true';
  const read = ctx.cluster.containerLog(pod as Pod, container, previous);
  if (!read.ok) throw badRequest(read.error);
  let lines: LogLine[] = [...read.lines];
  const now = ctx.cluster.now();
  const sinceSeconds = int('sinceSeconds');
  if (sinceSeconds !== undefined) lines = lines.filter((l) => l.time >= now - sinceSeconds * 1000);
  const sinceTime = req.query.get('sinceTime');
  if (sinceTime !== null) {
    const t = Date.parse(sinceTime);
    if (Number.isNaN(t)) throw badRequest(`invalid value for sinceTime: ${sinceTime}`);
    lines = lines.filter((l) => l.time >= t);
  }
  const tail = int('tailLines');
  if (tail !== undefined && tail >= 0) lines = tail === 0 ? [] : lines.slice(-tail);
  const stamps = req.query.get('timestamps') === 'true';
  const format = (ls: readonly LogLine[]) =>
    ls.map((l) => `${stamps ? `${nano(l.time)} ` : ''}${l.text}\n`).join('');
  let text = format(lines);
  const limit = int('limitBytes');
  if (limit !== undefined && limit > 0)
    text = Buffer.from(text)
      .subarray(0, limit)
      .toString('utf8')
      .replace(/\uFFFD$/, '');
  if (req.query.get('follow') !== 'true' || previous || limit !== undefined)
    return { kind: 'text', status: 200, text, contentType: 'text/plain' };
  return { kind: 'follow', follow: { text, next: followFrom(pod, container, read.lines.length, format) } };
}

/**
 * What a container logs after its first `sent` lines, read again on each call: the stream a
 * follow or an attach sends. It ends when the pod is gone or replaced, or the container stops running.
 */
export function followFrom(
  pod: AnyObject,
  container: string,
  sent: number,
  format: (lines: readonly LogLine[]) => string = (ls) => ls.map((l) => `${l.text}\n`).join(''),
): LogFollow['next'] {
  const namespace = pod.metadata.namespace ?? 'default';
  const name = pod.metadata.name;
  const uid = pod.metadata.uid;
  return (cluster) => {
    const now = cluster.api.get('pods', namespace, name) as AnyObject | undefined;
    if (!now || now.metadata.uid !== uid) return { text: '', done: true };
    const again = cluster.containerLog(now as Pod, container, false);
    // A shorter log is a new container instance: the one followed has exited.
    if (!again.ok || again.lines.length < sent) return { text: '', done: true };
    const fresh = again.lines.slice(sent);
    sent = again.lines.length;
    return { text: format(fresh), done: !running(now, container) };
  };
}

/** How many lines a container has logged so far (where an attach starts). */
export function loggedLines(cluster: ServedCluster, pod: AnyObject, container: string): number {
  const read = cluster.containerLog(pod as Pod, container, false);
  return read.ok ? read.lines.length : 0;
}
