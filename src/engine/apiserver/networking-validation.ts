/**
 * NetworkPolicy and Ingress validation with kube-apiserver's messages (k8s.io/kubernetes
 * `pkg/apis/networking/validation/validation.go`: `ValidateNetworkPolicyPort` (endPort rules),
 * `ValidateNetworkPolicyPeer`, `ValidateIPBlock`, `ValidateIngressSpec`, `validateHTTPIngressPath`,
 * `validateIngressBackend`).
 */
import { forbidden, invalidValue, notSupported, required, type FieldError } from './field-errors.ts';
import {
  isDNS1035Label,
  isDNS1123Subdomain,
  portNameErrors,
  portNumErrors,
  validateLabelSelector,
} from './name-validation.ts';
import { parseCidr } from '../util/ip.ts';
import { isPlainObject } from '../util/json.ts';

type Obj = Record<string, unknown>;
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export function validateNetworkPolicySpec(spec: unknown): FieldError[] {
  const s = isPlainObject(spec) ? spec : {};
  const errs = validateLabelSelector(s.podSelector, 'spec.podSelector');
  list(s.ingress).forEach((rule, i) => {
    list(rule.ports).forEach((p, j) => errs.push(...validatePort(p, `spec.ingress[${i}].ports[${j}]`)));
    list(rule.from).forEach((p, j) => errs.push(...validatePeer(p, `spec.ingress[${i}].from[${j}]`)));
  });
  list(s.egress).forEach((rule, i) => {
    list(rule.ports).forEach((p, j) => errs.push(...validatePort(p, `spec.egress[${i}].ports[${j}]`)));
    list(rule.to).forEach((p, j) => errs.push(...validatePeer(p, `spec.egress[${i}].to[${j}]`)));
  });
  const types = Array.isArray(s.policyTypes) ? (s.policyTypes as unknown[]) : [];
  if (types.length > 2) {
    errs.push(invalidValue('spec.policyTypes', types, 'may not specify more than two policyTypes'));
    return errs;
  }
  types.forEach((t, i) => {
    if (t !== 'Ingress' && t !== 'Egress')
      errs.push(notSupported(`spec.policyTypes[${i}]`, t, ['Ingress', 'Egress']));
  });
  return errs;
}

/** Protocol order is upstream's literal list here, not sorted. */
function validatePort(p: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (p.protocol !== undefined && !['TCP', 'UDP', 'SCTP'].includes(str(p.protocol))) {
    errs.push(notSupported(`${path}.protocol`, p.protocol, ['TCP', 'UDP', 'SCTP']));
  }
  const endPort = p.endPort;
  if (typeof p.port === 'number') {
    for (const msg of portNumErrors(p.port)) errs.push(invalidValue(`${path}.port`, p.port, msg));
    if (typeof endPort === 'number') {
      // Upstream reports `port`'s value on the endPort field here.
      if (endPort < p.port)
        errs.push(invalidValue(`${path}.endPort`, p.port, 'must be greater than or equal to `port`'));
      for (const msg of portNumErrors(endPort)) errs.push(invalidValue(`${path}.endPort`, endPort, msg));
    }
  } else if (typeof p.port === 'string') {
    if (endPort !== undefined)
      errs.push(invalidValue(`${path}.endPort`, endPort, 'may not be specified when `port` is non-numeric'));
    for (const msg of portNameErrors(p.port)) errs.push(invalidValue(`${path}.port`, p.port, msg));
  } else if (endPort !== undefined) {
    errs.push(invalidValue(`${path}.endPort`, endPort, 'may not be specified when `port` is not specified'));
  }
  return errs;
}

function validatePeer(peer: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let peers = 0;
  if (isPlainObject(peer.podSelector)) {
    peers++;
    errs.push(...validateLabelSelector(peer.podSelector, `${path}.podSelector`));
  }
  if (isPlainObject(peer.namespaceSelector)) {
    peers++;
    errs.push(...validateLabelSelector(peer.namespaceSelector, `${path}.namespaceSelector`));
  }
  if (isPlainObject(peer.ipBlock)) {
    peers++;
    errs.push(...validateIPBlock(peer.ipBlock, `${path}.ipBlock`));
  }
  if (peers === 0) errs.push(required(path, 'must specify a peer'));
  else if (peers > 1 && isPlainObject(peer.ipBlock))
    errs.push(forbidden(path, 'may not specify both ipBlock and another peer'));
  return errs;
}

const CIDR_ERROR = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

function validateIPBlock(block: Obj, path: string): FieldError[] {
  const cidrText = str(block.cidr);
  if (!cidrText) return [required(`${path}.cidr`)];
  const cidr = parseCidr(cidrText);
  if (!cidr) return [invalidValue(`${path}.cidr`, cidrText, CIDR_ERROR)];
  const errs: FieldError[] = [];
  (Array.isArray(block.except) ? (block.except as unknown[]) : []).forEach((e, i) => {
    const text = str(e);
    const except = parseCidr(text);
    if (!except) {
      errs.push(invalidValue(`${path}.except[${i}]`, e, CIDR_ERROR));
      return;
    }
    const inside = (except.base & maskOf(cidr.prefix)) >>> 0 === cidr.base;
    if (!inside || cidr.prefix >= except.prefix)
      errs.push(invalidValue(`${path}.except[${i}]`, text, 'must be a strict subset of `cidr`'));
  });
  return errs;
}

function maskOf(prefix: number): number {
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_SUFFIXES = ['/..', '/.'];

export function validateIngressSpec(spec: unknown): FieldError[] {
  const s = isPlainObject(spec) ? spec : {};
  const errs: FieldError[] = [];
  const rules = list(s.rules);
  if (rules.length === 0 && !isPlainObject(s.defaultBackend)) {
    errs.push(invalidValue('spec', s.rules ?? null, 'either `defaultBackend` or `rules` must be specified'));
  }
  if (isPlainObject(s.defaultBackend)) errs.push(...validateBackend(s.defaultBackend, 'spec.defaultBackend'));
  rules.forEach((rule, i) => {
    const at = `spec.rules[${i}]`;
    const host = str(rule.host);
    if (host) {
      if (/^\d+\.\d+\.\d+\.\d+$/.test(host) || host.includes(':'))
        errs.push(invalidValue(`${at}.host`, host, 'must be a DNS name, not an IP address'));
      if (host.includes('*')) {
        if (!/^\*\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(host)) {
          errs.push(
            invalidValue(
              `${at}.host`,
              host,
              "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            ),
          );
        }
      } else for (const msg of isDNS1123Subdomain(host)) errs.push(invalidValue(`${at}.host`, host, msg));
    }
    if (isPlainObject(rule.http)) {
      const paths = list(rule.http.paths);
      if (paths.length === 0) errs.push(required(`${at}.http.paths`));
      paths.forEach((p, j) => errs.push(...validatePath(p, `${at}.http.paths[${j}]`)));
    }
  });
  if (typeof s.ingressClassName === 'string') {
    for (const msg of isDNS1123Subdomain(s.ingressClassName))
      errs.push(invalidValue('spec.ingressClassName', s.ingressClassName, msg));
  }
  return errs;
}

function validatePath(p: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (p.pathType === undefined) return [required(`${path}.pathType`, 'pathType must be specified')];
  const value = str(p.path);
  switch (p.pathType) {
    case 'Exact':
    case 'Prefix':
      if (!value.startsWith('/')) errs.push(invalidValue(`${path}.path`, value, 'must be an absolute path'));
      if (value.length > 0) {
        for (const seq of INVALID_SEQUENCES)
          if (value.includes(seq))
            errs.push(invalidValue(`${path}.path`, value, `must not contain '${seq}'`));
        for (const suf of INVALID_SUFFIXES)
          if (value.endsWith(suf)) errs.push(invalidValue(`${path}.path`, value, `cannot end with '${suf}'`));
      }
      break;
    case 'ImplementationSpecific':
      if (value.length > 0 && !value.startsWith('/'))
        errs.push(invalidValue(`${path}.path`, value, 'must be an absolute path'));
      break;
    default:
      errs.push(notSupported(`${path}.pathType`, p.pathType, PATH_TYPES));
  }
  errs.push(...validateBackend(isPlainObject(p.backend) ? p.backend : {}, `${path}.backend`));
  return errs;
}

function validateBackend(backend: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const service = isPlainObject(backend.service) ? backend.service : undefined;
  const resource = isPlainObject(backend.resource) ? backend.resource : undefined;
  if (service && resource) return [invalidValue(path, '', 'cannot set both resource and service backends')];
  if (resource) return errs;
  if (!service) return [invalidValue(path, '', 'resource or service backend is required')];
  const name = str(service.name);
  if (!name) errs.push(required(`${path}.service.name`));
  else for (const msg of isDNS1035Label(name)) errs.push(invalidValue(`${path}.service.name`, name, msg));
  const port = isPlainObject(service.port) ? service.port : {};
  const portName = str(port.name);
  const portNumber = typeof port.number === 'number' ? port.number : 0;
  if (portName && portNumber) errs.push(invalidValue(path, '', 'cannot set both port name & port number'));
  else if (portName)
    for (const msg of portNameErrors(portName))
      errs.push(invalidValue(`${path}.service.port.name`, portName, msg));
  else if (portNumber)
    for (const msg of portNumErrors(portNumber))
      errs.push(invalidValue(`${path}.service.port.number`, portNumber, msg));
  else errs.push(required(`${path}.service.port`, 'port name or number is required'));
  return errs;
}
