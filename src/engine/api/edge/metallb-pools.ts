/**
 * MetalLB's address bookkeeping and layer-2 leader choice, as pure functions. Pools list CIDRs
 * (`172.18.255.200/28`) or ranges (`172.18.255.200-172.18.255.250`); `avoidBuggyIPs` skips addresses
 * ending in .0 and .255. Which node answers ARP for a VIP: MetalLB's speakers each hash node name and
 * address and the first in order wins (`speaker/layer2_controller.go` `ShouldAnnounce`: nodes sorted by
 * `sha256.Sum256(node + "#" + ip)`, compared bytewise).
 */
import type { IPAddressPool, L2Advertisement, Node, Pod, Service } from '../objects.ts';
import type { ObjectReader } from '../store.ts';
import { matchesLabelSelector } from '../labels.ts';
import { isPodReady } from '../pod-status.ts';
import { parseImageRef, repositoryOf } from '../image-ref.ts';
import { cidrSize, formatIPv4, parseCidr, parseIPv4 } from '../../util/ip.ts';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

export const METALLB_CONTROLLER_IMAGE = 'quay.io/metallb/controller';
export const METALLB_SPEAKER_IMAGE = 'quay.io/metallb/speaker';

/** The IPv4 addresses of a pool in order (at most 65,536 per entry, enough for any lab). */
export function poolAddresses(pool: IPAddressPool): string[] {
  const out: string[] = [];
  for (const entry of pool.spec?.addresses ?? []) {
    let first: number | undefined;
    let last: number | undefined;
    if (entry.includes('-')) {
      const [a, b] = entry.split('-').map((s) => parseIPv4(s.trim()));
      first = a;
      last = b;
    } else {
      const c = parseCidr(entry.trim());
      if (c) {
        first = c.base;
        last = c.base + cidrSize(c) - 1;
      }
    }
    if (first === undefined || last === undefined || last < first) continue;
    for (let n = first; n <= Math.min(last, first + 65_535); n++) {
      const ip = formatIPv4(n >>> 0);
      if (pool.spec?.avoidBuggyIPs && (ip.endsWith('.0') || ip.endsWith('.255'))) continue;
      out.push(ip);
    }
  }
  return out;
}

export function poolContains(pool: IPAddressPool, ip: string): boolean {
  return poolAddresses(pool).includes(ip);
}

/** The L2Advertisements that announce a pool (no pools and no selectors = every pool). */
export function advertisementsFor(pool: IPAddressPool, ads: readonly L2Advertisement[]): L2Advertisement[] {
  return ads.filter((ad) => {
    const names = ad.spec?.ipAddressPools ?? [];
    const selectors = ad.spec?.ipAddressPoolSelectors ?? [];
    if (names.length === 0 && selectors.length === 0) return true;
    return (
      names.includes(pool.metadata.name) ||
      selectors.some((s) => matchesLabelSelector(s, pool.metadata.labels ?? {}))
    );
  });
}

/** The node that answers ARP for `ip` among `candidates` (speaker nodes allowed to announce it). */
export function electAnnouncer(ip: string, candidates: readonly string[]): string | undefined {
  const key = (n: string) => bytesToHex(sha256(utf8ToBytes(`${n}#${ip}`)));
  return [...candidates].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a < b ? -1 : 1))[0];
}

function runs(pod: Pod, repository: string): boolean {
  if (pod.metadata.deletionTimestamp || pod.status?.phase !== 'Running') return false;
  return (pod.spec?.containers ?? []).some((c) => {
    const r = parseImageRef(c.image ?? '');
    return !('error' in r) && repositoryOf(r.ref) === repository;
  });
}

export function metallbControllerRunning(api: ObjectReader): boolean {
  return api.list('pods').some((p) => runs(p, METALLB_CONTROLLER_IMAGE) && isPodReady(p));
}

/** Nodes with a ready speaker pod. */
export function speakerNodes(api: ObjectReader): string[] {
  return api
    .list('pods')
    .filter((p) => runs(p, METALLB_SPEAKER_IMAGE) && isPodReady(p) && p.spec?.nodeName)
    .map((p) => p.spec!.nodeName!)
    .sort();
}

export function isMetalLBService(svc: Service): boolean {
  const cls = svc.spec?.loadBalancerClass;
  return (
    svc.spec?.type === 'LoadBalancer' &&
    (!cls || cls === 'metallb.io/metallb') &&
    !svc.metadata.deletionTimestamp
  );
}

/**
 * The node announcing `vip` in layer 2, or undefined (no speaker, no L2Advertisement for its pool, or
 * with externalTrafficPolicy Local no ready endpoint on any speaker node).
 */
export function announcingNode(api: ObjectReader, vip: string): string | undefined {
  const pool = api.list('ipaddresspools.metallb.io').find((p) => poolContains(p, vip));
  if (!pool) return undefined;
  const svc = api
    .list('services')
    .find((s) => isMetalLBService(s) && (s.status?.loadBalancer?.ingress ?? []).some((i) => i.ip === vip));
  if (!svc) return undefined;
  const ads = advertisementsFor(
    pool,
    api.list('l2advertisements.metallb.io').filter((a) => a.metadata.namespace === pool.metadata.namespace),
  );
  if (ads.length === 0) return undefined;
  const nodes = new Map(api.list('nodes').map((n: Node) => [n.metadata.name, n]));
  let candidates = speakerNodes(api).filter((name) =>
    ads.some((ad) => {
      const sel = ad.spec?.nodeSelectors ?? [];
      return (
        sel.length === 0 || sel.some((s) => matchesLabelSelector(s, nodes.get(name)?.metadata.labels ?? {}))
      );
    }),
  );
  if (svc.spec?.externalTrafficPolicy === 'Local') {
    const ready = new Set<string>();
    for (const slice of api.list('endpointslices.discovery.k8s.io', svc.metadata.namespace)) {
      if (slice.metadata.labels?.['kubernetes.io/service-name'] !== svc.metadata.name) continue;
      for (const ep of slice.endpoints ?? []) if (ep.conditions?.ready && ep.nodeName) ready.add(ep.nodeName);
    }
    candidates = candidates.filter((n) => ready.has(n));
  }
  return electAnnouncer(vip, candidates);
}
