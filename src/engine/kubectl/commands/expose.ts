/**
 * `kubectl expose` (pkg/cmd/expose): a Service for a Deployment, ReplicaSet, Pod or Service, selecting
 * what the object selects (a Pod: its labels), with ports from `--port`/`--target-port` or taken from
 * the containers (`port-1`, `port-2`… when several); labels copied from the object; prints
 * `service/web exposed`.
 */
import type { AnyObject, Deployment, Manifest, Pod, Service, core } from '../../api/objects.ts';
import { notFound } from '../../api/errors.ts';
import type { KubectlContext } from '../context.ts';
import { cmdError, KubectlError, usageError } from '../errors.ts';
import { mustResolve, parseResourceArgs } from '../resource-args.ts';
import { createObject, dryRunMode, printOutcome } from './write.ts';
import { withOverrides } from './overrides.ts';
import { addLastApplied } from './create.ts';
import { NO_RESOURCES } from './targets.ts';

function selectorOf(obj: AnyObject): Record<string, string> | undefined {
  switch (obj.kind) {
    case 'Pod':
      return obj.metadata.labels;
    case 'Service':
      return (obj as Service).spec?.selector;
    default: {
      const sel = (obj as Deployment).spec?.selector;
      if ((sel?.matchExpressions ?? []).length > 0) {
        throw cmdError(
          `couldn't convert expressions - "${sel!.matchExpressions![0]!.key}" to map-based selector format`,
        );
      }
      return sel?.matchLabels;
    }
  }
}

/** The expose generator's `ParseLabels` (for --selector and --labels): `k=v,k2=v2`, nothing else. */
function parseLabelSpec(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const spec of text.split(',')) {
    const kv = spec.split('=');
    if (kv.length !== 2) throw cmdError(`unexpected label spec: ${spec}`);
    if (kv[0] === '') throw cmdError('unexpected empty label key');
    out[kv[0]!] = kv[1]!;
  }
  return out;
}

function containerPorts(obj: AnyObject): core.ContainerPort[] {
  const spec = obj.kind === 'Pod' ? (obj as Pod).spec : (obj as Deployment).spec?.template?.spec;
  return (spec?.containers ?? []).flatMap((c) => c.ports ?? []);
}

export function runExpose(ctx: KubectlContext): number {
  const f = ctx.flags;
  if (f.args.length === 0) throw new KubectlError(NO_RESOURCES);
  const refs = parseResourceArgs(f.args);
  const ref = refs[0]!;
  if (ref.name === undefined) throw cmdError('resource(s) were provided, but no name was specified');
  if (
    !['pods', 'services', 'deployments.apps', 'replicasets.apps', 'replicationcontrollers'].includes(
      ref.info.key,
    )
  ) {
    throw cmdError(`cannot expose a ${ref.info.kind}`);
  }
  const obj = ctx.host.api.get(ref.info.key, ctx.namespace, ref.name) as AnyObject | undefined;
  if (!obj) throw notFound(ref.info.key, ref.name);
  const mode = dryRunMode(ctx);
  const selectorText = f.string('selector');
  const selector = selectorText ? parseLabelSpec(selectorText) : selectorOf(obj);
  if (!selector || Object.keys(selector).length === 0) {
    throw cmdError(
      `couldn't retrieve selectors via --selector flag or introspection: the ${ref.info.kind.toLowerCase()} has no labels`,
    );
  }
  const protocol = f.string('protocol') || 'TCP';
  const targetPortText = f.string('target-port');
  const targetPort =
    targetPortText === ''
      ? undefined
      : /^\d+$/.test(targetPortText)
        ? Number(targetPortText)
        : targetPortText;
  let ports: Record<string, unknown>[];
  const portText = f.string('port');
  if (portText !== '') {
    if (!/^\d+$/.test(portText)) throw cmdError(`strconv.Atoi: parsing "${portText}": invalid syntax`);
    ports = [{ protocol, port: Number(portText), targetPort: targetPort ?? Number(portText) }];
  } else if (obj.kind === 'Service') {
    ports = ((obj as Service).spec?.ports ?? []).map((p, i, all) => ({
      ...(all.length > 1 ? { name: `port-${i + 1}` } : {}),
      protocol: p.protocol ?? 'TCP',
      port: p.port,
      targetPort: targetPort ?? p.targetPort ?? p.port,
    }));
  } else {
    const cports = containerPorts(obj);
    ports = cports.map((p, i) => ({
      ...(cports.length > 1 ? { name: `port-${i + 1}` } : {}),
      protocol: f.string('protocol') || p.protocol || 'TCP',
      port: p.containerPort,
      targetPort: targetPort ?? p.containerPort,
    }));
  }
  // A headless Service (`--cluster-ip=None`) may have no ports at all.
  if (ports.length === 0 && f.string('cluster-ip') !== 'None')
    throw usageError(ctx.commandPath, "couldn't find port via --port flag or introspection");
  const type = f.string('type');
  if (type && !['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'].includes(type)) {
    throw cmdError(`invalid service type: ${type}`);
  }
  const labels = f.string('labels') ? parseLabelSpec(f.string('labels')) : obj.metadata.labels;
  // The service generator: only the two affinities; a load balancer IP only for type LoadBalancer.
  const affinity = f.string('session-affinity');
  if (affinity !== '' && affinity !== 'None' && affinity !== 'ClientIP')
    throw cmdError(`unknown session affinity: ${affinity}`);
  const svc: Manifest = {
    kind: 'Service',
    apiVersion: 'v1',
    metadata: {
      name: f.string('name') || obj.metadata.name,
      ...(ctx.explicitNamespace ? { namespace: ctx.namespace } : {}),
      ...(labels ? { labels } : {}),
    },
    spec: {
      ...(ports.length > 0 ? { ports } : {}),
      selector,
      ...(f.string('cluster-ip') ? { clusterIP: f.string('cluster-ip') } : {}),
      ...(type ? { type } : {}),
      ...(f.string('external-ip') ? { externalIPs: [f.string('external-ip')] } : {}),
      ...(f.string('session-affinity') ? { sessionAffinity: f.string('session-affinity') } : {}),
      ...(type === 'LoadBalancer' && f.string('load-balancer-ip')
        ? { loadBalancerIP: f.string('load-balancer-ip') }
        : {}),
    },
    status: { loadBalancer: {} },
  };
  const generated = withOverrides(ctx, svc);
  if (mode === 'client') {
    printOutcome(ctx, generated, 'exposed', mode, true);
    return 0;
  }
  // expose.go records --save-config only for objects it sends (after the client dry-run return).
  if (f.bool('save-config')) addLastApplied(generated);
  printOutcome(ctx, createObject(ctx, generated, mode), 'exposed', mode);
  void mustResolve;
  return 0;
}
