/**
 * Pod spec validation with kube-apiserver's messages (k8s.io/kubernetes
 * `pkg/apis/core/validation/validation.go`: `ValidatePodSpec`, `validateContainers`,
 * `validateContainerPorts`). Used for Pods and for the templates of Deployments, ReplicaSets and
 * DaemonSets. Covers what a networking course exercises; volumes, probes' handlers, security contexts
 * and resources are checked only for the shapes the engine relies on.
 */
import { duplicate, invalidValue, notSupported, required, type FieldError } from './field-errors.ts';
import { isDNS1123Label, portNameErrors, portNumErrors, validateLabels } from './name-validation.ts';
import { isPlainObject } from '../util/json.ts';

type Obj = Record<string, unknown>;

const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** `sets.List(...)` order: sorted. */
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const RESTART_POLICIES = ['Always', 'Never', 'OnFailure'];
const DNS_POLICIES = ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];

export function validatePodSpec(spec: unknown, path: string): FieldError[] {
  const s = isPlainObject(spec) ? spec : {};
  const errs: FieldError[] = [];
  const volumeNames = new Set<string>();
  list(s.volumes).forEach((v, i) => {
    const name = str(v.name);
    if (!name) errs.push(required(`${path}.volumes[${i}].name`));
    else {
      for (const msg of isDNS1123Label(name))
        errs.push(invalidValue(`${path}.volumes[${i}].name`, name, msg));
      if (volumeNames.has(name)) errs.push(duplicate(`${path}.volumes[${i}].name`, name));
      volumeNames.add(name);
    }
  });
  const containers = list(s.containers);
  if (containers.length === 0) errs.push(required(`${path}.containers`));
  const names = new Set<string>();
  list(s.initContainers).forEach((c, i) =>
    errs.push(...validateContainer(c, `${path}.initContainers[${i}]`, names, volumeNames)),
  );
  containers.forEach((c, i) =>
    errs.push(...validateContainer(c, `${path}.containers[${i}]`, names, volumeNames)),
  );
  if (s.restartPolicy !== undefined && !RESTART_POLICIES.includes(str(s.restartPolicy))) {
    errs.push(notSupported(`${path}.restartPolicy`, s.restartPolicy, RESTART_POLICIES));
  }
  if (s.dnsPolicy !== undefined && !DNS_POLICIES.includes(str(s.dnsPolicy))) {
    errs.push(notSupported(`${path}.dnsPolicy`, s.dnsPolicy, DNS_POLICIES));
  }
  if (s.dnsPolicy === 'None' && !isPlainObject(s.dnsConfig)) {
    errs.push(required(`${path}.dnsConfig`, 'must provide `dnsConfig` when `dnsPolicy` is None'));
  }
  errs.push(...validateLabels(s.nodeSelector, `${path}.nodeSelector`));
  if (typeof s.terminationGracePeriodSeconds === 'number' && s.terminationGracePeriodSeconds < 0) {
    errs.push(
      invalidValue(
        `${path}.terminationGracePeriodSeconds`,
        s.terminationGracePeriodSeconds,
        'must be greater than or equal to 0',
      ),
    );
  }
  if (typeof s.hostname === 'string' && s.hostname !== '') {
    for (const msg of isDNS1123Label(s.hostname))
      errs.push(invalidValue(`${path}.hostname`, s.hostname, msg));
  }
  if (typeof s.subdomain === 'string' && s.subdomain !== '') {
    for (const msg of isDNS1123Label(s.subdomain))
      errs.push(invalidValue(`${path}.subdomain`, s.subdomain, msg));
  }
  return errs;
}

function validateContainer(
  c: Obj,
  path: string,
  names: Set<string>,
  volumes: ReadonlySet<string>,
): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(c.name);
  if (!name) errs.push(required(`${path}.name`));
  else {
    for (const msg of isDNS1123Label(name)) errs.push(invalidValue(`${path}.name`, name, msg));
    if (names.has(name)) errs.push(duplicate(`${path}.name`, name));
    names.add(name);
  }
  // validateContainerCommon: image must be set and have no surrounding whitespace.
  const image = str(c.image);
  if (!image) errs.push(required(`${path}.image`));
  else if (image.trim() !== image)
    errs.push(invalidValue(`${path}.image`, image, 'must not have leading or trailing whitespace'));
  if (c.imagePullPolicy !== undefined && !PULL_POLICIES.includes(str(c.imagePullPolicy))) {
    errs.push(notSupported(`${path}.imagePullPolicy`, c.imagePullPolicy, PULL_POLICIES));
  }
  errs.push(...validateContainerPorts(list(c.ports), `${path}.ports`));
  const envNames = list(c.env);
  envNames.forEach((e, i) => {
    if (!str(e.name)) errs.push(required(`${path}.env[${i}].name`));
  });
  list(c.volumeMounts).forEach((m, i) => {
    const mountName = str(m.name);
    if (!mountName) errs.push(required(`${path}.volumeMounts[${i}].name`));
    else if (!volumes.has(mountName))
      errs.push({
        type: 'FieldValueNotFound',
        field: `${path}.volumeMounts[${i}].name`,
        badValue: mountName,
        detail: '',
      });
    if (!str(m.mountPath)) errs.push(required(`${path}.volumeMounts[${i}].mountPath`));
  });
  return errs;
}

/** `validateContainerPorts`: names unique and IANA_SVC_NAME, containerPort required and in range. */
function validateContainerPorts(ports: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const at = `${path}[${i}]`;
    const name = str(p.name);
    if (name.length > 0) {
      const msgs = portNameErrors(name);
      if (msgs.length > 0) for (const msg of msgs) errs.push(invalidValue(`${at}.name`, name, msg));
      else if (names.has(name)) errs.push(duplicate(`${at}.name`, name));
      else names.add(name);
    }
    const containerPort = typeof p.containerPort === 'number' ? p.containerPort : 0;
    if (containerPort === 0) errs.push(required(`${at}.containerPort`));
    else
      for (const msg of portNumErrors(containerPort))
        errs.push(invalidValue(`${at}.containerPort`, containerPort, msg));
    if (typeof p.hostPort === 'number' && p.hostPort !== 0) {
      for (const msg of portNumErrors(p.hostPort)) errs.push(invalidValue(`${at}.hostPort`, p.hostPort, msg));
    }
    if (!str(p.protocol)) errs.push(required(`${at}.protocol`));
    else if (!PROTOCOLS.includes(str(p.protocol)))
      errs.push(notSupported(`${at}.protocol`, p.protocol, PROTOCOLS));
  });
  return errs;
}
