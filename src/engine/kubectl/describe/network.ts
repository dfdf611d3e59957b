/**
 * Describers for the networking objects (pkg/describe `describeService`, `describeEndpoints`,
 * `describeEndpointSliceV1`, `describeNetworkPolicy` with its "Allowing ingress traffic:" layout,
 * `describeIngressV1`, `describeIngressClassV1`).
 */
import type {
  EndpointSlice,
  Endpoints,
  Event,
  Ingress,
  IngressClass,
  NetworkPolicy,
  Service,
  networking,
} from '../../api/objects.ts';
import { formatLabelSelector, formatLabels } from '../../api/labels.ts';
import { loadBalancerStatus } from '../printers/services.ts';
import { goTimeString, PrefixWriter, writeAnnotations, writeEvents, writeLabels } from './writer.ts';

/** formatEndpointSlices: ready endpoints only, `ip:port`, three then ` + N more...`. */
export function formatEndpointSlices(slices: readonly EndpointSlice[], portName: string | undefined): string {
  if (slices.length === 0) return '<none>';
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const s of slices) {
    const eps = s.endpoints ?? [];
    if ((s.ports ?? []).length === 0) {
      for (const e of eps) {
        if (list.length === max) more = true;
        if (e.conditions?.ready === false) continue;
        if (!more) list.push(e.addresses[0] ?? '');
        count++;
      }
      continue;
    }
    for (const p of s.ports ?? []) {
      if (portName !== undefined && (p.name ?? '') !== portName) continue;
      for (const e of eps) {
        if (list.length === max) more = true;
        if (e.conditions?.ready === false) continue;
        if (!more) list.push(`${e.addresses[0] ?? ''}:${p.port ?? 0}`);
        count++;
      }
    }
  }
  const ret = list.join(',');
  return more ? `${ret} + ${count - max} more...` : ret;
}

export function describeService(
  svc: Service,
  slices: readonly EndpointSlice[],
  events: readonly Event[] | undefined,
  now: number,
): string {
  const w = new PrefixWriter();
  const spec = svc.spec ?? {};
  w.write(0, `Name:\t${svc.metadata.name}\n`);
  w.write(0, `Namespace:\t${svc.metadata.namespace ?? ''}\n`);
  writeLabels(w, 'Labels', svc.metadata.labels);
  writeAnnotations(w, 'Annotations', svc.metadata.annotations);
  w.write(0, `Selector:\t${formatLabels(spec.selector)}\n`);
  w.write(0, `Type:\t${spec.type ?? ''}\n`);
  if (spec.ipFamilyPolicy) w.write(0, `IP Family Policy:\t${spec.ipFamilyPolicy}\n`);
  w.write(0, `IP Families:\t${(spec.ipFamilies ?? []).length > 0 ? spec.ipFamilies!.join(',') : '<none>'}\n`);
  w.write(0, `IP:\t${spec.clusterIP ?? ''}\n`);
  w.write(0, `IPs:\t${(spec.clusterIPs ?? []).length > 0 ? spec.clusterIPs!.join(',') : '<none>'}\n`);
  if ((spec.externalIPs ?? []).length > 0) w.write(0, `External IPs:\t${spec.externalIPs!.join(',')}\n`);
  if (spec.loadBalancerIP) w.write(0, `Desired LoadBalancer IP:\t${spec.loadBalancerIP}\n`);
  if (spec.externalName) w.write(0, `External Name:\t${spec.externalName}\n`);
  const ingress = svc.status?.loadBalancer?.ingress ?? [];
  if (ingress.length > 0) {
    const list = ingress
      .map((i) => (i.ip ? `${i.ip}${i.ipMode ? ` (${i.ipMode})` : ''}` : (i.hostname ?? '')))
      .join(', ');
    w.write(0, `LoadBalancer Ingress:\t${list}\n`);
  }
  for (const sp of spec.ports ?? []) {
    const name = sp.name || '<unset>';
    const proto = sp.protocol ?? 'TCP';
    w.write(0, `Port:\t${name}\t${sp.port}/${proto}\n`);
    w.write(0, `TargetPort:\t${String(sp.targetPort ?? sp.port)}/${proto}\n`);
    if (sp.appProtocol) w.write(0, `AppProtocol:\t${sp.appProtocol}\n`);
    if (sp.nodePort) w.write(0, `NodePort:\t${name}\t${sp.nodePort}/${proto}\n`);
    w.write(0, `Endpoints:\t${formatEndpointSlices(slices, sp.name ?? '')}\n`);
  }
  w.write(0, `Session Affinity:\t${spec.sessionAffinity ?? ''}\n`);
  if (spec.externalTrafficPolicy) w.write(0, `External Traffic Policy:\t${spec.externalTrafficPolicy}\n`);
  if (spec.internalTrafficPolicy) w.write(0, `Internal Traffic Policy:\t${spec.internalTrafficPolicy}\n`);
  if (spec.healthCheckNodePort) w.write(0, `HealthCheck NodePort:\t${spec.healthCheckNodePort}\n`);
  if ((spec.loadBalancerSourceRanges ?? []).length > 0)
    w.write(0, `LoadBalancer Source Ranges:\t${spec.loadBalancerSourceRanges!.join(',')}\n`);
  if (spec.trafficDistribution) w.write(0, `Traffic Distribution:\t${spec.trafficDistribution}\n`);
  writeEvents(w, events, now);
  return w.toString();
}

export function describeEndpoints(ep: Endpoints, events: readonly Event[] | undefined, now: number): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${ep.metadata.name}\n`);
  w.write(0, `Namespace:\t${ep.metadata.namespace ?? ''}\n`);
  writeLabels(w, 'Labels', ep.metadata.labels);
  writeAnnotations(w, 'Annotations', ep.metadata.annotations);
  w.write(0, 'Subsets:\n');
  for (const ss of ep.subsets ?? []) {
    w.write(1, `Addresses:\t${(ss.addresses ?? []).map((a) => a.ip).join(',') || '<none>'}\n`);
    w.write(
      1,
      `NotReadyAddresses:\t${(ss.notReadyAddresses ?? []).map((a) => a.ip).join(',') || '<none>'}\n`,
    );
    if ((ss.ports ?? []).length > 0) {
      w.write(1, 'Ports:\n');
      w.write(2, 'Name\tPort\tProtocol\n');
      w.write(2, '----\t----\t--------\n');
      for (const p of ss.ports!) w.write(2, `${p.name || '<unset>'}\t${p.port}\t${p.protocol ?? 'TCP'}\n`);
    }
    w.write(0, '\n');
  }
  writeEvents(w, events, now);
  return w.toString();
}

export function describeEndpointSlice(
  s: EndpointSlice,
  events: readonly Event[] | undefined,
  now: number,
): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${s.metadata.name}\n`);
  w.write(0, `Namespace:\t${s.metadata.namespace ?? ''}\n`);
  writeLabels(w, 'Labels', s.metadata.labels);
  writeAnnotations(w, 'Annotations', s.metadata.annotations);
  w.write(0, `AddressType:\t${s.addressType}\n`);
  if ((s.ports ?? []).length === 0) w.write(0, 'Ports: <unset>\n');
  else {
    w.write(0, 'Ports:\n');
    w.write(1, 'Name\tPort\tProtocol\n');
    w.write(1, '----\t----\t--------\n');
    for (const p of s.ports!)
      w.write(1, `${p.name || '<unset>'}\t${p.port != null ? p.port : '<unset>'}\t${p.protocol ?? 'TCP'}\n`);
  }
  if ((s.endpoints ?? []).length === 0) w.write(0, 'Endpoints: <none>\n');
  else {
    w.write(0, 'Endpoints:\n');
    for (const e of s.endpoints) {
      w.write(1, `- Addresses:\t${e.addresses.join(', ') || '<none>'}\n`);
      w.write(2, 'Conditions:\n');
      w.write(3, `Ready:\t${e.conditions?.ready == null ? '<unset>' : String(e.conditions.ready)}\n`);
      w.write(2, `Hostname:\t${e.hostname ?? '<unset>'}\n`);
      if (e.targetRef) w.write(2, `TargetRef:\t${e.targetRef.kind ?? ''}/${e.targetRef.name ?? ''}\n`);
      w.write(2, `NodeName:\t${e.nodeName ?? '<unset>'}\n`);
      w.write(2, `Zone:\t${e.zone ?? '<unset>'}\n`);
    }
  }
  writeEvents(w, events, now);
  return w.toString();
}

type Peer = networking.NetworkPolicyPeer;
type PolicyPort = networking.NetworkPolicyPort;

function writePorts(w: PrefixWriter, ports: readonly PolicyPort[] | undefined, indent: string): void {
  if ((ports ?? []).length === 0) {
    w.write(0, `${indent}To Port: <any> (traffic allowed to all ports)\n`);
    return;
  }
  for (const p of ports!) {
    const proto = p.protocol ?? 'TCP';
    const port = p.port === undefined ? '<nil>' : String(p.port);
    if (p.endPort == null) w.write(0, `${indent}To Port: ${port}/${proto}\n`);
    else w.write(0, `${indent}To Port Range: ${port}-${p.endPort}/${proto}\n`);
  }
}

function writePeers(
  w: PrefixWriter,
  peers: readonly Peer[] | undefined,
  indent: string,
  word: 'From' | 'To',
  anyText: string,
): void {
  if ((peers ?? []).length === 0) {
    w.write(0, `${indent}${word}: <any> (${anyText})\n`);
    return;
  }
  for (const p of peers!) {
    w.write(0, `${indent}${word}:\n`);
    if (p.podSelector && p.namespaceSelector) {
      w.write(1, `${indent}NamespaceSelector: ${formatLabelSelector(p.namespaceSelector)}\n`);
      w.write(1, `${indent}PodSelector: ${formatLabelSelector(p.podSelector)}\n`);
    } else if (p.podSelector) w.write(1, `${indent}PodSelector: ${formatLabelSelector(p.podSelector)}\n`);
    else if (p.namespaceSelector)
      w.write(1, `${indent}NamespaceSelector: ${formatLabelSelector(p.namespaceSelector)}\n`);
    else if (p.ipBlock) {
      w.write(1, `${indent}IPBlock:\n`);
      w.write(2, `${indent}CIDR: ${p.ipBlock.cidr}\n`);
      w.write(2, `${indent}Except: ${(p.ipBlock.except ?? []).join(', ')}\n`);
    }
  }
}

export function describeNetworkPolicy(np: NetworkPolicy): string {
  const w = new PrefixWriter();
  const spec = np.spec ?? { podSelector: {} };
  w.write(0, `Name:\t${np.metadata.name}\n`);
  w.write(0, `Namespace:\t${np.metadata.namespace ?? ''}\n`);
  w.write(0, `Created on:\t${goTimeString(np.metadata.creationTimestamp)}\n`);
  writeLabels(w, 'Labels', np.metadata.labels);
  writeAnnotations(w, 'Annotations', np.metadata.annotations);
  w.write(0, 'Spec:\n');
  w.write(1, 'PodSelector: ');
  const sel = spec.podSelector ?? {};
  if (Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0) {
    w.write(2, '<none> (Allowing the specific traffic to all pods in this namespace)\n');
  } else w.write(2, `${formatLabelSelector(sel)}\n`);
  const types = spec.policyTypes ?? [];
  const indent = '    ';
  if (types.includes('Ingress')) {
    w.write(1, 'Allowing ingress traffic:\n');
    const rules = spec.ingress ?? [];
    if (rules.length === 0)
      w.write(0, `${indent}<none> (Selected pods are isolated for ingress connectivity)\n`);
    rules.forEach((r, i) => {
      writePorts(w, r.ports, indent);
      writePeers(w, r.from, indent, 'From', 'traffic not restricted by source');
      if (i !== rules.length - 1) w.write(0, `${indent}----------\n`);
    });
  } else w.write(1, 'Not affecting ingress traffic\n');
  if (types.includes('Egress')) {
    w.write(1, 'Allowing egress traffic:\n');
    const rules = spec.egress ?? [];
    if (rules.length === 0)
      w.write(0, `${indent}<none> (Selected pods are isolated for egress connectivity)\n`);
    rules.forEach((r, i) => {
      writePorts(w, r.ports, indent);
      writePeers(w, r.to, indent, 'To', 'traffic not restricted by destination');
      if (i !== rules.length - 1) w.write(0, `${indent}----------\n`);
    });
  } else w.write(1, 'Not affecting egress traffic\n');
  w.write(1, `Policy Types: ${types.join(', ') || '<none>'}\n`);
  return w.toString();
}

export interface BackendLookup {
  /** EndpointSlices of a Service, and its port name for a backend port. */
  endpointsFor(namespace: string, service: string, port: { number?: number; name?: string }): string;
}

function backendText(ns: string, b: networking.IngressBackend | undefined, lookup: BackendLookup): string {
  if (b?.service) {
    const port = b.service.port?.number ? String(b.service.port.number) : (b.service.port?.name ?? '');
    return `${b.service.name}:${port} (${lookup.endpointsFor(ns, b.service.name, b.service.port ?? {})})`;
  }
  if (b?.resource)
    return `APIGroup: ${b.resource.apiGroup ?? '<none>'}, Kind: ${b.resource.kind}, Name: ${b.resource.name}`;
  return '';
}

export function describeIngress(
  ing: Ingress,
  events: readonly Event[] | undefined,
  now: number,
  lookup: BackendLookup,
): string {
  const w = new PrefixWriter();
  const ns = ing.metadata.namespace ?? '';
  w.write(0, `Name:\t${ing.metadata.name}\n`);
  writeLabels(w, 'Labels', ing.metadata.labels);
  w.write(0, `Namespace:\t${ns}\n`);
  w.write(0, `Address:\t${loadBalancerStatus(ing.status?.loadBalancer?.ingress, true)}\n`);
  w.write(0, `Ingress Class:\t${ing.spec?.ingressClassName ?? '<none>'}\n`);
  const def = ing.spec?.defaultBackend ? backendText(ns, ing.spec.defaultBackend, lookup) : '<default>';
  w.write(0, `Default backend:\t${def}\n`);
  if ((ing.spec?.tls ?? []).length > 0) {
    w.write(0, 'TLS:\n');
    for (const t of ing.spec!.tls!) {
      if (!t.secretName) w.write(1, `SNI routes ${(t.hosts ?? []).join(',')}\n`);
      else w.write(1, `${t.secretName} terminates ${(t.hosts ?? []).join(',')}\n`);
    }
  }
  w.write(0, 'Rules:\n  Host\tPath\tBackends\n');
  w.write(1, '----\t----\t--------\n');
  let count = 0;
  for (const r of ing.spec?.rules ?? []) {
    if (!r.http) continue;
    count++;
    w.write(1, `${r.host || '*'}\t\n`);
    for (const p of r.http.paths) w.write(2, `\t${p.path ?? ''} \t${backendText(ns, p.backend, lookup)}\n`);
  }
  if (count === 0) w.write(1, `*\t*\t${def}\n`);
  writeAnnotations(w, 'Annotations', ing.metadata.annotations);
  writeEvents(w, events, now);
  return w.toString();
}

export function describeIngressClass(
  ic: IngressClass,
  events: readonly Event[] | undefined,
  now: number,
): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${ic.metadata.name}\n`);
  writeLabels(w, 'Labels', ic.metadata.labels);
  writeAnnotations(w, 'Annotations', ic.metadata.annotations);
  w.write(0, `Controller:\t${ic.spec?.controller ?? ''}\n`);
  const p = ic.spec?.parameters;
  if (p) {
    w.write(0, 'Parameters:\n');
    if (p.apiGroup) w.write(1, `APIGroup:\t${p.apiGroup}\n`);
    w.write(1, `Kind:\t${p.kind}\n`);
    w.write(1, `Name:\t${p.name}\n`);
  }
  writeEvents(w, events, now);
  return w.toString();
}
