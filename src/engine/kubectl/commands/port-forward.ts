/**
 * `kubectl port-forward TYPE/NAME [LOCAL:]REMOTE…` (pkg/cmd/portforward). It forwards to ONE pod —
 * for a Service, one pod its selector picks, with the Service port translated to that pod's
 * targetPort — through the API server and kubelet, never through the ClusterIP or kube-proxy. The
 * real command blocks; here the forward is registered and stays active, so a later
 * `curl localhost:8080` on the learner's host reaches the pod. The shell and the dataplane read the
 * registry with `activePortForwards(cluster)`.
 */
import type { Pod, Service } from '../../api/objects.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError, usageError } from '../errors.ts';
import type { KubectlHost } from '../host.ts';
import { mostActive, resolvePodTarget } from './pod-target.ts';

export interface PortForward {
  /** `127.0.0.1`, `::1`, or what `--address` named. */
  readonly addresses: readonly string[];
  readonly localPort: number;
  readonly namespace: string;
  readonly pod: string;
  readonly podPort: number;
}

const REGISTRY = new WeakMap<object, PortForward[]>();

/** Port-forwards started in this cluster, oldest first. */
export function activePortForwards(cluster: KubectlHost | object): readonly PortForward[] {
  return REGISTRY.get(cluster) ?? [];
}

/** Ends the forwards of a pod (the real one exits when its pod goes away). */
export function stopPortForwards(cluster: object, predicate: (f: PortForward) => boolean = () => true): void {
  const list = REGISTRY.get(cluster);
  if (list)
    REGISTRY.set(
      cluster,
      list.filter((f) => !predicate(f)),
    );
}

function containerPortByName(pod: Pod, name: string): number | undefined {
  for (const c of pod.spec?.containers ?? [])
    for (const p of c.ports ?? []) if (p.name === name) return p.containerPort;
  return undefined;
}

export function runPortForward(ctx: KubectlContext): number {
  const args = ctx.flags.args;
  if (args.length < 2)
    throw usageError(ctx.commandPath, 'TYPE/NAME and list of ports are required for port-forward');
  const target = args[0]!;
  const { pod } = resolvePodTarget(ctx, target, mostActive, 'attach');
  const svc =
    target.includes('/') && /^(svc|service|services)\//i.test(target)
      ? (ctx.host.api.get('services', ctx.namespace, target.slice(target.indexOf('/') + 1)) as
          | Service
          | undefined)
      : undefined;
  if (pod.status?.phase !== 'Running') {
    throw cmdError(
      `unable to forward port because pod is not running. Current status=${pod.status?.phase ?? 'Pending'}`,
    );
  }
  const addresses = ctx.flags
    .array('address')
    .flatMap((a) => (a === 'localhost' ? ['127.0.0.1', '::1'] : [a]));
  const list = [...(REGISTRY.get(ctx.host) ?? [])];
  const added: PortForward[] = [];
  for (const spec of args.slice(1)) {
    const parts = spec.split(':');
    if (parts.length > 2) throw cmdError(`invalid port format '${spec}'`);
    const localText = parts.length === 2 ? parts[0]! : parts[0]!;
    const remoteText = parts.length === 2 ? parts[1]! : parts[0]!;
    let remote: number | undefined;
    if (svc) {
      const sp = (svc.spec?.ports ?? []).find((p) => String(p.port) === remoteText || p.name === remoteText);
      if (!sp) throw cmdError(`Service ${svc.metadata.name} does not have a service port ${remoteText}`);
      const tp = sp.targetPort ?? sp.port;
      remote =
        typeof tp === 'number'
          ? tp
          : /^\d+$/.test(String(tp))
            ? Number(tp)
            : containerPortByName(pod, String(tp));
      if (remote === undefined)
        throw cmdError(`Pod '${pod.metadata.name}' does not have a named port '${String(tp)}'`);
    } else if (/^\d+$/.test(remoteText)) {
      remote = Number(remoteText);
    } else {
      remote = containerPortByName(pod, remoteText);
      if (remote === undefined)
        throw cmdError(`Pod '${pod.metadata.name}' does not have a named port '${remoteText}'`);
    }
    if (!/^\d*$/.test(localText) || Number(localText) > 65535 || remote < 1 || remote > 65535)
      throw cmdError(`Error parsing local port '${localText}': invalid port`);
    const local = localText === '' ? remote : Number(localText);
    if (list.some((f) => f.localPort === local) || added.some((f) => f.localPort === local)) {
      const errs = addresses.map(
        (a) =>
          `unable to create listener: Error listen ${a.includes(':') ? 'tcp6' : 'tcp4'} ${a.includes(':') ? `[${a}]` : a}:${local}: bind: address already in use`,
      );
      ctx.err(
        `Unable to listen on port ${local}: Listeners failed to create with the following errors: [${errs.join(' ')}]\n`,
      );
      throw cmdError(`unable to listen on any of the requested ports: [{${local} ${remote}}]`);
    }
    for (const a of addresses)
      ctx.out(`Forwarding from ${a.includes(':') ? `[${a}]` : a}:${local} -> ${remote}\n`);
    added.push({
      addresses,
      localPort: local,
      namespace: pod.metadata.namespace ?? 'default',
      pod: pod.metadata.name,
      podPort: remote,
    });
  }
  REGISTRY.set(ctx.host, [...list, ...added]);
  return 0;
}
