/**
 * The registry strategies' `PrepareForCreate` / `PrepareForUpdate` (k8s.io/kubernetes
 * `pkg/registry/<group>/<kind>/strategy.go`): what the server resets whatever the client sent. A new
 * object's status is the server's (a Pod starts Pending with its QoS class, a Service with an empty
 * load-balancer status, Deployments with `{}`); an update through the main resource keeps the stored
 * status (status changes go through `/status`). Gateway API objects get the status defaults of their
 * CRDs ("Waiting for controller").
 */
import type { ResourceInfo } from '../api/resources.ts';
import { computePodQOS } from '../api/pod-status.ts';
import { isPlainObject } from '../util/json.ts';

type Obj = Record<string, unknown>;

const EPOCH = '1970-01-01T00:00:00Z';
const waiting = (type: string) => ({
  lastTransitionTime: EPOCH,
  message: 'Waiting for controller',
  reason: 'Pending',
  status: 'Unknown',
  type,
});

export function prepareForCreate(info: ResourceInfo, object: { metadata: Obj; [k: string]: unknown }): void {
  delete object.metadata.deletionTimestamp;
  delete object.metadata.deletionGracePeriodSeconds;
  delete object.metadata.generation;
  switch (info.key) {
    case 'pods':
      object.status = { phase: 'Pending', qosClass: computePodQOS(object.spec) };
      break;
    case 'services':
    case 'ingresses.networking.k8s.io':
      object.status = { loadBalancer: {} };
      break;
    case 'deployments.apps':
    case 'replicasets.apps':
    case 'daemonsets.apps':
      object.status = {};
      break;
    case 'gateways.gateway.networking.k8s.io':
      object.status = { conditions: [waiting('Accepted'), waiting('Programmed')] };
      break;
    case 'gatewayclasses.gateway.networking.k8s.io':
      object.status = { conditions: [waiting('Accepted')] };
      break;
    case 'httproutes.gateway.networking.k8s.io':
      delete object.status;
      break;
    default:
      break;
  }
}

/** Kinds whose status only the `/status` subresource changes. */
const STATUS_SUBRESOURCE = new Set<string>([
  'pods',
  'services',
  'nodes',
  'namespaces',
  'deployments.apps',
  'replicasets.apps',
  'daemonsets.apps',
  'ingresses.networking.k8s.io',
  'gatewayclasses.gateway.networking.k8s.io',
  'gateways.gateway.networking.k8s.io',
  'httproutes.gateway.networking.k8s.io',
]);

export function prepareForUpdate(
  info: ResourceInfo,
  next: { [k: string]: unknown },
  old: { [k: string]: unknown },
): void {
  if (STATUS_SUBRESOURCE.has(info.key)) {
    if (old.status === undefined) delete next.status;
    else next.status = old.status;
  }
  // Namespace finalizers change only through `/finalize`.
  if (info.key === 'namespaces' && isPlainObject(old.spec)) next.spec = old.spec;
}
