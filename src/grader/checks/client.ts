/** The pod a traffic or DNS probe starts from: by name, or the first running pod (by name) a selector matches. */
import type { PodRef } from '../check-schema.ts';
import { parseSelector, selectorMatches, type AnyObject } from '../engine-api.ts';
import { msg, type Message } from '../messages/format.ts';
import type { ProbeClient } from '../probes.ts';
import type { CheckEnv } from './env.ts';

/** How the probe's origin is named in messages: `shop/client` or `app=client (shop)`. */
export function clientLabel(from: PodRef): string {
  return from.pod !== undefined
    ? `${from.namespace}/${from.pod}`
    : `${from.selector ?? ''} (${from.namespace})`;
}

function phase(pod: AnyObject): string {
  return (pod.status as { phase?: string } | undefined)?.phase ?? 'Pending';
}

function podIP(pod: AnyObject): string | undefined {
  return (pod.status as { podIP?: string } | undefined)?.podIP;
}

export function resolveClient(from: PodRef, env: CheckEnv): ProbeClient | { readonly problem: Message } {
  const ns = from.namespace;
  let pod: AnyObject | undefined;
  if (from.pod !== undefined) {
    pod = env.cluster.view().get('pods', ns, from.pod);
    if (!pod) return { problem: msg('object.notFound', { kind: 'Pod', ref: `${ns}/${from.pod}` }) };
  } else {
    const sel = parseSelector(from.selector ?? '');
    const candidates = env.cluster
      .view()
      .list('pods', ns)
      .filter((p) => selectorMatches(sel, p.metadata.labels));
    pod = candidates.find((p) => phase(p) === 'Running') ?? candidates[0];
    if (!pod) return { problem: msg('client.noMatch', { selector: from.selector ?? '', namespace: ns }) };
  }
  if (phase(pod) !== 'Running') {
    return { problem: msg('client.notRunning', { ref: `${ns}/${pod.metadata.name}`, phase: phase(pod) }) };
  }
  return { namespace: ns, pod: pod.metadata.name, ip: podIP(pod) };
}
