/**
 * networking.k8s.io printers: NetworkPolicy (`printNetworkPolicy`: POD-SELECTOR via
 * FormatLabelSelector), Ingress (`printIngress`: CLASS `<none>` when unset, HOSTS `*` when no rule has
 * a host, PORTS `80` or `80, 443` with TLS) and IngressClass (`printIngressClass`).
 */
import type { Ingress, IngressClass, NetworkPolicy } from '../../api/objects.ts';
import { formatLabelSelector } from '../../api/labels.ts';
import { age } from './duration.ts';
import { loadBalancerStatus } from './services.ts';
import type { TableDef } from './table.ts';

export const networkPolicyTable: TableDef<NetworkPolicy> = {
  columns: [{ name: 'Name' }, { name: 'Pod-Selector' }, { name: 'Age' }],
  row(np, ctx) {
    return [
      np.metadata.name,
      formatLabelSelector(np.spec?.podSelector ?? {}),
      age(np.metadata.creationTimestamp, ctx.now),
    ];
  },
};

export function formatIngressHosts(ing: Ingress): string {
  const rules = ing.spec?.rules ?? [];
  const list: string[] = [];
  let more = false;
  for (const r of rules) {
    if (list.length === 3) more = true;
    if (!more && r.host) list.push(r.host);
  }
  if (list.length === 0) return '*';
  return more ? `${list.join(',')} + ${rules.length - 3} more...` : list.join(',');
}

export const ingressTable: TableDef<Ingress> = {
  columns: [
    { name: 'Name' },
    { name: 'Class' },
    { name: 'Hosts' },
    { name: 'Address' },
    { name: 'Ports' },
    { name: 'Age' },
  ],
  row(ing, ctx) {
    return [
      ing.metadata.name,
      ing.spec?.ingressClassName ?? '<none>',
      formatIngressHosts(ing),
      loadBalancerStatus(ing.status?.loadBalancer?.ingress, ctx.wide),
      (ing.spec?.tls ?? []).length > 0 ? '80, 443' : '80',
      age(ing.metadata.creationTimestamp, ctx.now),
    ];
  },
};

export const ingressClassTable: TableDef<IngressClass> = {
  columns: [{ name: 'Name' }, { name: 'Controller' }, { name: 'Parameters' }, { name: 'Age' }],
  row(ic, ctx) {
    const p = ic.spec?.parameters;
    const parameters = p ? `${p.kind}${p.apiGroup ? `.${p.apiGroup}` : ''}/${p.name}` : '<none>';
    return [
      ic.metadata.name,
      ic.spec?.controller ?? '',
      parameters,
      age(ic.metadata.creationTimestamp, ctx.now),
    ];
  },
};
