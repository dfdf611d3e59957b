/**
 * Deployment, ReplicaSet and DaemonSet validation with kube-apiserver's messages (k8s.io/kubernetes
 * `pkg/apis/apps/validation/validation.go`: `ValidateDeploymentSpec`, `ValidateReplicaSetSpec`,
 * `ValidateDaemonSetSpec`, `ValidatePodTemplateSpecForReplicaSet`), and the apps/v1 rule that a
 * selector never changes after creation.
 */
import { matchesLabelSelector } from '../api/labels.ts';
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import { forbidden, invalidValue, notSupported, required, type FieldError } from './field-errors.ts';
import { validateLabelSelector, validateLabels } from './name-validation.ts';
import { validatePodSpec } from './pod-validation.ts';
import { isPlainObject, jsonEqual } from '../util/json.ts';

type Obj = Record<string, unknown>;
export type AppsKind = 'Deployment' | 'ReplicaSet' | 'DaemonSet';

const NONNEGATIVE = 'must be greater than or equal to 0';

function nonNegative(errs: FieldError[], value: unknown, path: string): void {
  if (typeof value === 'number' && value < 0) errs.push(invalidValue(path, value, NONNEGATIVE));
}

export function validateAppsSpec(kind: AppsKind, spec: unknown): FieldError[] {
  const s = isPlainObject(spec) ? spec : {};
  const errs: FieldError[] = [];
  if (kind !== 'DaemonSet') nonNegative(errs, s.replicas, 'spec.replicas');
  if (kind === 'ReplicaSet') nonNegative(errs, s.minReadySeconds, 'spec.minReadySeconds');
  const selector = isPlainObject(s.selector) ? s.selector : undefined;
  const template = isPlainObject(s.template) ? s.template : {};
  const meta = isPlainObject(template.metadata) ? template.metadata : {};
  const labels = isPlainObject(meta.labels) ? (meta.labels as Record<string, string>) : undefined;
  // LabelSelectorAsSelector(nil) is labels.Nothing(), which no template matches; an empty selector
  // is labels.Everything(), which the ReplicaSet check skips and every template matches.
  const mismatch =
    !selector ||
    (hasRequirements(selector) && !matchesLabelSelector(selector as LabelSelector, labels ?? {}));
  const templateMismatch = invalidValue(
    'spec.template.metadata.labels',
    labels ?? null,
    '`selector` does not match template `labels`',
  );
  if (kind === 'DaemonSet') {
    // ValidateDaemonSetSpec has no Required check: a missing selector only fails the template match.
    if (selector) errs.push(...validateLabelSelector(selector, 'spec.selector'));
    if (mismatch) errs.push(templateMismatch);
    if (selector && !hasRequirements(selector))
      errs.push(invalidValue('spec.selector', selector, 'empty selector is invalid for daemonset'));
  } else {
    if (!selector) errs.push(required('spec.selector'));
    else {
      errs.push(...validateLabelSelector(selector, 'spec.selector'));
      // ValidateReplicaSetSpec reuses the Deployment wording.
      if (!hasRequirements(selector))
        errs.push(invalidValue('spec.selector', selector, 'empty selector is invalid for deployment'));
    }
    if (mismatch) errs.push(templateMismatch);
  }
  errs.push(...validateLabels(meta.labels, 'spec.template.metadata.labels'));
  const podSpec = isPlainObject(template.spec) ? template.spec : {};
  errs.push(...validatePodSpec(podSpec, 'spec.template.spec'));
  if (podSpec.restartPolicy !== undefined && podSpec.restartPolicy !== 'Always') {
    errs.push(notSupported('spec.template.spec.restartPolicy', podSpec.restartPolicy, ['Always']));
  }
  if (podSpec.activeDeadlineSeconds !== undefined) {
    // A Deployment's template goes through ValidatePodTemplateSpecForReplicaSet, hence its wording.
    const owner = kind === 'DaemonSet' ? 'DaemonSet' : 'ReplicaSet';
    errs.push(
      forbidden(
        'spec.template.spec.activeDeadlineSeconds',
        `activeDeadlineSeconds in ${owner} is not Supported`,
      ),
    );
  }
  if (kind === 'Deployment') errs.push(...validateDeploymentStrategy(s));
  if (kind !== 'ReplicaSet') nonNegative(errs, s.minReadySeconds, 'spec.minReadySeconds');
  nonNegative(errs, s.revisionHistoryLimit, 'spec.revisionHistoryLimit');
  return errs;
}

function hasRequirements(selector: Obj): boolean {
  const labels = isPlainObject(selector.matchLabels) ? Object.keys(selector.matchLabels).length : 0;
  return labels + (Array.isArray(selector.matchExpressions) ? selector.matchExpressions.length : 0) > 0;
}

/** `ValidateDeploymentStrategy` / `ValidateRollingUpdateDeployment` and progressDeadlineSeconds. */
function validateDeploymentStrategy(s: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const strategy = isPlainObject(s.strategy) ? s.strategy : {};
  const types = ['Recreate', 'RollingUpdate'];
  if (strategy.type !== undefined && !types.includes(strategy.type as string))
    errs.push(notSupported('spec.strategy.type', strategy.type, types));
  if (strategy.type === 'Recreate' && strategy.rollingUpdate !== undefined) {
    errs.push(
      forbidden('spec.strategy.rollingUpdate', "may not be specified when strategy `type` is 'Recreate'"),
    );
  }
  const ru = isPlainObject(strategy.rollingUpdate) ? strategy.rollingUpdate : undefined;
  if (ru && strategy.type === 'RollingUpdate') {
    const zero = (v: unknown) => v === 0 || v === '0%';
    if (zero(ru.maxUnavailable) && zero(ru.maxSurge)) {
      errs.push(
        invalidValue(
          'spec.strategy.rollingUpdate.maxUnavailable',
          ru.maxUnavailable,
          'may not be 0 when `maxSurge` is 0',
        ),
      );
    }
  }
  if (typeof s.progressDeadlineSeconds === 'number') {
    nonNegative(errs, s.progressDeadlineSeconds, 'spec.progressDeadlineSeconds');
    const minReady = typeof s.minReadySeconds === 'number' ? s.minReadySeconds : 0;
    if (s.progressDeadlineSeconds <= minReady) {
      errs.push(
        invalidValue(
          'spec.progressDeadlineSeconds',
          s.progressDeadlineSeconds,
          'must be greater than minReadySeconds',
        ),
      );
    }
  }
  return errs;
}

/** apps/v1 strategies' ValidateUpdate: `spec.selector: Invalid value: {...}: field is immutable`. */
export function validateAppsUpdate(next: unknown, old: unknown): FieldError[] {
  const n = isPlainObject(next) ? next : {};
  const o = isPlainObject(old) ? old : {};
  if (!jsonEqual(n.selector, o.selector))
    return [invalidValue('spec.selector', n.selector ?? null, 'field is immutable')];
  return [];
}
