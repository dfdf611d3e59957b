/**
 * MetalLB in layer-2 mode, active only while its pods run (the lab applies `metallb-native.yaml`):
 * the controller (`quay.io/metallb/controller`) gives each `type: LoadBalancer` Service an address
 * from an IPAddressPool — the one requested by `metallb.io/loadBalancerIPs` (or the older
 * `metallb.universe.tf/loadBalancerIPs`, or `spec.loadBalancerIP`), else the first free address of
 * the first auto-assigning pool in name order — and the speakers (`quay.io/metallb/speaker`) announce
 * it from one node per address when an L2Advertisement covers its pool. Event wording is MetalLB's
 * (`controller/service.go`, `speaker/main.go`): IPAllocated "Assigned IP [...]", AllocationFailed
 * "Failed to allocate IP for "ns/name": no available IPs", nodeAssigned "announcing from node ... with
 * protocol "layer2"". Addresses are released by the Service's deletion (status is the allocation).
 */
import type { AnyObject, IPAddressPool, Node, Pod, ResourceKey, Service } from '../api/objects.ts';
import type { ApiServer } from '../apiserver/apiserver.ts';
import type { WatchEvent } from '../api/store.ts';
import { objectKey } from '../api/store.ts';
import { matchesLabelSelector } from '../api/labels.ts';
import { parseImageRef, repositoryOf } from '../node/image-ref.ts';
import { BaseController, splitKey } from './base-controller.ts';
import { isPodReady } from '../api/pod-status.ts';
import {
  advertisementsFor,
  electAnnouncer,
  METALLB_CONTROLLER_IMAGE,
  METALLB_SPEAKER_IMAGE,
  poolAddresses,
  poolContains,
} from '../dataplane/edge/metallb-pools.ts';

type ReadApi = Pick<ApiServer, 'list' | 'get'>;

function runs(pod: Pod, repository: string): boolean {
  if (pod.metadata.deletionTimestamp || pod.status?.phase !== 'Running') return false;
  return (pod.spec?.containers ?? []).some((c) => {
    const r = parseImageRef(c.image ?? '');
    return !('error' in r) && repositoryOf(r.ref) === repository;
  });
}

export function metallbControllerRunning(api: ReadApi): boolean {
  return api.list('pods').some((p) => runs(p, METALLB_CONTROLLER_IMAGE) && isPodReady(p));
}

/** Nodes with a ready speaker pod. */
export function speakerNodes(api: ReadApi): string[] {
  return api
    .list('pods')
    .filter((p) => runs(p, METALLB_SPEAKER_IMAGE) && isPodReady(p) && p.spec?.nodeName)
    .map((p) => p.spec!.nodeName!)
    .sort();
}

function requestedIPs(svc: Service): string[] {
  const a = svc.metadata.annotations ?? {};
  const raw =
    a['metallb.io/loadBalancerIPs'] ?? a['metallb.universe.tf/loadBalancerIPs'] ?? svc.spec?.loadBalancerIP;
  return raw
    ? raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}

function requestedPool(svc: Service): string | undefined {
  const a = svc.metadata.annotations ?? {};
  return a['metallb.io/address-pool'] ?? a['metallb.universe.tf/address-pool'];
}

function handles(svc: Service): boolean {
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
export function announcingNode(api: ReadApi, vip: string): string | undefined {
  const pool = api.list('ipaddresspools.metallb.io').find((p) => poolContains(p, vip));
  if (!pool) return undefined;
  const svc = api
    .list('services')
    .find((s) => handles(s) && (s.status?.loadBalancer?.ingress ?? []).some((i) => i.ip === vip));
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

export class MetalLBController extends BaseController {
  readonly name = 'metallb';

  protected watches(): [ResourceKey, (e: WatchEvent) => readonly string[]][] {
    return [
      // A released address lets every waiting Service retry (MetalLB reprocesses all on a delete).
      [
        'services',
        (e) =>
          e.type === 'DELETED'
            ? this.initialKeys()
            : [objectKey(e.object.metadata.namespace, e.object.metadata.name)],
      ],
      ['ipaddresspools.metallb.io', () => this.initialKeys()],
      ['l2advertisements.metallb.io', () => this.initialKeys()],
      ['pods', (e) => (e.object.metadata.namespace === 'default' ? [] : this.initialKeys())],
      [
        'endpointslices.discovery.k8s.io',
        (e) => {
          const svc = e.object.metadata.labels?.['kubernetes.io/service-name'];
          return svc ? [objectKey(e.object.metadata.namespace, svc)] : [];
        },
      ],
    ];
  }

  protected initialKeys(): string[] {
    return this.ctx.api
      .list('services')
      .filter((s) => s.spec?.type === 'LoadBalancer')
      .map((s) => objectKey(s.metadata.namespace, s.metadata.name));
  }

  protected reconcile(key: string): boolean {
    const api = this.ctx.api;
    const [ns, name] = splitKey(key);
    const svc = api.get('services', ns, name);
    if (!svc || !handles(svc) || !metallbControllerRunning(api)) return false;
    const pools = [...api.list('ipaddresspools.metallb.io')].sort((a, b) =>
      a.metadata.name < b.metadata.name ? -1 : 1,
    );
    const current = (svc.status?.loadBalancer?.ingress ?? []).map((i) => i.ip ?? '');
    let wrote = false;
    if (!(current.length > 0 && current.every((ip) => pools.some((p) => poolContains(p, ip))))) {
      const result = this.allocate(svc, pools);
      if ('error' in result) {
        this.event(
          svc,
          'Warning',
          'AllocationFailed',
          `Failed to allocate IP for "${key}": ${result.error}`,
          'metallb-controller',
        );
        return false;
      }
      api.updateStatus({
        ...svc,
        status: { ...svc.status, loadBalancer: { ingress: result.ips.map((ip) => ({ ip, ipMode: 'VIP' })) } },
      } as unknown as AnyObject);
      this.event(
        svc,
        'Normal',
        'IPAllocated',
        `Assigned IP [${result.ips.map((i) => `"${i}"`).join(' ')}]`,
        'metallb-controller',
      );
      wrote = true;
    }
    const fresh = api.get('services', ns, name);
    for (const ing of fresh?.status?.loadBalancer?.ingress ?? []) {
      const node = ing.ip ? announcingNode(api, ing.ip) : undefined;
      if (!node || !fresh) continue;
      const message = `announcing from node "${node}" with protocol "layer2"`;
      const last = api
        .list('events', ns)
        .filter((e) => e.involvedObject.uid === fresh.metadata.uid && e.reason === 'nodeAssigned')
        .sort((a, b) => ((a.lastTimestamp ?? '') < (b.lastTimestamp ?? '') ? -1 : 1))
        .at(-1);
      if (last?.message !== message) {
        this.event(fresh, 'Normal', 'nodeAssigned', message, 'metallb-speaker');
        wrote = true;
      }
    }
    return wrote;
  }

  private allocate(svc: Service, pools: readonly IPAddressPool[]): { ips: string[] } | { error: string } {
    const used = new Set<string>();
    for (const s of this.ctx.api.list('services'))
      if (s.metadata.uid !== svc.metadata.uid)
        for (const i of s.status?.loadBalancer?.ingress ?? []) if (i.ip) used.add(i.ip);
    const wanted = requestedIPs(svc);
    if (wanted.length > 0) {
      for (const ip of wanted) {
        if (!pools.some((p) => poolContains(p, ip))) return { error: `["${ip}"] is not allowed in config` };
        if (used.has(ip))
          return {
            error: `can't change sharing key for "${svc.metadata.namespace}/${svc.metadata.name}", address also in use by another service`,
          };
      }
      return { ips: wanted };
    }
    const poolName = requestedPool(svc);
    for (const pool of pools) {
      if (poolName ? pool.metadata.name !== poolName : pool.spec?.autoAssign === false) continue;
      const ip = poolAddresses(pool).find((a) => !used.has(a));
      if (ip) return { ips: [ip] };
    }
    return { error: 'no available IPs' };
  }

  private event(
    svc: Service,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
    component: string,
  ): void {
    this.ctx.recorder.event(svc as unknown as AnyObject, type, reason, message, { component });
  }
}
