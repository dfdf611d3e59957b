/**
 * Scheme defaulting: what kube-apiserver fills in while decoding, on create and on update alike, so
 * that `kubectl get -o yaml` shows it. Per kind, after upstream's `SetDefaults_*` functions and
 * `+default` markers (k8s.io/kubernetes `pkg/apis/{core,apps,networking,discovery}/v1/defaults.go`,
 * v1.35) and the Gateway API CRD schema defaults. Admission plugins' additions to pods (service
 * account token volume, tolerations, priority) are in `admission.ts`.
 */
import type { ResourceInfo } from '../api/resources.ts';
import { isPlainObject } from '../util/json.ts';
import type { ApiServerContext } from './apiserver.ts';
import type { DecodedObject } from './decode.ts';

type Obj = Record<string, unknown>;

/** Returns obj[key] as an object, creating `{}` when absent. */
function objectAt(obj: Obj, key: string): Obj {
  const v = obj[key];
  if (isPlainObject(v)) return v;
  const created: Obj = {};
  obj[key] = created;
  return created;
}

function listAt(obj: Obj, key: string): Obj[] {
  const v = obj[key];
  return Array.isArray(v) ? v.filter(isPlainObject) : [];
}

function setDefault(obj: Obj, key: string, value: unknown): void {
  if (obj[key] === undefined || obj[key] === '') obj[key] = value;
}

export function applyDefaults(info: ResourceInfo, object: DecodedObject, _ctx?: ApiServerContext): void {
  const obj = object as Obj;
  switch (info.key) {
    case 'pods':
      defaultPodSpec(objectAt(obj, 'spec'));
      defaultPod(objectAt(obj, 'spec'));
      break;
    case 'services':
      defaultService(objectAt(obj, 'spec'));
      break;
    case 'secrets':
      setDefault(obj, 'type', 'Opaque');
      break;
    case 'namespaces':
      // SetDefaults_Namespace: the immutable label NamespaceSelectors rely on.
      if (object.metadata.name)
        object.metadata.labels = {
          ...object.metadata.labels,
          'kubernetes.io/metadata.name': object.metadata.name,
        };
      setDefault(objectAt(obj, 'spec'), 'finalizers', ['kubernetes']);
      setDefault(objectAt(obj, 'status'), 'phase', 'Active');
      break;
    case 'endpoints':
      for (const subset of listAt(obj, 'subsets'))
        for (const port of listAt(subset, 'ports')) setDefault(port, 'protocol', 'TCP');
      break;
    case 'deployments.apps':
      defaultDeployment(objectAt(obj, 'spec'));
      break;
    case 'replicasets.apps': {
      const spec = objectAt(obj, 'spec');
      setDefault(spec, 'replicas', 1);
      defaultTemplate(spec);
      break;
    }
    case 'daemonsets.apps':
      defaultDaemonSet(objectAt(obj, 'spec'));
      break;
    case 'endpointslices.discovery.k8s.io':
      for (const port of listAt(obj, 'ports')) setDefault(port, 'protocol', 'TCP');
      break;
    case 'networkpolicies.networking.k8s.io':
      defaultNetworkPolicy(objectAt(obj, 'spec'));
      break;
    case 'httproutes.gateway.networking.k8s.io':
      defaultHTTPRoute(objectAt(obj, 'spec'));
      break;
    case 'ipaddresspools.metallb.io': {
      const spec = objectAt(obj, 'spec');
      setDefault(spec, 'autoAssign', true);
      setDefault(spec, 'avoidBuggyIPs', false);
      break;
    }
    default:
      break;
  }
}

/** SetDefaults_PodSpec + container, port and probe defaults: what templates get as well. */
export function defaultPodSpec(spec: Obj): void {
  setDefault(spec, 'dnsPolicy', 'ClusterFirst');
  setDefault(spec, 'restartPolicy', 'Always');
  if (!isPlainObject(spec.securityContext)) spec.securityContext = {};
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  setDefault(spec, 'schedulerName', 'default-scheduler');
  for (const c of [...listAt(spec, 'initContainers'), ...listAt(spec, 'containers')]) defaultContainer(c);
  for (const v of listAt(spec, 'volumes')) defaultVolume(v);
}

/** SetDefaults_Pod: only on Pod objects, never in templates (upstream issue 69445). */
function defaultPod(spec: Obj): void {
  for (const c of [...listAt(spec, 'initContainers'), ...listAt(spec, 'containers')]) {
    const resources = isPlainObject(c.resources) ? c.resources : undefined;
    if (resources && isPlainObject(resources.limits)) {
      const requests = objectAt(resources, 'requests');
      for (const [k, v] of Object.entries(resources.limits)) if (requests[k] === undefined) requests[k] = v;
    }
  }
  if (spec.enableServiceLinks === undefined) spec.enableServiceLinks = true;
  if (spec.hostNetwork === true) {
    for (const c of [...listAt(spec, 'initContainers'), ...listAt(spec, 'containers')]) {
      for (const p of listAt(c, 'ports')) if (!p.hostPort) p.hostPort = p.containerPort;
    }
  }
}

function defaultContainer(c: Obj): void {
  if (!c.imagePullPolicy)
    c.imagePullPolicy =
      imageTag(typeof c.image === 'string' ? c.image : '') === 'latest' ? 'Always' : 'IfNotPresent';
  setDefault(c, 'terminationMessagePath', '/dev/termination-log');
  setDefault(c, 'terminationMessagePolicy', 'File');
  // `resources` is a struct without omitempty: it is always printed, `{}` when empty.
  if (!isPlainObject(c.resources)) c.resources = {};
  for (const p of listAt(c, 'ports')) setDefault(p, 'protocol', 'TCP');
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    if (isPlainObject(c[probe])) defaultProbe(c[probe]);
  }
}

function defaultProbe(p: Obj): void {
  setDefault(p, 'timeoutSeconds', 1);
  setDefault(p, 'periodSeconds', 10);
  setDefault(p, 'successThreshold', 1);
  setDefault(p, 'failureThreshold', 3);
  if (isPlainObject(p.httpGet)) {
    setDefault(p.httpGet, 'path', '/');
    setDefault(p.httpGet, 'scheme', 'HTTP');
  }
}

function defaultVolume(v: Obj): void {
  const sources = Object.keys(v).filter((k) => k !== 'name');
  if (sources.length === 0) v.emptyDir = {};
  if (isPlainObject(v.secret)) setDefault(v.secret, 'defaultMode', 420);
  if (isPlainObject(v.configMap)) setDefault(v.configMap, 'defaultMode', 420);
  if (isPlainObject(v.downwardAPI)) setDefault(v.downwardAPI, 'defaultMode', 420);
  if (isPlainObject(v.projected)) setDefault(v.projected, 'defaultMode', 420);
  if (isPlainObject(v.hostPath)) setDefault(v.hostPath, 'type', '');
}

/**
 * The tag `parsers.ParseImageName` finds: `latest` when the reference has neither tag nor digest,
 * '' when it has only a digest.
 */
export function imageTag(image: string): string {
  const at = image.indexOf('@');
  const name = at >= 0 ? image.slice(0, at) : image;
  const lastSegment = name.slice(name.lastIndexOf('/') + 1);
  const colon = lastSegment.lastIndexOf(':');
  if (colon >= 0) return lastSegment.slice(colon + 1);
  return at >= 0 ? '' : 'latest';
}

function defaultService(spec: Obj): void {
  setDefault(spec, 'sessionAffinity', 'None');
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const cfg = isPlainObject(spec.sessionAffinityConfig) ? spec.sessionAffinityConfig : undefined;
    const clientIP = cfg && isPlainObject(cfg.clientIP) ? cfg.clientIP : undefined;
    if (clientIP?.timeoutSeconds === undefined)
      spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
  }
  setDefault(spec, 'type', 'ClusterIP');
  for (const p of listAt(spec, 'ports')) {
    setDefault(p, 'protocol', 'TCP');
    if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
  }
  // service.ExternallyAccessible: LoadBalancer, NodePort, or ClusterIP with externalIPs.
  const external =
    spec.type === 'LoadBalancer' ||
    spec.type === 'NodePort' ||
    (spec.type === 'ClusterIP' && Array.isArray(spec.externalIPs) && spec.externalIPs.length > 0);
  if (external) setDefault(spec, 'externalTrafficPolicy', 'Cluster');
  if (
    spec.internalTrafficPolicy === undefined &&
    ['NodePort', 'LoadBalancer', 'ClusterIP'].includes(spec.type as string)
  ) {
    spec.internalTrafficPolicy = 'Cluster';
  }
  if (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === undefined)
    spec.allocateLoadBalancerNodePorts = true;
}

function defaultTemplate(spec: Obj): void {
  const template = objectAt(spec, 'template');
  defaultPodSpec(objectAt(template, 'spec'));
}

function defaultDeployment(spec: Obj): void {
  setDefault(spec, 'replicas', 1);
  const strategy = objectAt(spec, 'strategy');
  setDefault(strategy, 'type', 'RollingUpdate');
  if (strategy.type === 'RollingUpdate') {
    const ru = objectAt(strategy, 'rollingUpdate');
    setDefault(ru, 'maxUnavailable', '25%');
    setDefault(ru, 'maxSurge', '25%');
  }
  setDefault(spec, 'revisionHistoryLimit', 10);
  setDefault(spec, 'progressDeadlineSeconds', 600);
  defaultTemplate(spec);
}

function defaultDaemonSet(spec: Obj): void {
  const strategy = objectAt(spec, 'updateStrategy');
  setDefault(strategy, 'type', 'RollingUpdate');
  if (strategy.type === 'RollingUpdate') {
    const ru = objectAt(strategy, 'rollingUpdate');
    setDefault(ru, 'maxUnavailable', 1);
    if (ru.maxSurge === undefined) ru.maxSurge = 0;
  }
  setDefault(spec, 'revisionHistoryLimit', 10);
  defaultTemplate(spec);
}

/**
 * networking/v1 `SetDefaults_NetworkPolicy`: Ingress always, Egress when egress rules exist (the API
 * doc quoted in kubernetes-facts.md §5); port protocol TCP.
 */
function defaultNetworkPolicy(spec: Obj): void {
  for (const rule of [...listAt(spec, 'ingress'), ...listAt(spec, 'egress')]) {
    for (const port of listAt(rule, 'ports')) setDefault(port, 'protocol', 'TCP');
  }
  if (spec.policyTypes === undefined || (Array.isArray(spec.policyTypes) && spec.policyTypes.length === 0)) {
    const types = ['Ingress'];
    if (Array.isArray(spec.egress) && spec.egress.length > 0) types.push('Egress');
    spec.policyTypes = types;
  }
}

/**
 * Gateway API CRD defaults (`httproute.yaml`): a rule without matches matches path prefix `/`;
 * `path.type` defaults to PathPrefix and `path.value` to `/`; backendRef weight 1, group '' and kind
 * Service; parentRef group and kind point at a Gateway.
 */
function defaultHTTPRoute(spec: Obj): void {
  for (const parent of listAt(spec, 'parentRefs')) {
    setDefault(parent, 'group', 'gateway.networking.k8s.io');
    setDefault(parent, 'kind', 'Gateway');
  }
  for (const rule of listAt(spec, 'rules')) {
    if (!Array.isArray(rule.matches) || rule.matches.length === 0)
      rule.matches = [{ path: { type: 'PathPrefix', value: '/' } }];
    for (const match of listAt(rule, 'matches')) {
      const path = objectAt(match, 'path');
      setDefault(path, 'type', 'PathPrefix');
      setDefault(path, 'value', '/');
    }
    for (const ref of listAt(rule, 'backendRefs')) {
      if (ref.group === undefined) ref.group = '';
      setDefault(ref, 'kind', 'Service');
      if (ref.weight === undefined) ref.weight = 1;
    }
  }
}
