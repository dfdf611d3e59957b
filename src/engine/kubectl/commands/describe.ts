/**
 * `kubectl describe` (pkg/cmd/describe): TYPE [NAME_PREFIX], TYPE/NAME, -f, -l. A NAME that matches
 * nothing exactly describes every object whose name starts with it. Every object gets its Events
 * section (`--show-events` defaults to true); objects are separated as describe.go separates them.
 */
import type {
  AnyObject,
  ConfigMap,
  DaemonSet,
  Deployment,
  EndpointSlice,
  Endpoints,
  Event,
  Ingress,
  IngressClass,
  Namespace,
  NetworkPolicy,
  Node,
  Pod,
  ReplicaSet,
  Secret,
  Service,
  ServiceAccount,
} from '../../api/objects.ts';
import type { ResourceInfo } from '../../api/resources.ts';
import { notFound } from '../../api/errors.ts';
import type { KubectlContext } from '../context.ts';
import { KubectlError } from '../errors.ts';
import { readManifests } from '../manifests.ts';
import { fetchRefs, parseLabelSelector, parseResourceArgs, type Fetched } from '../resource-args.ts';
import {
  describeConfigMap,
  describeDaemonSet,
  describeDeployment,
  describeGeneric,
  describeNamespace,
  describeNode,
  describeReplicaSet,
  describeSecret,
  describeServiceAccount,
  podCounts,
} from '../describe/cluster.ts';
import {
  describeEndpointSlice,
  describeEndpoints,
  describeIngress,
  describeIngressClass,
  describeNetworkPolicy,
  describeService,
  formatEndpointSlices,
} from '../describe/network.ts';
import { describePod } from '../describe/pod.ts';
import { eventsFor } from '../describe/writer.ts';
import { reportErrors } from './create.ts';
import { refsFromManifests } from './file-refs.ts';
import { ENDPOINTS_WARNING } from './get.ts';

export function runDescribe(ctx: KubectlContext): number {
  const f = ctx.flags;
  const filenames = f.array('filename');
  if (f.args.length === 0 && filenames.length === 0) {
    throw new KubectlError(
      'error: You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.',
    );
  }
  const selector = parseLabelSelector(f.string('selector'));
  let found: Fetched[] = [];
  let errors: Error[] = [];
  let prefixMatched = false;
  if (filenames.length > 0) {
    const manifests = readManifests(ctx.host.files, filenames, ctx.io.stdin, f.bool('recursive'));
    for (const { ref, namespace } of refsFromManifests(ctx, manifests)) {
      const r = fetchRefs(ctx.host.api, [ref], { namespace, allNamespaces: false, selector: [] });
      found.push(...r.found);
      errors.push(...r.errors);
    }
  } else {
    const refs = parseResourceArgs(f.args);
    if (refs.some((r) => r.info.key === 'endpoints')) ctx.err(ENDPOINTS_WARNING);
    const r = fetchRefs(ctx.host.api, refs, {
      namespace: ctx.namespace,
      allNamespaces: ctx.allNamespaces,
      selector,
    });
    found = r.found;
    errors = r.errors;
    // DescribeMatchingResources: `describe pods web` also finds web-7d4b9c-x2x9k.
    if (errors.length > 0 && f.args.length === 2 && !f.args[0]!.includes('/')) {
      const info = refs[0]!.info;
      const prefix = f.args[1]!;
      const all = fetchRefs(ctx.host.api, [{ info }], {
        namespace: ctx.namespace,
        allNamespaces: false,
        selector: [],
      }).found;
      const matching = all.filter((x) => x.object.metadata.name.startsWith(prefix));
      if (matching.length > 0) {
        found = matching;
        errors = [];
        prefixMatched = true;
      } else if (info.namespaced && !ctx.host.api.get('namespaces', undefined, ctx.namespace)) {
        // kubectl v1.35 reports the missing namespace rather than the object.
        errors = [notFound('namespaces', ctx.namespace)];
      } else errors = [notFound(info.key, prefix)];
    }
  }
  // DescriberSettings.ShowEvents (default true) applies to every object described.
  const showEvents = f.bool('show-events');
  const texts = found.map((x) => describeObject(ctx, x.info, x.object, showEvents));
  // describe.go prints `"\n\n%s"` before every object after the first; DescribeMatchingResources
  // prints each prefix match as `"%s\n"`.
  ctx.out(prefixMatched ? texts.map((t) => `${t}\n`).join('') : texts.join('\n\n'));
  ctx.showed(found);
  if (found.length === 0 && errors.length === 0) {
    ctx.err(
      ctx.allNamespaces ? 'No resources found\n' : `No resources found in ${ctx.namespace} namespace.\n`,
    );
    if (filenames.length === 0) ctx.listedNone(parseResourceArgs(f.args).map((r) => r.info));
  }
  return reportErrors(ctx, errors);
}

function describeObject(
  ctx: KubectlContext,
  info: ResourceInfo,
  obj: AnyObject,
  showEvents: boolean,
): string {
  const api = ctx.host.api;
  const now = ctx.now();
  const ns = obj.metadata.namespace;
  const events: Event[] | undefined = showEvents
    ? eventsFor(api.list('events', ns) as Event[], obj)
    : undefined;
  const slicesOf = (namespace: string | undefined, service: string): EndpointSlice[] =>
    (api.list('endpointslices.discovery.k8s.io', namespace) as EndpointSlice[]).filter(
      (s) => s.metadata.labels?.['kubernetes.io/service-name'] === service,
    );
  switch (info.key) {
    case 'pods':
      return describePod(obj as Pod, events, now);
    case 'services':
      return describeService(obj as Service, slicesOf(ns, obj.metadata.name), events, now);
    case 'endpoints':
      return describeEndpoints(obj as Endpoints, events, now);
    case 'endpointslices.discovery.k8s.io':
      return describeEndpointSlice(obj as EndpointSlice, events, now);
    case 'networkpolicies.networking.k8s.io':
      return describeNetworkPolicy(obj as NetworkPolicy);
    case 'ingresses.networking.k8s.io':
      return describeIngress(obj as Ingress, events, now, {
        endpointsFor(namespace, service, port) {
          const svc = api.get('services', namespace, service) as Service | undefined;
          if (!svc) return `<error: services "${service}" not found>`;
          let portName = '';
          for (const sp of svc.spec?.ports ?? []) {
            if ((port.number && port.number === sp.port) || (port.name && port.name === sp.name))
              portName = sp.name ?? '';
          }
          return formatEndpointSlices(slicesOf(namespace, service), portName);
        },
      });
    case 'ingressclasses.networking.k8s.io':
      return describeIngressClass(obj as IngressClass, events, now);
    case 'deployments.apps': {
      const d = obj as Deployment;
      const owned = (api.list('replicasets.apps', ns) as ReplicaSet[]).filter((rs) =>
        rs.metadata.ownerReferences?.some((r) => r.controller && r.uid === d.metadata.uid),
      );
      const templateHash = (rs: ReplicaSet): string | undefined => rs.metadata.labels?.['pod-template-hash'];
      const newRS = owned
        .filter(
          (rs) =>
            rs.metadata.annotations?.['deployment.kubernetes.io/revision'] ===
            d.metadata.annotations?.['deployment.kubernetes.io/revision'],
        )
        .sort((a, b) => (templateHash(a) ?? '').localeCompare(templateHash(b) ?? ''))[0];
      const oldRSs = owned.filter((rs) => rs !== newRS && (rs.spec?.replicas ?? 0) > 0);
      return describeDeployment(d, oldRSs, newRS, events, now);
    }
    case 'replicasets.apps':
      return describeReplicaSet(
        obj as ReplicaSet,
        podCounts(api.list('pods', ns), obj.metadata.uid),
        events,
        now,
      );
    case 'daemonsets.apps':
      return describeDaemonSet(
        obj as DaemonSet,
        podCounts(api.list('pods', ns), obj.metadata.uid),
        events,
        now,
      );
    case 'namespaces':
      return describeNamespace(obj as Namespace);
    case 'configmaps':
      return describeConfigMap(obj as ConfigMap, events, now);
    case 'secrets':
      return describeSecret(obj as Secret);
    case 'serviceaccounts':
      return describeServiceAccount(obj as ServiceAccount, api.list('secrets', ns) as Secret[], events, now);
    case 'nodes': {
      const pods = (api.list('pods') as Pod[]).filter(
        (p) =>
          p.spec?.nodeName === obj.metadata.name &&
          p.status?.phase !== 'Succeeded' &&
          p.status?.phase !== 'Failed',
      );
      const nodeEvents = showEvents ? eventsFor(api.list('events', 'default') as Event[], obj) : undefined;
      return describeNode(obj as Node, pods, nodeEvents, now);
    }
    default:
      return describeGeneric(obj, events, now);
  }
}
