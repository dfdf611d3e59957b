/**
 * CoreDNS's `kubernetes` plugin: the records it serves for Services, endpoints and pods
 * (coredns `plugin/kubernetes/{parse,kubernetes,reverse,handler}.go`, `plugin/backend_lookup.go`).
 *
 * Request shapes (parse.go): `service.ns.svc.zone`, `endpoint.service.ns.svc.zone`,
 * `_port._proto.service.ns.svc.zone`, `a-b-c-d.ns.pod.zone`; anything longer, or a last label other than
 * `svc`/`pod`, is NXDOMAIN. Answers are authoritative with the `ttl` of the stanza; negative answers carry
 * `zone TTL IN SOA ns.dns.zone. hostmaster.zone. <serial> 7200 1800 86400 TTL`.
 *
 * Simplified: IPv4 only (AAAA queries for Services are NODATA, as for an IPv4-only cluster); no wildcard
 * queries, no `autopath`, no multicluster.
 */
import type { EndpointSlice, Namespace, Pod, Service } from '../../api/objects.ts';
import type { KubernetesConfig } from './corefile.ts';
import { addressFromReverse, fqdn, isSubdomain, labels, type QType, type RR } from './message.ts';
import { parseIPv4 } from '../../util/ip.ts';

export interface ClusterObjects {
  readonly services: readonly Service[];
  readonly endpointSlices: readonly EndpointSlice[];
  readonly pods: readonly Pod[];
  /** When absent, a namespace exists if any Service or Pod lives in it. */
  readonly namespaces?: readonly Namespace[];
}

export interface EndpointAddress {
  readonly ip: string;
  readonly hostname?: string;
  readonly podName?: string;
  readonly ports: readonly { readonly name: string; readonly port: number; readonly protocol: string }[];
}

/** Lookup indexes over the cluster objects, built once per object set. */
export class ClusterIndex {
  readonly services = new Map<string, Service>();
  readonly endpoints = new Map<string, EndpointAddress[]>();
  readonly namespaces = new Set<string>();
  readonly podIPs = new Map<string, Pod[]>();
  readonly byClusterIP = new Map<string, Service[]>();

  constructor(objs: ClusterObjects) {
    for (const s of objs.services) {
      const ns = s.metadata.namespace ?? 'default';
      this.services.set(`${ns}/${s.metadata.name}`, s);
      this.namespaces.add(ns);
      for (const ip of clusterIPs(s)) push(this.byClusterIP, ip, s);
    }
    for (const slice of objs.endpointSlices) {
      const ns = slice.metadata.namespace ?? 'default';
      const svc = slice.metadata.labels?.['kubernetes.io/service-name'];
      if (!svc || slice.addressType !== 'IPv4') continue;
      const ports = (slice.ports ?? []).map((p) => ({
        name: p.name ?? '',
        port: p.port ?? 0,
        protocol: p.protocol ?? 'TCP',
      }));
      const key = `${ns}/${svc}`;
      const list = this.endpoints.get(key) ?? [];
      for (const ep of slice.endpoints ?? []) {
        // A nil `ready` means ready (EndpointConditions doc); CoreDNS only serves ready addresses.
        if (ep.conditions?.ready === false) continue;
        for (const ip of ep.addresses ?? []) {
          const podName = ep.targetRef?.kind === 'Pod' ? ep.targetRef.name : undefined;
          list.push({ ip, hostname: ep.hostname, podName, ports });
        }
      }
      this.endpoints.set(key, list);
    }
    for (const p of objs.pods) {
      const ns = p.metadata.namespace ?? 'default';
      this.namespaces.add(ns);
      const ip = p.status?.podIP;
      if (ip) push(this.podIPs, ip, p);
    }
    for (const n of objs.namespaces ?? []) this.namespaces.add(n.metadata.name);
    if (objs.namespaces) {
      const names = new Set(objs.namespaces.map((n) => n.metadata.name));
      for (const n of [...this.namespaces]) if (!names.has(n)) this.namespaces.delete(n);
    }
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
}

function clusterIPs(s: Service): string[] {
  const ips = s.spec?.clusterIPs ?? (s.spec?.clusterIP ? [s.spec.clusterIP] : []);
  return ips.filter((ip) => ip !== 'None' && ip !== '');
}

const indexCache = new WeakMap<object, ClusterIndex>();

/** The index for an object set; cached on the `services` array so repeated queries stay cheap. */
export function clusterIndex(objs: ClusterObjects): ClusterIndex {
  let idx = indexCache.get(objs.services);
  if (!idx) {
    idx = new ClusterIndex(objs);
    indexCache.set(objs.services, idx);
  }
  return idx;
}

/** The plugin's result before the server adds flags: a name error, or records (possibly none = NODATA). */
export interface KubernetesResult {
  readonly nameError: boolean;
  readonly answer: RR[];
  readonly additional: RR[];
  /** ExternalName targets outside the zone that the server must resolve upstream and append. */
  readonly chase?: { readonly target: string; readonly type: QType };
}

const NXDOMAIN: KubernetesResult = { nameError: true, answer: [], additional: [] };
const NODATA: KubernetesResult = { nameError: false, answer: [], additional: [] };

/** `endpointHostname`: the address's hostname, else the pod name with endpoint_pod_names, else the dashed IP. */
export function endpointHostname(ep: EndpointAddress, podNames: boolean): string {
  if (ep.hostname) return ep.hostname;
  if (podNames && ep.podName) return ep.podName;
  return ep.ip.replaceAll('.', '-');
}

interface SvcRecord {
  readonly host: string;
  readonly port: number;
  /** The SRV target / PTR name. */
  readonly target: string;
  readonly cname: boolean;
}

function match(want: string, have: string): boolean {
  return want === '*' || want === 'any' || want.toLowerCase() === have.toLowerCase();
}

/** Answers a query for `qname` inside `zone` (the matched zone of the stanza). */
export function kubernetesLookup(
  qname: string,
  qtype: QType,
  zone: string,
  cfg: KubernetesConfig,
  idx: ClusterIndex,
): KubernetesResult {
  const primary = cfg.zones.find((z) => !z.endsWith('.arpa.')) ?? zone;
  if (qtype === 'PTR' || zone.endsWith('.arpa.')) return reverse(qname, qtype, primary, cfg, idx);
  if (qtype === 'TXT' && qname === `dns-version.${zone}`) {
    return {
      nameError: false,
      answer: [{ name: qname, ttl: 28800, type: 'TXT', text: ['1.1.0'] }],
      additional: [],
    };
  }
  if (qname === zone) {
    if (qtype === 'NS') return nsRecords(zone, cfg, idx);
    return NODATA;
  }
  const segs = labels(qname).slice(0, labels(qname).length - labels(zone).length);
  const podOrSvc = segs[segs.length - 1]!;
  if (podOrSvc !== 'svc' && podOrSvc !== 'pod') return NXDOMAIN;
  if (segs.length === 1) return NODATA;
  const namespace = segs[segs.length - 2]!;
  const exposed =
    idx.namespaces.has(namespace) && (cfg.namespaces.length === 0 || cfg.namespaces.includes(namespace));
  if (segs.length === 2) return exposed ? NODATA : NXDOMAIN;
  const service = segs[segs.length - 3]!;
  const rest = segs.slice(0, -3);
  if (rest.length > 2) return NXDOMAIN;
  if (podOrSvc === 'pod') {
    if (rest.length > 0) return NXDOMAIN;
    return podRecords(qname, qtype, namespace, service, cfg, idx, exposed);
  }
  if (!exposed) return NXDOMAIN;
  const endpoint = rest.length === 1 ? rest[0]! : '';
  const port = rest.length === 2 ? rest[0]!.replace(/^_/, '') : '*';
  const protocol = rest.length === 2 ? rest[1]!.replace(/^_/, '') : '*';
  const svc = idx.services.get(`${namespace}/${service}`);
  if (!svc) return NXDOMAIN;
  const records = findRecords(svc, endpoint, port, protocol, primary, cfg, idx);
  if (records.length === 0) return NXDOMAIN;
  return toAnswer(qname, qtype, records, cfg);
}

function findRecords(
  svc: Service,
  endpoint: string,
  port: string,
  protocol: string,
  zone: string,
  cfg: KubernetesConfig,
  idx: ClusterIndex,
): SvcRecord[] {
  const ns = svc.metadata.namespace ?? 'default';
  const base = `${svc.metadata.name}.${ns}.svc.${zone}`;
  const out: SvcRecord[] = [];
  const headless = svc.spec?.clusterIP === 'None';
  if (headless || endpoint !== '') {
    for (const ep of idx.endpoints.get(`${ns}/${svc.metadata.name}`) ?? []) {
      const host = endpointHostname(ep, cfg.endpointPodNames);
      if (endpoint !== '' && !match(endpoint, host)) continue;
      for (const p of ep.ports) {
        if (!match(port, p.name) || !match(protocol, p.protocol)) continue;
        out.push({ host: ep.ip, port: p.port, target: `${host}.${base}`, cname: false });
      }
    }
    return out;
  }
  if (svc.spec?.type === 'ExternalName') {
    const ext = svc.spec.externalName;
    if (ext && parseIPv4(ext) === undefined)
      out.push({ host: fqdn(ext), port: 0, target: base, cname: true });
    return out;
  }
  for (const p of svc.spec?.ports ?? []) {
    if (!match(port, p.name ?? '') || !match(protocol, p.protocol ?? 'TCP')) continue;
    for (const ip of clusterIPs(svc)) out.push({ host: ip, port: p.port, target: base, cname: false });
  }
  return out;
}

function toAnswer(
  qname: string,
  qtype: QType,
  records: SvcRecord[],
  cfg: KubernetesConfig,
): KubernetesResult {
  const ttl = cfg.ttl;
  const cname = records.find((r) => r.cname);
  if (cname) {
    const rr: RR = { name: qname, ttl, type: 'CNAME', target: cname.host };
    if (qtype === 'A' || qtype === 'AAAA')
      return { nameError: false, answer: [rr], additional: [], chase: { target: cname.host, type: qtype } };
    if (qtype === 'CNAME') return { nameError: false, answer: [rr], additional: [] };
    if (qtype === 'SRV') {
      return {
        nameError: false,
        answer: [
          { name: qname, ttl, type: 'SRV', priority: 0, weight: 100, port: cname.port, target: cname.host },
        ],
        additional: [],
      };
    }
    return NODATA;
  }
  if (qtype === 'A') {
    const seen = new Set<string>();
    const answer: RR[] = [];
    for (const r of records) {
      if (seen.has(r.host) || parseIPv4(r.host) === undefined) continue;
      seen.add(r.host);
      answer.push({ name: qname, ttl, type: 'A', address: r.host });
    }
    return { nameError: false, answer, additional: [] };
  }
  if (qtype === 'SRV') {
    // backend_lookup.go: weight = 100 / (records in the priority group), as an integer.
    const unique = dedupe(records, (r) => `${r.target}|${r.host}|${r.port}`);
    const weight = Math.floor(100 / unique.length);
    const answer: RR[] = unique.map((r) => ({
      name: qname,
      ttl,
      type: 'SRV',
      priority: 0,
      weight,
      port: r.port,
      target: r.target,
    }));
    const additional: RR[] = dedupe(unique, (r) => r.target).map((r) => ({
      name: r.target,
      ttl,
      type: 'A',
      address: r.host,
    }));
    return { nameError: false, answer, additional };
  }
  return NODATA;
}

function dedupe<T>(xs: readonly T[], key: (x: T) => string): T[] {
  const seen = new Set<string>();
  return xs.filter((x) => {
    const k = key(x);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function podRecords(
  qname: string,
  qtype: QType,
  namespace: string,
  podLabel: string,
  cfg: KubernetesConfig,
  idx: ClusterIndex,
  exposed: boolean,
): KubernetesResult {
  if (cfg.pods === 'disabled' || !exposed) return NXDOMAIN;
  // "a-b-c-d" is an IPv4 address with dashes (three dashes, no "--"); IPv6 forms are out of scope.
  if ((podLabel.match(/-/g) ?? []).length !== 3 || podLabel.includes('--')) return NXDOMAIN;
  const ip = podLabel.replaceAll('-', '.');
  if (parseIPv4(ip) === undefined) return NXDOMAIN;
  if (cfg.pods === 'verified') {
    const pods = idx.podIPs.get(ip) ?? [];
    if (!pods.some((p) => (p.metadata.namespace ?? 'default') === namespace)) return NXDOMAIN;
  }
  if (qtype !== 'A') return NODATA;
  return {
    nameError: false,
    answer: [{ name: qname, ttl: cfg.ttl, type: 'A', address: ip }],
    additional: [],
  };
}

/** reverse.go: a ClusterIP maps to its Service, else every endpoint with that IP to its endpoint name. */
function reverse(
  qname: string,
  qtype: QType,
  zone: string,
  cfg: KubernetesConfig,
  idx: ClusterIndex,
): KubernetesResult {
  const ip = addressFromReverse(qname);
  if (!ip) return isSubdomain(qname, 'in-addr.arpa.') || isSubdomain(qname, 'ip6.arpa.') ? NXDOMAIN : NODATA;
  const targets: string[] = [];
  for (const s of idx.byClusterIP.get(ip) ?? [])
    targets.push(`${s.metadata.name}.${s.metadata.namespace ?? 'default'}.svc.${zone}`);
  if (targets.length === 0) {
    for (const [key, eps] of [...idx.endpoints.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const [ns, name] = key.split('/') as [string, string];
      for (const ep of eps) {
        if (ep.ip !== ip) continue;
        const t = `${endpointHostname(ep, cfg.endpointPodNames)}.${name}.${ns}.svc.${zone}`;
        if (!targets.includes(t)) targets.push(t);
      }
    }
  }
  if (targets.length === 0) return NXDOMAIN;
  if (qtype !== 'PTR') return NODATA;
  return {
    nameError: false,
    answer: targets.map((t) => ({ name: qname, ttl: cfg.ttl, type: 'PTR', target: t })),
    additional: [],
  };
}

function nsRecords(zone: string, cfg: KubernetesConfig, idx: ClusterIndex): KubernetesResult {
  const ns = `ns.dns.${zone}`;
  const dnsSvc = idx.services.get('kube-system/kube-dns');
  const additional: RR[] = dnsSvc
    ? clusterIPs(dnsSvc).map((ip) => ({ name: ns, ttl: cfg.ttl, type: 'A', address: ip }))
    : [];
  return { nameError: false, answer: [{ name: zone, ttl: cfg.ttl, type: 'NS', target: ns }], additional };
}

/** The SOA CoreDNS puts in the authority section of negative answers (backend_lookup.go `SOA`). */
export function soaRecord(zone: string, ttl: number, serial: number): RR {
  const t = Math.min(ttl, 300);
  return {
    name: zone,
    ttl: t,
    type: 'SOA',
    mname: `ns.dns.${zone}`,
    rname: `hostmaster.${zone}`,
    serial,
    refresh: 7200,
    retry: 1800,
    expire: 86400,
    minimum: t,
  };
}
