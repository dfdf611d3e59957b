/**
 * `trace` output: one numbered line per hop, in plain English, the way a diagnostic tool prints
 * (traceroute/mtr style), then the result. The wording is the engine's own: the UI and the grader use
 * the structured hops, never these lines.
 */
import type { RuleHit } from '../netfilter/packet.ts';
import type { Hop, PodRef, Source } from '../network/types.ts';
import type { TraceResult } from './trace-connection.ts';

const ref = (p: PodRef) => `${p.namespace}/${p.name}`;

const ENFORCEMENT_TEXT: Record<string, string> = {
  'not-enforced-by-flannel': 'NetworkPolicy is not enforced by flannel (the policy is accepted and ignored)',
  'not-enforced-k3s-disabled': 'NetworkPolicy is not enforced (k3s runs with --disable-network-policy)',
  'no-cni': 'NetworkPolicy is not enforced (no CNI installed)',
};

function sourceText(s: Source): string {
  if (s.kind === 'pod') return `pod ${s.namespace}/${s.name}`;
  if (s.kind === 'node') return `node ${s.node}`;
  return 'your machine (outside the cluster)';
}

/** The rules worth showing: the Service chains and the DNAT, not every jump of the walk. */
function ruleChain(rules: readonly RuleHit[]): string {
  const interesting = rules.filter(
    (r) =>
      /^KUBE-(SERVICES|SVC|SEP|EXT|SVL|FW|NODEPORTS|MARK-MASQ)/.test(r.chain) ||
      r.table === 'ipvs' ||
      r.table === 'bpf' ||
      r.table === 'conntrack' ||
      /^(service|endpoint|external|cluster|nodeport|services|service-ips|service-nodeports)/.test(r.chain),
  );
  const chains: string[] = [];
  for (const r of interesting) if (chains[chains.length - 1] !== r.chain) chains.push(r.chain);
  const last =
    [...interesting].reverse().find((r) => /DNAT|dnat|->|→|Masq|Route|Local/.test(r.rule)) ??
    interesting[interesting.length - 1];
  return chains.length > 0 ? `${chains.join(' → ')}${last ? `\n             rule: ${last.rule}` : ''}` : '';
}

function policyText(h: Extract<Hop, { kind: 'network-policy' }>): string {
  const side = h.direction === 'Egress' ? `egress of ${ref(h.pod)}` : `ingress of ${ref(h.pod)}`;
  const port = h.port !== undefined ? ` to port ${h.port}` : '';
  switch (h.verdict) {
    case 'not-enforced':
      return `${side}: ${h.policies.length > 0 ? `selected by ${h.policies.map(ref).join(', ')}, but ` : ''}${ENFORCEMENT_TEXT[h.enforcement] ?? 'NetworkPolicy is not enforced'}`;
    case 'not-isolated':
      return `${side}: not isolated, no NetworkPolicy selects it for ${h.direction}`;
    case 'allowed':
      return `${side}: allowed by ${h.allowedBy ? `${ref(h.allowedBy)} ${h.direction.toLowerCase()} rule ${h.allowedBy.rule}` : 'a rule'} (peer ${h.peer}${port})`;
    case 'blocked':
      return `${side}: BLOCKED — selected by ${h.policies.map(ref).join(', ')} and no rule allows ${h.peer}${port}; the packet is dropped`;
  }
}

export function hopLine(h: Hop): [string, string] {
  switch (h.kind) {
    case 'resolv-conf':
      return [
        'dns',
        `resolv.conf: nameserver ${h.nameserver}, search ${h.search.join(' ') || '(none)'}, ndots:${h.ndots} (${h.libc}); tries ${h.candidates.join(', ')}`,
      ];
    case 'hosts-file':
      return ['dns', `/etc/hosts: ${h.name} is ${h.addresses.join(', ')}`];
    case 'dns-query':
      if (h.outcome !== 'answered')
        return [
          'dns',
          `${h.type} ${h.name} → no answer from ${h.server} (${h.outcome === 'refused' ? 'refused' : 'timed out'})`,
        ];
      return [
        'dns',
        `${h.type} ${h.name} → ${h.answers.length > 0 ? h.answers.join(', ') : 'no records'} (${h.rcode}${h.answeredBy ? `, answered by ${ref(h.answeredBy)}` : ` from ${h.server}`})`,
      ];
    case 'dns-result':
      return ['dns', h.error ? `${h.name}: ${h.error}` : `${h.name} resolves to ${h.addresses.join(', ')}`];
    case 'socket':
      return [
        'socket',
        `${h.from} → ${h.to} ${h.protocol}${h.hostNetwork ? " (hostNetwork: the node's own stack)" : ''}`,
      ];
    case 'port-forward':
      return [
        'forward',
        `kubectl port-forward: localhost:${h.localPort} → API server → kubelet → ${ref(h.pod)} port ${h.podPort} (no Service, no kube-proxy, no policy)`,
      ];
    case 'service': {
      const via = h.mode === 'cilium' ? 'Cilium eBPF service map' : `kube-proxy ${h.mode} rules`;
      const pod = h.endpointPod ? ` (pod ${ref(h.endpointPod)})` : '';
      const est = h.established ? ', existing conntrack entry (same connection)' : '';
      const rules = ruleChain(h.rules);
      return [
        'service',
        `${ref(h.service)} ${h.address}:${h.port} via ${via} on ${h.node}: endpoint ${h.endpoint ?? '?'}${pod}; ${h.evaluatedRules} rules evaluated${est}${rules ? `\n             ${rules}` : ''}`,
      ];
    }
    case 'netfilter':
      return [
        'netfilter',
        `${h.verdict} on ${h.node} in ${h.table}/${h.chain}${h.service ? ` for ${ref(h.service)}` : ''}\n             rule: ${h.rule}`,
      ];
    case 'no-endpoints':
      return ['service', `${ref(h.service)} has no ready endpoint: kube-proxy rejects the connection`];
    case 'dnat':
      return ['dnat', `${h.from} → ${h.to} on ${h.node}`];
    case 'snat':
      return [
        'snat',
        `source ${h.from} → ${h.to} on ${h.node} (${h.reason === 'kube-proxy-masquerade' ? 'kube-proxy masquerade' : 'masquerade for traffic leaving the pod network'})`,
      ];
    case 'network-policy':
      return ['policy', policyText(h)];
    case 'route':
      return ['route', `${h.text}${h.mtu !== undefined && h.via !== 'loopback' ? `, MTU ${h.mtu}` : ''}`];
    case 'mtu':
      return [
        'mtu',
        h.stalled
          ? `pod MTU ${h.podMtu} > path MTU ${h.pathMtu}: full-size segments are too big for ${h.device ?? 'the tunnel'} and no ICMP "fragmentation needed" comes back; small packets pass, the ${h.bytes} bytes never arrive`
          : h.icmp
            ? `pod MTU ${h.podMtu} > path MTU ${h.pathMtu}: the first full-size segment is too big for ${h.device ?? 'the tunnel'}; ${h.icmp.node} answers ICMP "fragmentation needed" (mtu ${h.icmp.mtu}) from ${h.icmp.from}, TCP lowers its segment size (path MTU discovery) and resends: the ${h.bytes} bytes arrive one round trip later`
            : `pod MTU ${h.podMtu} > path MTU ${h.pathMtu}, but ${h.bytes} bytes fit in one small segment`,
      ];
    case 'no-route':
      return ['drop', `${h.ip}: ${h.reason}`];
    case 'delivered': {
      const who = h.pod ? `pod ${ref(h.pod)}` : `node ${h.node ?? ''}`;
      const proc = h.process
        ? `${h.process}${h.container ? ` in container ${h.container} of ` : ' on '}${who}`
        : who;
      return [
        'deliver',
        `${h.ip}${h.port !== undefined ? `:${h.port}` : ''} → ${proc} (sees client ${h.clientIP})`,
      ];
    }
    case 'no-listener':
      return [
        'refused',
        `nothing listens on ${h.ip}:${h.port}/${h.protocol}${h.pod ? ` in pod ${ref(h.pod)}` : h.node ? ` on node ${h.node}` : ''}: ${h.protocol === 'UDP' ? 'ICMP port unreachable' : 'TCP RST'}`,
      ];
    case 'edge-proxy': {
      const what = h.matched
        ? `${h.matched.kind} ${ref(h.matched.object)} ${h.matched.rule}${h.matched.gateway ? ` (Gateway ${ref(h.matched.gateway)} listener ${h.matched.listener ?? ''})` : ''}`
        : 'no route';
      const draw = h.draw
        ? `; weighted draw ${h.draw.value} of ${h.draw.total} fell in a share of ${h.draw.weight}`
        : '';
      const tls = h.certificate ? `; TLS terminated with ${h.certificate}` : '';
      const to = h.backend
        ? `→ Service ${ref(h.backend.service)} port ${h.backend.port}${h.backend.endpoint ? `, endpoint ${h.backend.endpoint} (the proxy dials it from its own pod)` : ''}`
        : '';
      const own =
        h.answered !== undefined
          ? `; ${h.implementation} answers ${h.answered} itself (${h.reason ?? ''})`
          : '';
      return [
        'proxy',
        `${h.implementation} in ${ref(h.proxy)}: ${h.scheme} Host ${h.host} path ${h.path} matched ${what}${to ? ` ${to}` : ''}${draw}${tls}${own}`,
      ];
    }
    case 'external':
      return [
        'external',
        `${h.host ?? h.ip} (${h.ip}${h.port !== undefined ? `:${h.port}` : ''}) on the internet`,
      ];
  }
}

export function formatTrace(t: TraceResult): string {
  let out = `trace: ${t.argv.join(' ')} from ${sourceText(t.from)}\n`;
  t.hops.forEach((h, i) => {
    const [tag, text] = hopLine(h);
    out += `${String(i + 1).padStart(2)}  ${tag.padEnd(9)} ${text}\n`;
  });
  out += `result: ${t.summary}\n`;
  if (t.decidingHop && t.outcome !== 'connected' && t.outcome !== 'resolved') {
    const i = t.hops.indexOf(t.decidingHop);
    if (i >= 0) out += `decided at hop ${i + 1} (${t.decidingHop.kind})\n`;
  }
  return out;
}
