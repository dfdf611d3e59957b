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
import type { IPAddressPool, Node, Pod, ResourceKey, Service } from '../api/objects.ts';
import type { ApiServer } from '../apiserver/apiserver.ts';
import type { WatchEvent } from '../api/store.ts';
import { objectKey } from '../api/store.ts';
import { BaseController, splitKey } from './base-controller.ts';
import {
  announcingNode,
  isMetalLBService,
  metallbControllerRunning,
  poolAddresses,
  poolContains,
} from '../api/edge/metallb-pools.ts';

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
    if (!svc || !isMetalLBService(svc) || !metallbControllerRunning(api)) return false;
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
      });
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
    this.ctx.recorder.event(svc, type, reason, message, { component });
  }
}
