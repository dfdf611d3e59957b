/**
 * The packet walk as an event list (Packet Tracer's simulation mode): one step per hop of a
 * `TraceResult`, explained in the page's language, with the diagram elements the hop touches. Pure:
 * the page computes it from the trace the host sends.
 */
import { elementId, objectKey } from '../escape.ts';
import { translator, type Locale, type StringKey } from '../strings.ts';
import type { TopologyModel } from '../topology/types.ts';
import type { Hop, PodRef, Source, TraceResult } from './hops.ts';

export type StepCategory = 'dns' | 'socket' | 'service' | 'nat' | 'policy' | 'route' | 'deliver' | 'drop';

export interface WalkStep {
  readonly index: number;
  readonly kind: Hop['kind'];
  readonly category: StepCategory;
  /** Short label for the list (`DNS query`, `Route`). */
  readonly label: string;
  /** The explanation, one or two sentences. */
  readonly text: string;
  /** A matched rule or chain, shown as code. */
  readonly detail?: string;
  /** Diagram element ids to highlight (`elementId`). */
  readonly targets: readonly string[];
  /** The hop that decided the outcome (a drop, a refusal, the delivery). */
  readonly deciding: boolean;
  /** Passing (`ok`) or the end of the road (`stop`). */
  readonly tone: 'ok' | 'stop' | 'info';
}

export interface WalkView {
  readonly title: string;
  readonly outcome: TraceResult['outcome'];
  readonly outcomeText: string;
  readonly steps: readonly WalkStep[];
}

const ref = (p: PodRef) => objectKey(p.namespace, p.name);
const podId = (p: PodRef) => elementId('pod', ref(p));
const nodeId = (n: string) => elementId('node', n);
const svcId = (p: PodRef) => elementId('svc', ref(p));

function category(h: Hop): StepCategory {
  switch (h.kind) {
    case 'resolv-conf':
    case 'hosts-file':
    case 'dns-query':
    case 'dns-result':
      return 'dns';
    case 'socket':
    case 'port-forward':
      return 'socket';
    case 'service':
    case 'no-endpoints':
    case 'edge-proxy':
      return 'service';
    case 'dnat':
    case 'snat':
      return 'nat';
    case 'network-policy':
      return 'policy';
    case 'route':
    case 'mtu':
      return 'route';
    case 'delivered':
    case 'external':
      return 'deliver';
    case 'netfilter':
    case 'no-route':
    case 'no-listener':
      return 'drop';
  }
}

/** The rules worth showing for a Service hop: the chain names walked and the rule that rewrote. */
function chains(h: Extract<Hop, { kind: 'service' }>): { chains: string; rule?: string } {
  const interesting = h.rules.filter(
    (r) =>
      /^KUBE-(SERVICES|SVC|SEP|EXT|SVL|FW|NODEPORTS)/.test(r.chain) ||
      r.table === 'ipvs' ||
      r.table === 'bpf' ||
      /^(service|endpoint|external|cluster|nodeport|services|service-ips|service-nodeports)/.test(r.chain),
  );
  const names: string[] = [];
  for (const r of interesting) if (names[names.length - 1] !== r.chain) names.push(r.chain);
  const last =
    [...interesting].reverse().find((r) => /DNAT|dnat|->|→/.test(r.rule)) ??
    interesting[interesting.length - 1];
  return { chains: names.join(' → '), ...(last ? { rule: last.rule } : {}) };
}

function dnsServiceId(model: TopologyModel | undefined, server: string): string {
  const s = model?.services.find((x) => x.clusterIP === server);
  return s ? s.id : elementId('svc', 'kube-system/kube-dns');
}

function sourceTargets(from: Source): string[] {
  if (from.kind === 'pod') return [podId(from)];
  if (from.kind === 'node') return [nodeId(from.node)];
  return ['internet'];
}

function stepOf(
  h: Hop,
  i: number,
  trace: TraceResult,
  locale: Locale,
  decidingIndex: number,
  model?: TopologyModel,
): WalkStep {
  const t = translator(locale);
  const src = sourceTargets(trace.from);
  let text = '';
  let detail: string | undefined;
  let targets: string[] = [];
  let tone: WalkStep['tone'] = 'ok';
  switch (h.kind) {
    case 'resolv-conf':
      text = t('walk.resolvConf', {
        nameserver: h.nameserver,
        search: h.search.join(' ') || '—',
        ndots: h.ndots,
        libc: h.libc,
        candidates: h.candidates.join(', '),
      });
      targets = src;
      tone = 'info';
      break;
    case 'hosts-file':
      text = t('walk.hostsFile', { name: h.name, addresses: h.addresses.join(', ') });
      targets = src;
      break;
    case 'dns-query': {
      const p = { type: h.type, name: h.name, server: h.server };
      text =
        h.outcome === 'answered'
          ? t('walk.dnsAnswered', {
              ...p,
              answers: h.answers.length ? h.answers.join(', ') : t('walk.dnsNoRecords'),
              rcode: h.rcode ?? '',
              pod: h.answeredBy ? ref(h.answeredBy) : h.server,
            })
          : t(h.outcome === 'timeout' ? 'walk.dnsTimeout' : 'walk.dnsRefused', p);
      targets = [...src, dnsServiceId(model, h.server), ...(h.answeredBy ? [podId(h.answeredBy)] : [])];
      if (h.outcome !== 'answered') tone = 'stop';
      break;
    }
    case 'dns-result':
      text = h.error
        ? t('walk.dnsFailed', { name: h.name, error: h.error })
        : t('walk.dnsResult', { name: h.name, addresses: h.addresses.join(', ') });
      targets = src;
      if (h.error) tone = 'stop';
      break;
    case 'socket':
      text = t(h.hostNetwork ? 'walk.socketHost' : 'walk.socket', {
        protocol: h.protocol,
        from: h.from,
        to: h.to,
      });
      targets = h.pod ? [podId(h.pod)] : h.node ? [nodeId(h.node)] : h.external ? ['internet'] : src;
      break;
    case 'port-forward':
      text = t('walk.portForward', { local: h.localPort, pod: ref(h.pod), port: h.podPort });
      targets = [podId(h.pod)];
      break;
    case 'service': {
      const c = chains(h);
      const mode = h.mode === 'cilium' ? 'cilium' : h.mode;
      const key: StringKey =
        mode === 'iptables' || mode === 'nftables' || mode === 'ipvs' || mode === 'cilium'
          ? (`walk.service.${mode}` as StringKey)
          : 'walk.service.other';
      text =
        t(key, {
          address: h.address,
          port: h.port,
          service: ref(h.service),
          node: h.node,
          chains: c.chains || mode,
          endpoint: h.endpoint ?? '?',
          pod: h.endpointPod ? t('walk.service.pod', { pod: ref(h.endpointPod) }) : '',
          evaluated: h.evaluatedRules,
          mode,
        }) + (h.established ? t('walk.service.established') : '');
      if (c.rule) detail = t('walk.rule', { rule: c.rule });
      targets = [svcId(h.service), nodeId(h.node), ...(h.endpointPod ? [podId(h.endpointPod)] : [])];
      break;
    }
    case 'netfilter':
      text = t('walk.netfilter', {
        verdict: h.verdict,
        node: h.node,
        table: h.table,
        chain: h.chain,
        service: h.service ? t('walk.netfilter.service', { service: ref(h.service) }) : '',
      });
      detail = t('walk.rule', { rule: h.rule });
      targets = [nodeId(h.node), ...(h.service ? [svcId(h.service)] : [])];
      tone = 'stop';
      break;
    case 'no-endpoints':
      text = t('walk.noEndpoints', { service: ref(h.service), node: h.node });
      targets = [svcId(h.service), nodeId(h.node)];
      tone = 'stop';
      break;
    case 'dnat':
      text = t('walk.dnat', { node: h.node, from: h.from, to: h.to });
      targets = [nodeId(h.node)];
      break;
    case 'snat':
      text = t(`walk.snat.${h.reason}`, { node: h.node, from: h.from, to: h.to });
      targets = [nodeId(h.node)];
      break;
    case 'network-policy': {
      const direction = t(`walk.direction.${h.direction}`);
      const Direction = direction.charAt(0).toUpperCase() + direction.slice(1);
      const port = h.port !== undefined ? t('walk.policy.port', { port: h.port }) : '';
      const base = { direction, Direction, pod: ref(h.pod), peer: h.peer, port };
      if (h.verdict === 'allowed')
        text = h.allowedBy
          ? t('walk.policy.allowed', { ...base, policy: ref(h.allowedBy), rule: h.allowedBy.rule })
          : t('walk.policy.allowedSome', base);
      else if (h.verdict === 'blocked')
        text = t('walk.policy.blocked', { ...base, policies: h.policies.map(ref).join(', ') });
      else if (h.verdict === 'not-isolated') text = t('walk.policy.not-isolated', base);
      else {
        const known = ['not-enforced-by-flannel', 'not-enforced-k3s-disabled', 'no-cni'];
        text = t('walk.policy.not-enforced', {
          ...base,
          policies: h.policies.length
            ? t('walk.policy.selectedBy', { policies: h.policies.map(ref).join(', ') })
            : '',
          reason: known.includes(h.enforcement)
            ? t(`walk.enforcement.${h.enforcement}` as StringKey)
            : t('walk.enforcement.other', { reason: h.enforcement }),
        });
      }
      const policies = h.allowedBy ? [h.allowedBy] : h.verdict === 'blocked' ? h.policies : [];
      targets = [podId(h.pod), ...policies.map((p) => elementId('pol', ref(p)))];
      tone = h.verdict === 'blocked' ? 'stop' : 'ok';
      break;
    }
    case 'route': {
      const tunnel = h.via === 'vxlan' || h.via === 'ipip' || h.via === 'bgp';
      const geneve = h.via === 'vxlan' && h.outer?.port === 6081;
      const params = {
        node: h.node,
        device: h.device,
        toNode: h.toNode ?? '',
        src: h.outer?.src ?? '',
        dst: h.outer?.dst ?? '',
        port: h.outer?.port ?? '',
        text: h.text,
      };
      const key: StringKey = geneve
        ? 'walk.route.geneve'
        : h.via === 'vxlan' ||
            h.via === 'ipip' ||
            h.via === 'bgp' ||
            h.via === 'bridge' ||
            h.via === 'routed-veth'
          ? (`walk.route.${h.via}` as StringKey)
          : 'walk.route.other';
      text =
        t(key, params) +
        (h.mtu !== undefined && h.via !== 'loopback' ? t('walk.route.mtu', { mtu: h.mtu }) : '');
      if (h.outer)
        detail = `outer ${h.outer.src} → ${h.outer.dst} ${h.outer.protocol}${h.outer.port ? ` ${h.outer.port}` : ''}`;
      targets = [
        nodeId(h.node),
        ...(h.toNode ? [nodeId(h.toNode)] : []),
        ...(tunnel && model ? [model.overlay.id] : []),
      ];
      break;
    }
    case 'mtu':
      text = t(h.stalled ? 'walk.mtu.stalled' : 'walk.mtu.ok', {
        podMtu: h.podMtu,
        pathMtu: h.pathMtu,
        bytes: h.bytes,
      });
      targets = model ? [model.overlay.id] : [];
      tone = h.stalled ? 'stop' : 'info';
      break;
    case 'no-route':
      text = t('walk.noRoute', { ip: h.ip, reason: h.reason });
      targets = h.node ? [nodeId(h.node)] : [];
      tone = 'stop';
      break;
    case 'delivered': {
      const who = h.pod ? t('walk.who.pod', { pod: ref(h.pod) }) : t('walk.who.node', { node: h.node ?? '' });
      text = t('walk.delivered', {
        who,
        address: `${h.ip}${h.port !== undefined ? `:${h.port}` : ''}`,
        process: h.process ? t('walk.delivered.process', { process: h.process }) : '',
        client: h.clientIP,
      });
      targets = h.pod ? [podId(h.pod)] : h.node ? [nodeId(h.node)] : [];
      break;
    }
    case 'no-listener': {
      const who = h.pod ? t('walk.who.pod', { pod: ref(h.pod) }) : t('walk.who.node', { node: h.node ?? '' });
      text = t(h.protocol === 'UDP' ? 'walk.noListener.UDP' : 'walk.noListener.TCP', {
        ip: h.ip,
        port: h.port,
        who,
      });
      targets = h.pod ? [podId(h.pod)] : h.node ? [nodeId(h.node)] : [];
      tone = 'stop';
      break;
    }
    case 'edge-proxy': {
      const common = {
        proxy: ref(h.proxy),
        implementation: h.implementation,
        host: h.host,
        path: h.path,
      };
      if (h.answered !== undefined || !h.backend) {
        text = t('walk.edgeProxy.answered', { ...common, status: h.answered ?? 0, reason: h.reason ?? '' });
        tone = 'stop';
      } else {
        text = t('walk.edgeProxy', {
          ...common,
          matched: h.matched ? `${h.matched.kind} ${ref(h.matched.object)} (${h.matched.rule})` : '',
          service: ref(h.backend.service),
          endpoint: h.backend.endpoint ?? '',
        });
      }
      targets = [podId(h.proxy), ...(h.backend ? [svcId(h.backend.service)] : [])];
      break;
    }
    case 'external':
      text = t('walk.external', {
        host: h.host ?? h.ip,
        address: `${h.ip}${h.port !== undefined ? `:${h.port}` : ''}`,
      });
      targets = ['internet'];
      break;
  }
  const deciding = i === decidingIndex && trace.outcome !== 'connected' && trace.outcome !== 'resolved';
  return {
    index: i,
    kind: h.kind,
    category: category(h),
    label: t(`hop.${h.kind}`),
    text: deciding ? `${text} ${t('walk.deciding')}` : text,
    ...(detail !== undefined ? { detail } : {}),
    targets: [...new Set(targets)],
    deciding,
    tone,
  };
}

/** The deciding hop's index; by value too, since a trace that crossed a worker boundary is a copy. */
function decidingIndexOf(trace: TraceResult): number {
  const d = trace.decidingHop;
  if (!d) return -1;
  const same = trace.hops.indexOf(d);
  if (same >= 0) return same;
  const text = JSON.stringify(d);
  for (let i = trace.hops.length - 1; i >= 0; i--) if (JSON.stringify(trace.hops[i]) === text) return i;
  return -1;
}

export function walkView(trace: TraceResult, locale: Locale, model?: TopologyModel): WalkView {
  const t = translator(locale);
  const from =
    trace.from.kind === 'pod'
      ? t('walk.from.pod', { pod: ref(trace.from) })
      : trace.from.kind === 'node'
        ? t('walk.from.node', { node: trace.from.node })
        : t('walk.from.external');
  return {
    title: t('walk.title', { program: trace.argv.join(' '), from, count: trace.hops.length }),
    outcome: trace.outcome,
    outcomeText: t(`walk.outcome.${trace.outcome}`),
    steps: trace.hops.map((h, i) => stepOf(h, i, trace, locale, decidingIndexOf(trace), model)),
  };
}
