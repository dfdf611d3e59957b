/**
 * The diagram's text equivalent: the same facts as a nested list, in the page's language, for screen
 * readers (and for anyone who prefers reading). `topologyText` returns data; `textListHtml` turns it
 * into escaped `<ul>` markup.
 */
import { escapeXml } from '../escape.ts';
import { translator, type Locale } from '../strings.ts';
import { overlayText } from './svg.ts';
import type { TopologyModel } from './types.ts';

export interface TextItem {
  readonly text: string;
  readonly children?: readonly TextItem[];
}

export function topologyText(model: TopologyModel, locale: Locale): TextItem[] {
  const t = translator(locale);
  const none = t('text.none');
  const items: TextItem[] = [];
  items.push({
    text: t('text.cluster', {
      distribution: model.distribution,
      cni: model.cni,
      mode: model.kubeProxyMode,
      podSubnet: model.podSubnet,
      serviceSubnet: model.serviceSubnet,
    }),
  });
  if (model.entries.length > 0)
    items.push({
      text: t('text.entries', { count: model.entries.length }),
      children: model.entries.map((e) => ({
        text: t('text.entry', {
          kind: t(`topo.entry.${e.kind}`),
          key: e.key,
          addresses: e.addresses.join(', ') || none,
          listeners: e.listeners.join(', ') || none,
          services: e.services.join(', ') || none,
        }),
      })),
    });
  const dns = model.services.find((s) => s.dns);
  if (dns)
    items.push({
      text: t('text.dns', { ip: dns.clusterIP, pods: dns.backends.join(', ') || t('text.service.none') }),
    });
  items.push({
    text: `${t('text.services', { count: model.services.length })}. ${t(`topo.rewrite.${model.rewrite}`)}.`,
    children: model.services.map((s) => ({
      text: t('text.service', {
        key: s.key,
        type: s.type,
        address: s.clusterIP === 'None' || !s.clusterIP ? t('topo.svc.headless') : s.clusterIP,
        ports:
          s.ports
            .map(
              (p) =>
                `${p.port}/${p.protocol} → ${p.targetPort}${p.nodePort ? ` (NodePort ${p.nodePort})` : ''}`,
            )
            .join(', ') || none,
        backends: s.backends.join(', ') || t('text.service.none'),
      }),
    })),
  });
  items.push({
    text: t('text.nodes', { count: model.nodes.length }),
    children: model.nodes.map((n) => ({
      text: t('text.node', {
        name: n.name,
        role: t(n.controlPlane ? 'text.role.controlPlane' : 'text.role.worker'),
        ip: n.ip,
        cidr: n.podCIDR,
        count: n.pods.length + n.hostPods.length,
      }),
      children: [
        ...n.pods.map((p) => ({
          text: p.ip
            ? t('text.pod', { key: p.key, ip: p.ip })
            : t('text.pod.noIP', { key: p.key, phase: p.phase }),
        })),
        ...(n.hostPods.length
          ? [
              {
                text: t('topo.node.hostNetwork', {
                  count: n.hostPods.length,
                  list: n.hostPods.map((h) => h.key).join(', '),
                }),
              },
            ]
          : []),
      ],
    })),
  });
  if (model.unscheduled.length > 0)
    items.push({ text: t('topo.unscheduled', { list: model.unscheduled.map((p) => p.key).join(', ') }) });
  items.push({ text: t('text.overlay', { overlay: overlayText(model, locale) }) });
  if (model.policies.length > 0)
    items.push({
      text: `${t('text.policies', { count: model.policies.length })}${model.policyEnforced ? '' : `: ${t('topo.policy.notEnforced', { cni: model.cni })}`}`,
      children: model.policies.map((p) => ({
        text: t('text.policy', {
          key: p.key,
          types: p.types.join(', '),
          selector: p.selector,
          pods: p.selects.join(', ') || none,
        }),
        children: [
          ...(p.types.includes('Ingress') && p.ingress.length === 0
            ? [{ text: t('topo.policy.denyIngress') }]
            : []),
          ...p.ingress.map((rule, i) => ({
            text: t('text.policy.ingress', {
              n: i + 1,
              peers: rule.peers.join(', ') || t('topo.policy.anyPeer'),
              ports: rule.ports.join(', ') || t('topo.policy.anyPort'),
            }),
          })),
          ...(p.types.includes('Egress') && p.egress.length === 0
            ? [{ text: t('topo.policy.denyEgress') }]
            : []),
          ...p.egress.map((rule, i) => ({
            text: t('text.policy.egress', {
              n: i + 1,
              peers: rule.peers.join(', ') || t('topo.policy.anyPeer'),
              ports: rule.ports.join(', ') || t('topo.policy.anyPort'),
            }),
          })),
        ],
      })),
    });
  return items;
}

export function textListHtml(items: readonly TextItem[]): string {
  if (items.length === 0) return '';
  return `<ul>${items
    .map(
      (i) =>
        `<li>${escapeXml(i.text)}${i.children && i.children.length ? textListHtml(i.children) : ''}</li>`,
    )
    .join('')}</ul>`;
}
