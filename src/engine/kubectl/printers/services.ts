/**
 * `kubectl get services` (`printService`, `getServiceExternalIP`, `makePortString`): CLUSTER-IP is
 * the first of spec.clusterIPs, EXTERNAL-IP depends on the type (`<none>`, `<pending>`, load-balancer
 * ingress clipped to 16 characters unless wide, or the ExternalName), PORT(S) is `80/TCP` or
 * `80:30080/TCP`.
 */
import type { Service, core } from '../../api/objects.ts';
import { formatLabels } from '../../api/labels.ts';
import { age } from './duration.ts';
import type { TableDef } from './table.ts';

const LOAD_BALANCER_WIDTH = 16;

/** `loadBalancerStatusStringer`: distinct IPs or hostnames, sorted, clipped unless wide. */
export function loadBalancerStatus(
  ingress: readonly { ip?: string; hostname?: string }[] | undefined,
  wide: boolean,
): string {
  const set = new Set<string>();
  for (const i of ingress ?? []) {
    if (i.ip) set.add(i.ip);
    else if (i.hostname) set.add(i.hostname);
  }
  const r = [...set].sort().join(',');
  return !wide && r.length > LOAD_BALANCER_WIDTH ? `${r.slice(0, LOAD_BALANCER_WIDTH - 3)}...` : r;
}

export function serviceExternalIP(svc: Service, wide: boolean): string {
  const externalIPs = svc.spec?.externalIPs ?? [];
  switch (svc.spec?.type ?? 'ClusterIP') {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerStatus(svc.status?.loadBalancer?.ingress, wide);
      if (externalIPs.length > 0) return [...(lb ? lb.split(',') : []), ...externalIPs].join(',');
      return lb || '<pending>';
    }
    case 'ExternalName':
      return svc.spec?.externalName ?? '';
  }
  return '<unknown>';
}

export function makePortString(ports: readonly core.ServicePort[] | undefined): string {
  return (ports ?? [])
    .map((p) =>
      p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol ?? 'TCP'}` : `${p.port}/${p.protocol ?? 'TCP'}`,
    )
    .join(',');
}

export const serviceTable: TableDef<Service> = {
  columns: [
    { name: 'Name' },
    { name: 'Type' },
    { name: 'Cluster-IP' },
    { name: 'External-IP' },
    { name: 'Port(s)' },
    { name: 'Age' },
    { name: 'Selector', wide: true },
  ],
  row(svc, ctx) {
    return [
      svc.metadata.name,
      svc.spec?.type ?? '',
      svc.spec?.clusterIPs?.[0] ?? svc.spec?.clusterIP ?? '<none>',
      serviceExternalIP(svc, ctx.wide),
      makePortString(svc.spec?.ports) || '<none>',
      age(svc.metadata.creationTimestamp, ctx.now),
      formatLabels(svc.spec?.selector),
    ];
  },
};
