/**
 * `type: endpoints`: a Service has enough ready endpoints, counted from its EndpointSlices (label
 * `kubernetes.io/service-name`) as kube-proxy counts them: an endpoint whose `conditions.ready` is
 * unset counts as ready (discovery/v1 API docs). When there are too few, the observation says why:
 * no selector, a selector that matches no pod (or only pods in other namespaces), or pods not ready.
 */
import { parseSelector, selectorMatches, type AnyObject } from '../engine-api.ts';
import { msg, type Message } from '../messages/format.ts';
import { fail, verdict, type Verdict } from '../result.ts';
import type { Evaluator, CheckEnv } from './env.ts';
import { listed, listedNames } from './objects.ts';

const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
const CONTROLLER = 'endpointslice-controller.k8s.io';

interface SliceEndpoint {
  addresses?: string[];
  conditions?: { ready?: boolean };
}

function readyAddresses(env: CheckEnv, namespace: string, service: string): string[] {
  const out = new Set<string>();
  for (const slice of env.cluster.view().list('endpointslices.discovery.k8s.io', namespace)) {
    if (slice.metadata.labels?.[SERVICE_NAME_LABEL] !== service) continue;
    const endpoints = (slice.endpoints ?? []) as SliceEndpoint[];
    for (const ep of endpoints) {
      if (ep.conditions?.ready === false) continue;
      const address = ep.addresses?.[0];
      if (address !== undefined) out.add(address);
    }
  }
  return [...out].sort();
}

function selectorText(selector: Readonly<Record<string, string>>): string {
  return Object.keys(selector)
    .sort()
    .map((k) => `${k}=${selector[k]}`)
    .join(',');
}

function matchesMap(
  selector: Readonly<Record<string, string>>,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  return Object.entries(selector).every(
    ([k, v]) => labels !== undefined && Object.hasOwn(labels, k) && labels[k] === v,
  );
}

function isPodReady(pod: AnyObject): boolean {
  const status = pod.status as { conditions?: { type?: string; status?: string }[] } | undefined;
  return status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

/** Why a Service has fewer ready endpoints than wanted. */
function shortfallReason(
  env: CheckEnv,
  svc: AnyObject,
  namespace: string,
  ready: number,
): Message | undefined {
  const selector = (svc.spec as { selector?: Record<string, string> } | undefined)?.selector;
  if (!selector || Object.keys(selector).length === 0) return msg('check.endpoints.reason.noSelector');
  const text = selectorText(selector);
  const pods = env.cluster
    .view()
    .list('pods')
    .filter((p) => matchesMap(selector, p.metadata.labels));
  const here = pods.filter((p) => p.metadata.namespace === namespace);
  if (here.length === 0) {
    const elsewhere = [...new Set(pods.map((p) => p.metadata.namespace ?? ''))].sort();
    return elsewhere.length === 0
      ? msg('check.endpoints.reason.noPods', { selector: text })
      : msg('check.endpoints.reason.podsElsewhere', {
          selector: text,
          namespace,
          namespaces: listed(elsewhere),
        });
  }
  const readyPods = here.filter(isPodReady).length;
  if (readyPods < here.length || ready < here.length) {
    return msg('check.endpoints.reason.notReady', {
      count: here.length,
      ready: Math.min(ready, readyPods),
      selector: text,
    });
  }
  return undefined;
}

/** The Service's selector as `k=v,…`, or `<none>` as kubectl prints a selectorless Service. */
function serviceSelector(env: CheckEnv, namespace: string, service: string): string {
  const svc = env.cluster.view().get('services', namespace, service);
  const selector = (svc?.spec as { selector?: Record<string, string> } | undefined)?.selector;
  return selector && Object.keys(selector).length ? selectorText(selector) : '<none>';
}

function podIPOf(pod: AnyObject): string | undefined {
  return (pod.status as { podIP?: string } | undefined)?.podIP;
}

/**
 * `exactly`: the endpoints are the set of pods the wanted selector picks, from the controller's slices.
 * The mismatch names the pods too many or missing, or the slice no controller wrote.
 */
function exactlyVerdict(env: CheckEnv, namespace: string, service: string, wanted: string): Verdict {
  const ref = `${namespace}/${service}`;
  const sel = parseSelector(wanted);
  const pods = env.cluster.view().list('pods', namespace);
  const intended = pods.filter(
    (p) => selectorMatches(sel, p.metadata.labels) && isPodReady(p) && podIPOf(p) !== undefined,
  );
  const expected = msg('check.endpoints.expected.exactly', {
    ref,
    selector: wanted,
    pods: listedNames(intended),
  });
  const handWritten = env.cluster
    .view()
    .list('endpointslices.discovery.k8s.io', namespace)
    .filter(
      (s) =>
        s.metadata.labels?.[SERVICE_NAME_LABEL] === service &&
        s.metadata.labels?.[MANAGED_BY_LABEL] !== CONTROLLER,
    );
  if (handWritten.length > 0)
    return fail(expected, msg('check.endpoints.observed.handWritten', { slices: listedNames(handWritten) }));
  const listed = new Set(readyAddresses(env, namespace, service));
  const wantedIPs = new Set(intended.map((p) => podIPOf(p)!));
  const extra = [...listed].filter((ip) => !wantedIPs.has(ip));
  const missing = intended.filter((p) => !listed.has(podIPOf(p)!));
  if (extra.length === 0 && missing.length === 0)
    return verdict(
      true,
      expected,
      msg('check.endpoints.observed.ready', {
        count: listed.size,
        addresses: listed.size ? [...listed].sort() : ['-'],
      }),
    );
  const byIP = new Map(pods.map((p) => [podIPOf(p), p]));
  const extraNames = extra.map((ip) => {
    const p = byIP.get(ip);
    return p ? `${namespace}/${p.metadata.name} (${ip})` : ip;
  });
  const parts = [
    ...(extra.length
      ? [
          msg('check.endpoints.observed.extra', {
            pods: extraNames,
            selector: serviceSelector(env, namespace, service),
          }),
        ]
      : []),
    ...(missing.length ? [msg('check.endpoints.observed.missing', { pods: listedNames(missing) })] : []),
  ];
  return fail(expected, parts.length === 1 ? parts[0]! : msg('check.list', { items: parts }));
}

export const evaluateEndpoints: Evaluator<'endpoints'> = (check, env): Verdict => {
  const { namespace, service, minReady: min, maxReady: max } = check;
  if (check.exactly !== undefined) {
    if (!env.cluster.view().get('services', namespace, service)) {
      const ref = `${namespace}/${service}`;
      return fail(
        msg('check.endpoints.expected.exactly', { ref, selector: check.exactly, pods: ['-'] }),
        msg('object.notFound', { kind: 'Service', ref }),
      );
    }
    return exactlyVerdict(env, namespace, service, check.exactly);
  }
  const ref = `${namespace}/${service}`;
  const expected =
    max === undefined
      ? msg('check.endpoints.expected.min', { ref, min, count: min })
      : min === 0
        ? msg('check.endpoints.expected.max', { ref, max, count: max })
        : msg('check.endpoints.expected.range', { ref, min, max });
  const svc = env.cluster.view().get('services', namespace, service);
  if (!svc) return fail(expected, msg('object.notFound', { kind: 'Service', ref }));
  const addresses = readyAddresses(env, namespace, service);
  const count = addresses.length;
  const ok = count >= min && (max === undefined || count <= max);
  const reason = count < min ? shortfallReason(env, svc, namespace, count) : undefined;
  const observed =
    reason !== undefined
      ? msg('check.endpoints.observed.because', { count, reason })
      : count === 0
        ? msg('check.endpoints.observed.none')
        : msg('check.endpoints.observed.ready', { count, addresses: listed(addresses) });
  return verdict(ok, expected, observed);
};
