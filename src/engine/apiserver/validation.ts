/**
 * The validation step of create and update: per kind, the checks of k8s.io/kubernetes
 * `pkg/apis/*\/validation` with their exact messages, reported together in one Invalid error
 * (`NewInvalid`), as the real server does. Metadata rules come from apimachinery
 * `pkg/api/validation/objectmeta.go`: names are DNS-1123 subdomains for most kinds, DNS-1123 labels
 * for Namespaces and DNS-1035 labels for Services (RelaxedServiceNameValidation is alpha and off in
 * v1.35), so names with control characters, spaces or HTML are refused.
 */
import { invalid } from '../api/errors.ts';
import type { ResourceInfo } from '../api/resources.ts';
import { isPlainObject, jsonEqual } from '../util/json.ts';
import type { ApiServerContext } from './apiserver.ts';
import { validateAppsSpec, validateAppsUpdate, type AppsKind } from './apps-validation.ts';
import {
  causesOf,
  duplicate,
  forbidden,
  invalidValue,
  required,
  tooLong,
  type FieldError,
} from './field-errors.ts';
import {
  configMapKeyErrors,
  isLabelKey,
  nameErrors,
  validateLabels,
  type NameRule,
} from './name-validation.ts';
import { validateIngressSpec, validateNetworkPolicySpec } from './networking-validation.ts';
import { validatePodSpec } from './pod-validation.ts';
import { validateServiceSpec, validateServiceUpdate } from './service-validation.ts';

/** The shape validation reads: any decoded object. */
export interface ValidatedObject {
  readonly kind?: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly generateName?: string };
  readonly [field: string]: unknown;
}

const NAME_RULES: Partial<Record<string, NameRule>> = { namespaces: 'label', services: 'dns1035' };
const ANNOTATIONS_LIMIT = 256 * 1024;

export function validateObject(info: ResourceInfo, object: ValidatedObject, _ctx?: ApiServerContext): void {
  const errs = [...validateMeta(info, object), ...validateKind(info, object)];
  if (errs.length > 0) throw invalid(info.kind, object.metadata.name, causesOf(errs), info.group);
}

export function validateUpdate(
  info: ResourceInfo,
  next: ValidatedObject,
  old: ValidatedObject,
  _ctx?: ApiServerContext,
): void {
  const errs = [...validateMetaUpdate(next, old), ...validateMeta(info, next), ...validateKind(info, next)];
  switch (info.key) {
    case 'services':
      errs.push(...validateServiceUpdate(next.spec, old.spec));
      break;
    case 'deployments.apps':
    case 'replicasets.apps':
    case 'daemonsets.apps':
      errs.push(...validateAppsUpdate(next.spec, old.spec));
      break;
    case 'pods':
      errs.push(...validatePodUpdate(next.spec, old.spec));
      break;
    case 'configmaps':
    case 'secrets':
      if (old.immutable === true) errs.push(...validateImmutableData(info, next, old));
      break;
    default:
      break;
  }
  if (errs.length > 0) throw invalid(info.kind, next.metadata.name, causesOf(errs), info.group);
}

/**
 * A metadata patch (kubectl label/annotate): the whole object is validated upstream, but the stored
 * spec already passed, so only the metadata can fail (`metadata.labels: Invalid value: "a b": …`).
 */
export function validateMetadataWrite(info: ResourceInfo, object: ValidatedObject): void {
  const errs = validateMeta(info, object);
  if (errs.length > 0) throw invalid(info.kind, object.metadata.name, causesOf(errs), info.group);
}

function validateMeta(info: ResourceInfo, object: ValidatedObject): FieldError[] {
  const errs: FieldError[] = [];
  const meta = object.metadata;
  const rule = NAME_RULES[info.key] ?? 'subdomain';
  if (meta.generateName) {
    for (const msg of nameErrors(rule, meta.generateName, true))
      errs.push(invalidValue('metadata.generateName', meta.generateName, msg));
  }
  if (!meta.name) errs.push(required('metadata.name', 'name or generateName is required'));
  else
    for (const msg of nameErrors(rule, meta.name)) errs.push(invalidValue('metadata.name', meta.name, msg));
  if (info.namespaced) {
    if (!meta.namespace) errs.push(required('metadata.namespace'));
    else
      for (const msg of nameErrors('label', meta.namespace))
        errs.push(invalidValue('metadata.namespace', meta.namespace, msg));
  } else if (meta.namespace) {
    errs.push(forbidden('metadata.namespace', 'not allowed on this type'));
  }
  const {
    annotations,
    finalizers: finalizerList,
    labels,
  } = meta as { annotations?: unknown; finalizers?: unknown; labels?: unknown };
  errs.push(...validateLabels(labels, 'metadata.labels'));
  if (isPlainObject(annotations)) {
    let size = 0;
    for (const k of Object.keys(annotations).sort()) {
      for (const msg of isLabelKey(k.toLowerCase())) errs.push(invalidValue('metadata.annotations', k, msg));
      const v = annotations[k];
      size += k.length + (typeof v === 'string' ? v.length : 0);
    }
    if (size > ANNOTATIONS_LIMIT) errs.push(tooLong('metadata.annotations', ANNOTATIONS_LIMIT));
  }
  const finalizers = Array.isArray(finalizerList) ? (finalizerList as unknown[]) : [];
  for (const f of finalizers) {
    for (const msg of isLabelKey(typeof f === 'string' ? f : ''))
      errs.push(invalidValue('metadata.finalizers', f, msg));
  }
  return errs;
}

function validateMetaUpdate(next: ValidatedObject, old: ValidatedObject): FieldError[] {
  const errs: FieldError[] = [];
  if (next.metadata.name !== old.metadata.name)
    errs.push(invalidValue('metadata.name', next.metadata.name, 'field is immutable'));
  if ((next.metadata.namespace ?? '') !== (old.metadata.namespace ?? '')) {
    errs.push(invalidValue('metadata.namespace', next.metadata.namespace ?? '', 'field is immutable'));
  }
  return errs;
}

function validateKind(info: ResourceInfo, object: ValidatedObject): FieldError[] {
  switch (info.key) {
    case 'pods':
      return validatePodSpec(object.spec, 'spec');
    case 'services':
      return validateServiceSpec(object.spec);
    case 'deployments.apps':
    case 'replicasets.apps':
    case 'daemonsets.apps':
      return validateAppsSpec(info.kind as AppsKind, object.spec);
    case 'networkpolicies.networking.k8s.io':
      return validateNetworkPolicySpec(object.spec);
    case 'ingresses.networking.k8s.io':
      return validateIngressSpec(object.spec);
    case 'configmaps':
    case 'secrets':
      return validateDataKeys(object);
    default:
      return [];
  }
}

/** ConfigMap/Secret keys must be config keys and unique across data and binaryData. */
function validateDataKeys(object: ValidatedObject): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  const fields = object.kind === 'Secret' ? ['data', 'stringData'] : ['data', 'binaryData'];
  for (const f of fields) {
    const data = object[f];
    if (!isPlainObject(data)) continue;
    for (const key of Object.keys(data).sort()) {
      for (const msg of configMapKeyErrors(key)) errs.push(invalidValue(`${f}[${key}]`, key, msg));
      if (object.kind !== 'Secret' && seen.has(key)) errs.push(duplicate(`${f}[${key}]`, key));
      seen.add(key);
    }
  }
  return errs;
}

function validateImmutableData(
  info: ResourceInfo,
  next: ValidatedObject,
  old: ValidatedObject,
): FieldError[] {
  const errs: FieldError[] = [];
  if (next.immutable !== true)
    errs.push(forbidden('immutable', 'field is immutable when `immutable` is set'));
  const fields = info.key === 'secrets' ? ['data'] : ['data', 'binaryData'];
  for (const f of fields)
    if (!jsonEqual(next[f], old[f])) errs.push(forbidden(f, 'field is immutable when `immutable` is set'));
  return errs;
}

/**
 * `ValidatePodUpdate`: only images, activeDeadlineSeconds, tolerations (additions) and
 * terminationGracePeriodSeconds may change. Upstream appends a diff of the spec to the message; the
 * first line is reproduced here.
 */
function validatePodUpdate(next: unknown, old: unknown): FieldError[] {
  // Binding a pod (setting nodeName once) is the scheduler's `pods/binding` call; it is not a spec edit.
  const oldNode = isPlainObject(old) ? old.nodeName : undefined;
  const strip = (spec: unknown) => {
    if (!isPlainObject(spec)) return spec;
    const copy: Record<string, unknown> = { ...spec };
    if (!oldNode) delete copy.nodeName;
    delete copy.activeDeadlineSeconds;
    delete copy.tolerations;
    delete copy.terminationGracePeriodSeconds;
    for (const k of ['containers', 'initContainers']) {
      if (Array.isArray(copy[k]))
        copy[k] = (copy[k] as unknown[]).map((c) => (isPlainObject(c) ? { ...c, image: '' } : c));
    }
    return copy;
  };
  if (jsonEqual(strip(next), strip(old))) return [];
  return [
    forbidden(
      'spec',
      'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    ),
  ];
}
