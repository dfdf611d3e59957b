/**
 * Service validation with kube-apiserver's messages (k8s.io/kubernetes
 * `pkg/apis/core/validation/validation.go`: `ValidateService`, `validateServicePort`,
 * `validateServiceExternalTrafficPolicy`, `validateUpgradeDowngradeClusterIPs`).
 */
import {
  duplicate,
  forbidden,
  goStruct,
  invalidValue,
  notSupported,
  required,
  type FieldError,
} from './field-errors.ts';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  portNameErrors,
  portNumErrors,
  validateLabels,
} from './name-validation.ts';
import { isPlainObject } from '../util/json.ts';

type Obj = Record<string, unknown>;
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const AFFINITIES = ['ClientIP', 'None'];
/** core.MaxClientIPServiceAffinitySeconds: a day. */
const MAX_CLIENT_IP_AFFINITY_SECONDS = 86400;

/** `validateClientIPAffinityConfig` and the None case of `ValidateService`. */
function sessionAffinityConfigErrors(s: Obj): FieldError[] {
  const at = 'spec.sessionAffinityConfig';
  if (s.sessionAffinity === 'None') {
    return s.sessionAffinityConfig === undefined || s.sessionAffinityConfig === null
      ? []
      : [forbidden(at, 'must not be set when session affinity is None')];
  }
  if (s.sessionAffinity !== 'ClientIP') return [];
  const when = 'when session affinity type is ClientIP';
  if (!isPlainObject(s.sessionAffinityConfig)) return [required(at, when)];
  const clientIP = s.sessionAffinityConfig.clientIP;
  if (!isPlainObject(clientIP)) return [required(`${at}.clientIP`, when)];
  const timeout = clientIP.timeoutSeconds;
  if (typeof timeout !== 'number') return [required(`${at}.clientIP.timeoutSeconds`, when)];
  if (timeout <= 0 || timeout > MAX_CLIENT_IP_AFFINITY_SECONDS) {
    const msg = `must be greater than 0 and less than ${MAX_CLIENT_IP_AFFINITY_SECONDS}`;
    return [invalidValue(`${at}.clientIP.timeoutSeconds`, timeout, msg)];
  }
  return [];
}
const TRAFFIC_POLICIES = ['Cluster', 'Local'];
const FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];

const isHeadless = (s: Obj) => s.clusterIP === 'None';
/** `apiservice.ExternallyAccessible`. */
const externallyAccessible = (s: Obj) =>
  s.type === 'LoadBalancer' ||
  s.type === 'NodePort' ||
  (s.type === 'ClusterIP' && Array.isArray(s.externalIPs) && s.externalIPs.length > 0);

/**
 * How the API server renders the duplicate-port key, an internal `core.ServicePort` without JSON tags
 * (field errors marshal complex bad values to JSON since apimachinery v0.31).
 */
function internalServicePortKey(protocol: string, port: unknown): Obj {
  return goStruct({
    Name: '',
    Protocol: protocol,
    AppProtocol: null,
    Port: port,
    TargetPort: 0,
    NodePort: 0,
  });
}

export function validateServiceSpec(spec: unknown): FieldError[] {
  const s = isPlainObject(spec) ? spec : {};
  const errs: FieldError[] = [];
  const type = str(s.type);
  const ports = list(s.ports);
  // Order of ValidateService: ports required, type-specific checks, each port, selector, session
  // affinity, type, ClusterIP nodePorts, duplicate nodePorts, duplicate ports, traffic policies.
  if (type !== 'ExternalName' && ports.length === 0 && !isHeadless(s)) errs.push(required('spec.ports'));
  if (type === 'ExternalName') {
    const clusterIPs = Array.isArray(s.clusterIPs) ? s.clusterIPs : s.clusterIP ? [s.clusterIP] : [];
    if (clusterIPs.length > 0)
      errs.push(forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
    const name = str(s.externalName).replace(/\.$/, '');
    if (!name) errs.push(required('spec.externalName'));
    else {
      for (const msg of isDNS1123Subdomain(name)) errs.push(invalidValue('spec.externalName', name, msg));
    }
  }
  const names = new Set<string>();
  const keys = new Set<string>();
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    const at = `spec.ports[${i}]`;
    const name = str(p.name);
    if (ports.length > 1 && name === '') errs.push(required(`${at}.name`));
    else if (name !== '') {
      for (const msg of isDNS1123Label(name)) errs.push(invalidValue(`${at}.name`, name, msg));
      if (names.has(name)) errs.push(duplicate(`${at}.name`, name));
      else names.add(name);
    }
    const port = typeof p.port === 'number' ? p.port : 0;
    for (const msg of portNumErrors(port)) errs.push(invalidValue(`${at}.port`, port, msg));
    const protocol = str(p.protocol);
    if (!protocol) errs.push(required(`${at}.protocol`));
    else if (!PROTOCOLS.includes(protocol)) errs.push(notSupported(`${at}.protocol`, protocol, PROTOCOLS));
    // ValidatePortNumOrName.
    if (typeof p.targetPort === 'number') {
      for (const msg of portNumErrors(p.targetPort))
        errs.push(invalidValue(`${at}.targetPort`, p.targetPort, msg));
    } else if (typeof p.targetPort === 'string') {
      for (const msg of portNameErrors(p.targetPort))
        errs.push(invalidValue(`${at}.targetPort`, p.targetPort, msg));
    }
  });
  errs.push(...validateLabels(s.selector, 'spec.selector'));
  if (s.sessionAffinity !== undefined && !AFFINITIES.includes(str(s.sessionAffinity))) {
    errs.push(notSupported('spec.sessionAffinity', s.sessionAffinity, AFFINITIES));
  }
  errs.push(...sessionAffinityConfigErrors(s));
  if (!SERVICE_TYPES.includes(type)) errs.push(notSupported('spec.type', s.type ?? '', SERVICE_TYPES));
  if (type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (typeof p.nodePort === 'number' && p.nodePort !== 0) {
        errs.push(forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
      }
    });
  }
  ports.forEach((p, i) => {
    if (typeof p.nodePort !== 'number' || p.nodePort === 0) return;
    const npKey = `${str(p.protocol)}/${p.nodePort}`;
    if (nodePorts.has(npKey)) errs.push(duplicate(`spec.ports[${i}].nodePort`, p.nodePort));
    nodePorts.add(npKey);
  });
  ports.forEach((p, i) => {
    const port = typeof p.port === 'number' ? p.port : 0;
    const key = `${str(p.protocol)}/${String(port)}`;
    if (keys.has(key))
      errs.push(duplicate(`spec.ports[${i}]`, internalServicePortKey(str(p.protocol), port)));
    keys.add(key);
  });
  if (
    type !== 'ExternalName' &&
    s.ipFamilyPolicy !== undefined &&
    !FAMILY_POLICIES.includes(str(s.ipFamilyPolicy))
  ) {
    errs.push(notSupported('spec.ipFamilyPolicy', s.ipFamilyPolicy, FAMILY_POLICIES));
  }
  // validateServiceExternalTrafficPolicy.
  if (externallyAccessible(s)) {
    if (!s.externalTrafficPolicy) errs.push(required('spec.externalTrafficPolicy'));
    else if (!TRAFFIC_POLICIES.includes(str(s.externalTrafficPolicy))) {
      errs.push(notSupported('spec.externalTrafficPolicy', s.externalTrafficPolicy, TRAFFIC_POLICIES));
    }
  } else if (s.externalTrafficPolicy !== undefined && s.externalTrafficPolicy !== '') {
    errs.push(
      invalidValue(
        'spec.externalTrafficPolicy',
        s.externalTrafficPolicy,
        'may only be set for externally-accessible services',
      ),
    );
  }
  if (typeof s.healthCheckNodePort === 'number' && s.healthCheckNodePort !== 0) {
    if (!(type === 'LoadBalancer' && s.externalTrafficPolicy === 'Local')) {
      errs.push(
        invalidValue(
          'spec.healthCheckNodePort',
          s.healthCheckNodePort,
          "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
        ),
      );
    }
  }
  if (s.internalTrafficPolicy === undefined) {
    if (['ClusterIP', 'NodePort', 'LoadBalancer'].includes(type))
      errs.push(required('spec.internalTrafficPolicy'));
  } else if (type !== 'ExternalName') {
    if (!TRAFFIC_POLICIES.includes(str(s.internalTrafficPolicy))) {
      errs.push(notSupported('spec.internalTrafficPolicy', s.internalTrafficPolicy, TRAFFIC_POLICIES));
    }
  }
  if (type !== 'LoadBalancer' && s.allocateLoadBalancerNodePorts !== undefined) {
    errs.push(
      forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"),
    );
  }
  return errs;
}

/** `validateUpgradeDowngradeClusterIPs` for single-stack clusters: the primary ClusterIP never changes. */
export function validateServiceUpdate(next: unknown, old: unknown): FieldError[] {
  const s = isPlainObject(next) ? next : {};
  const o = isPlainObject(old) ? old : {};
  if (s.type === 'ExternalName' || o.type === 'ExternalName') return [];
  const newIPs = Array.isArray(s.clusterIPs) ? (s.clusterIPs as unknown[]) : [];
  const oldIPs = Array.isArray(o.clusterIPs) ? (o.clusterIPs as unknown[]) : [];
  if (newIPs[0] === 'None' && oldIPs[0] === 'None') return [];
  if (newIPs.length === 0 && oldIPs.length > 0)
    return [invalidValue('spec.clusterIPs[0]', newIPs, 'primary clusterIP can not be unset')];
  if (oldIPs.length > 0 && newIPs[0] !== oldIPs[0])
    return [invalidValue('spec.clusterIPs[0]', newIPs, 'may not change once set')];
  return [];
}
