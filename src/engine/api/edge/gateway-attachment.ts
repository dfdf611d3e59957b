/**
 * Which HTTPRoutes attach to which Gateway listeners, and the status conditions that follow, after the
 * Gateway API specification (`apis/v1` condition types and reasons): a parentRef names a Gateway (and
 * optionally a listener by `sectionName` or `port`); the listener must allow the route's namespace
 * (`allowedRoutes.namespaces.from`: Same by default, All, or Selector) and kind, and share a hostname
 * with the route. Backend references resolve to Services, across namespaces only with a ReferenceGrant.
 * Pure: the gateway controller writes these results as status, the router reads them per request.
 */
import type { Condition } from 'kubernetes-types/meta/v1';
import type { Gateway, HTTPRoute, Namespace, ReferenceGrant, Service } from '../objects.ts';
import type { GatewayListener, HTTPBackendRef, ParentReference } from '../crd-types.ts';
import { matchesLabelSelector } from '../labels.ts';
import { intersectHostnames } from './http-match.ts';

export const GATEWAY_GROUP = 'gateway.networking.k8s.io';

export interface GatewayWorld {
  /** The GatewayClass controllerName of this implementation. */
  readonly controllerName: string;
  /** Gateways whose class this controller accepts. */
  readonly gateways: readonly Gateway[];
  readonly routes: readonly HTTPRoute[];
  readonly services: readonly Service[];
  readonly referenceGrants: readonly ReferenceGrant[];
  readonly namespaces: readonly Namespace[];
  /** Ports the implementation can listen on (Traefik: its entry points); undefined = any. */
  readonly listenerPorts?: readonly number[];
}

export interface ListenerVerdict {
  readonly accepted: boolean;
  readonly reason: string;
  readonly message: string;
}

export interface ParentAttachment {
  readonly parentRef: ParentReference;
  readonly gateway: Gateway;
  /** Names of the listeners the route attached to (empty when not accepted). */
  readonly listeners: readonly string[];
  readonly accepted: Condition;
  readonly resolvedRefs: Condition;
}

const cond = (type: string, ok: boolean, reason: string, message: string): Condition =>
  ({ type, status: ok ? 'True' : 'False', reason, message, lastTransitionTime: '' }) as Condition;

/** A listener's own validity: a port the implementation can serve. */
export function listenerVerdict(world: GatewayWorld, l: GatewayListener): ListenerVerdict {
  if (world.listenerPorts && !world.listenerPorts.includes(l.port))
    return {
      accepted: false,
      reason: 'PortUnavailable',
      message: `Cannot find entryPoint for Gateway: no matching entryPoint for port ${l.port} and protocol "${l.protocol}"`,
    };
  if (l.protocol !== 'HTTP' && l.protocol !== 'HTTPS')
    return {
      accepted: false,
      reason: 'UnsupportedProtocol',
      message: `Unsupported listener protocol "${l.protocol}"`,
    };
  return { accepted: true, reason: 'Accepted', message: 'No error found' };
}

function namespaceAllowed(world: GatewayWorld, gw: Gateway, l: GatewayListener, routeNs: string): boolean {
  const from = l.allowedRoutes?.namespaces?.from ?? 'Same';
  if (from === 'All') return true;
  if (from === 'Same') return routeNs === (gw.metadata.namespace ?? 'default');
  const ns = world.namespaces.find((n) => n.metadata.name === routeNs);
  const selector = l.allowedRoutes?.namespaces?.selector;
  return !!ns && !!selector && matchesLabelSelector(selector, ns.metadata.labels ?? {});
}

function kindAllowed(l: GatewayListener): boolean {
  const kinds = l.allowedRoutes?.kinds;
  if (!kinds || kinds.length === 0) return true;
  return kinds.some((k) => k.kind === 'HTTPRoute' && (k.group ?? GATEWAY_GROUP) === GATEWAY_GROUP);
}

export function refersToGateway(ref: ParentReference, gw: Gateway, routeNs: string): boolean {
  return (
    (ref.group ?? GATEWAY_GROUP) === GATEWAY_GROUP &&
    (ref.kind ?? 'Gateway') === 'Gateway' &&
    ref.name === gw.metadata.name &&
    (ref.namespace ?? routeNs) === (gw.metadata.namespace ?? 'default')
  );
}

/** Whether the route's hostnames leave something in common with the listener's. */
export function hostnamesIntersect(l: GatewayListener, route: HTTPRoute): boolean {
  const names = route.spec?.hostnames ?? [];
  if (names.length === 0 || !l.hostname) return true;
  return names.some((h) => intersectHostnames(l.hostname, h) !== undefined);
}

export type BackendProblem = { readonly reason: string; readonly message: string };

/** Why a backendRef cannot be used, or undefined when it resolves to a Service. */
export function backendProblem(
  world: GatewayWorld,
  route: HTTPRoute,
  ref: HTTPBackendRef,
): BackendProblem | undefined {
  const routeNs = route.metadata.namespace ?? 'default';
  const ns = ref.namespace ?? routeNs;
  if ((ref.group ?? '') !== '' || (ref.kind ?? 'Service') !== 'Service')
    return { reason: 'InvalidKind', message: `Unsupported BackendRef ${ref.group ?? ''}/${ref.kind ?? ''}` };
  if (ns !== routeNs) {
    const granted = world.referenceGrants.some(
      (g) =>
        g.metadata.namespace === ns &&
        g.spec.from.some(
          (f) => f.group === GATEWAY_GROUP && f.kind === 'HTTPRoute' && f.namespace === routeNs,
        ) &&
        g.spec.to.some((t) => t.group === '' && t.kind === 'Service' && (!t.name || t.name === ref.name)),
    );
    if (!granted)
      return {
        reason: 'RefNotPermitted',
        message: `Cannot load HTTPBackendRef ${ns}/${ref.name}: missing ReferenceGrant`,
      };
  }
  if (!world.services.some((s) => s.metadata.namespace === ns && s.metadata.name === ref.name))
    return {
      reason: 'BackendNotFound',
      message: `Cannot load HTTPBackendRef ${ns}/${ref.name}: service not found`,
    };
  return undefined;
}

function resolvedRefs(world: GatewayWorld, route: HTTPRoute): Condition {
  for (const rule of route.spec?.rules ?? [])
    for (const ref of rule.backendRefs ?? []) {
      const p = backendProblem(world, route, ref);
      if (p) return cond('ResolvedRefs', false, p.reason, p.message);
    }
  return cond('ResolvedRefs', true, 'ResolvedRefs', 'Resolved all the Object references for the Route');
}

/** The attachment of every parentRef of `route` that names one of this controller's Gateways. */
export function attachRoute(world: GatewayWorld, route: HTTPRoute): ParentAttachment[] {
  const routeNs = route.metadata.namespace ?? 'default';
  const out: ParentAttachment[] = [];
  const refs = resolvedRefs(world, route);
  for (const parentRef of route.spec?.parentRefs ?? []) {
    const gw = world.gateways.find((g) => refersToGateway(parentRef, g, routeNs));
    if (!gw) continue;
    const named = gw.spec.listeners.filter(
      (l) =>
        (parentRef.sectionName === undefined || l.name === parentRef.sectionName) &&
        (parentRef.port === undefined || l.port === parentRef.port) &&
        listenerVerdict(world, l).accepted,
    );
    const allowed = named.filter((l) => namespaceAllowed(world, gw, l, routeNs) && kindAllowed(l));
    const matching = allowed.filter((l) => hostnamesIntersect(l, route));
    const accepted =
      named.length === 0
        ? cond('Accepted', false, 'NoMatchingParent', 'No listener matches the parentRef')
        : allowed.length === 0
          ? cond(
              'Accepted',
              false,
              'NotAllowedByListeners',
              'Route is not allowed by any listener of the parent',
            )
          : matching.length === 0
            ? cond(
                'Accepted',
                false,
                'NoMatchingListenerHostname',
                'No listener hostname matches the route hostnames',
              )
            : cond('Accepted', true, 'Accepted', 'Route is accepted');
    out.push({
      parentRef,
      gateway: gw,
      listeners: accepted.status === 'True' ? matching.map((l) => l.name) : [],
      accepted,
      resolvedRefs: refs,
    });
  }
  return out;
}
