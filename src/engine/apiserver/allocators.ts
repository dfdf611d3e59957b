/**
 * ClusterIP and NodePort allocation for Services, after k8s.io/kubernetes
 * `pkg/registry/core/service/storage/alloc.go` (v1.35): IP-family fields are initialised, a ClusterIP
 * is drawn from the Service CIDR (KEP-3070 bands, see `range-allocator.ts`) unless the Service is
 * headless or ExternalName, NodePorts come from 30000-32767 for NodePort/LoadBalancer Services (ports
 * with the same number share one, as TCP and UDP 53 do), and a healthCheckNodePort is drawn from the
 * same range for LoadBalancer + externalTrafficPolicy Local.
 *
 * What is allocated is always read back from the stored Services, never kept only here: a snapshot
 * restored into a fresh cluster allocates exactly as the original would. A transaction (`begin()`)
 * only remembers what it took so two Services in one request cannot collide; storing the Service is
 * what makes the allocation durable, and deleting it is what releases it.
 */
import type { ApiStore } from '../api/store.ts';
import { StatusError, invalid } from '../api/errors.ts';
import type { ResourceInfo } from '../api/resources.ts';
import type { ClusterConfig } from '../api/cluster-config.ts';
import type { Rng } from '../util/rng.ts';
import { cidrSize, formatIPv4, parseCidr, parseIPv4, type Cidr } from '../util/ip.ts';
import { causesOf, invalidValue } from './field-errors.ts';
import { allocateNext, rangeOffset } from './range-allocator.ts';
import { dropTypeDependentFields, normalizeClusterIPs, patchAllocatedValues } from './service-update.ts';
import { initIPFamilyFields } from './ip-families.ts';
import {
  isHeadless,
  needsHealthCheck,
  needsNodePorts,
  nodePortsOf,
  portsOf,
  specOf,
  type Spec,
} from './service-fields.ts';

/** kube-apiserver `--service-node-port-range` default. */
export const NODE_PORT_BASE = 30000;
export const NODE_PORT_SIZE = 2768;
const NODE_PORT_RANGE = `${NODE_PORT_BASE}-${NODE_PORT_BASE + NODE_PORT_SIZE - 1}`;

export interface Allocation {
  allocateFor(info: ResourceInfo, object: { metadata: { name: string } }): void;
  reallocateFor(
    info: ResourceInfo,
    next: { metadata: { name: string } },
    old: { metadata: { name: string } },
  ): void;
  commit(): void;
  rollback(): void;
}

export class Allocators {
  private readonly cidr: Cidr;
  private readonly config: ClusterConfig;
  private readonly rng: Rng;
  private readonly store: ApiStore;

  constructor(config: ClusterConfig, rng: Rng, store: ApiStore) {
    this.config = config;
    this.rng = rng;
    this.store = store;
    this.cidr = parseCidr(config.serviceSubnet) ?? { base: 0x0a600000, prefix: 12 };
    // Keeps the used sets current through the Services' watch, so creating many Services in one apply
    // does not rescan every stored Service for each one. A table change seen without its event (a
    // store restore) leaves the versions apart, and the next question rescans.
    store.watch('services', (e) => {
      if (!this.used || this.used.version !== this.store.tableVersion('services') - 1) {
        this.used = undefined;
        return;
      }
      if (e.oldObject) this.count(e.oldObject.spec, -1);
      if (e.type !== 'DELETED') this.count(e.object.spec, 1);
      this.used.version = this.store.tableVersion('services');
    });
  }

  /** What the stored Services hold, as counts per offset (kept by the watch above). */
  private used: { version: number; ips: Map<number, number>; ports: Map<number, number> } | undefined;

  private count(specValue: unknown, delta: number): void {
    const spec = (specValue ?? {}) as Spec;
    const add = (m: Map<number, number>, k: number) => {
      const n = (m.get(k) ?? 0) + delta;
      if (n > 0) m.set(k, n);
      else m.delete(k);
    };
    for (const ip of this.ipsOf(spec)) {
      const offset = this.ipOffset(String(ip));
      if (offset !== undefined) add(this.used!.ips, offset);
    }
    for (const p of nodePortsOf(spec)) add(this.used!.ports, p - NODE_PORT_BASE);
  }

  private ipsOf(spec: Spec): readonly unknown[] {
    const ips = spec.clusterIPs;
    if (Array.isArray(ips)) return ips;
    return typeof spec.clusterIP === 'string' && spec.clusterIP ? [spec.clusterIP] : [];
  }

  private current(): { ips: Map<number, number>; ports: Map<number, number> } {
    const version = this.store.tableVersion('services');
    if (this.used?.version !== version) {
      this.used = { version, ips: new Map(), ports: new Map() };
      for (const svc of this.store.list('services')) this.count(svc.spec, 1);
    }
    return this.used;
  }

  /** Usable ClusterIPs: the CIDR without its network and broadcast addresses (ipallocator `NewAllocatorCIDRRange`). */
  get ipRangeSize(): number {
    return Math.max(0, cidrSize(this.cidr) - 2);
  }

  get ipStaticBand(): number {
    return rangeOffset(cidrSize(this.cidr), 16, 256, 16);
  }

  get nodePortStaticBand(): number {
    return rangeOffset(NODE_PORT_SIZE, 16, 128, 32);
  }

  begin(): Allocation {
    return new ServiceAllocation(this, this.rng);
  }

  /** Deleting the stored Service is what frees its IP and ports; nothing else holds them. */
  release(_info: ResourceInfo, _removed: unknown): void {}

  /** Offsets (from network+1) of every ClusterIP held by a stored Service, except `skip`'s. */
  usedIPs(skip?: { namespace?: string; name: string }): UsedOffsets {
    const used = new UsedOffsets(this.current().ips);
    const spec = this.specOf(skip);
    if (spec) for (const ip of this.ipsOf(spec)) used.forget(this.ipOffset(String(ip)));
    return used;
  }

  usedNodePorts(skip?: { namespace?: string; name: string }): UsedOffsets {
    const used = new UsedOffsets(this.current().ports);
    const spec = this.specOf(skip);
    if (spec) for (const p of nodePortsOf(spec)) used.forget(p - NODE_PORT_BASE);
    return used;
  }

  private specOf(ref: { namespace?: string; name: string } | undefined): Spec | undefined {
    const svc = ref ? this.store.get('services', ref.namespace, ref.name) : undefined;
    return svc ? ((svc.spec ?? {}) as Spec) : undefined;
  }

  /** The allocator offset of an IP, or undefined outside the usable range. */
  ipOffset(ip: string): number | undefined {
    const n = parseIPv4(ip);
    if (n === undefined) return undefined;
    const offset = n - (this.cidr.base + 1);
    return offset >= 0 && offset < this.ipRangeSize ? offset : undefined;
  }

  ipAt(offset: number): string {
    return formatIPv4((this.cidr.base + 1 + offset) >>> 0);
  }

  get serviceSubnet(): string {
    return this.config.serviceSubnet;
  }
}

/**
 * The offsets one request must not take: those the stored Services hold (the live counts, not a copy
 * per request, which made creating a thousand Services in one apply quadratic), less what the Service
 * being updated holds alone, plus what the request itself has taken so far.
 */
class UsedOffsets {
  private readonly counts: ReadonlyMap<number, number>;
  private readonly added = new Set<number>();
  private readonly freed = new Set<number>();

  constructor(counts: ReadonlyMap<number, number>) {
    this.counts = counts;
  }

  has(offset: number): boolean {
    return this.added.has(offset) || (this.counts.has(offset) && !this.freed.has(offset));
  }

  add(offset: number): void {
    this.added.add(offset);
  }

  /** Drops what the skipped Service holds, unless another Service holds it too. */
  forget(offset: number | undefined): void {
    if (offset !== undefined && (this.counts.get(offset) ?? 0) <= 1) this.freed.add(offset);
  }
}

function internalError(message: string): StatusError {
  return new StatusError('InternalError', `Internal error occurred: ${message}`);
}

class ServiceAllocation implements Allocation {
  private readonly owner: Allocators;
  private readonly rng: Rng;
  private readonly takenIPs = new Set<number>();
  private readonly takenPorts = new Set<number>();

  constructor(owner: Allocators, rng: Rng) {
    this.owner = owner;
    this.rng = rng;
  }

  allocateFor(info: ResourceInfo, object: { metadata: { name: string; namespace?: string } }): void {
    if (info.key !== 'services') return;
    const spec = specOf(object);
    const name = object.metadata.name;
    if (spec.type === 'ExternalName') return;
    initIPFamilyFields(spec, name);
    this.allocClusterIP(spec, name, this.owner.usedIPs());
    const usedPorts = this.owner.usedNodePorts();
    if (needsNodePorts(spec)) this.allocNodePorts(spec, name, usedPorts, new Set());
    if (needsHealthCheck(spec)) this.allocHealthCheck(spec, usedPorts);
  }

  reallocateFor(
    info: ResourceInfo,
    next: { metadata: { name: string; namespace?: string } },
    old: { metadata: { name: string } },
  ): void {
    if (info.key !== 'services') return;
    const spec = specOf(next);
    const before = specOf(old);
    const name = next.metadata.name;
    const self = { namespace: next.metadata.namespace, name };
    dropTypeDependentFields(spec, before);
    patchAllocatedValues(spec, before);
    normalizeClusterIPs(spec, before);
    if (spec.type !== 'ExternalName') {
      if (spec.ipFamilyPolicy === undefined && before.ipFamilyPolicy !== undefined)
        spec.ipFamilyPolicy = before.ipFamilyPolicy;
      initIPFamilyFields(spec, name);
      if (before.type === 'ExternalName') this.allocClusterIP(spec, name, this.owner.usedIPs(self));
    }
    const usedPorts = this.owner.usedNodePorts(self);
    const oldPorts = new Set(nodePortsOf(before));
    if (needsNodePorts(spec)) this.allocNodePorts(spec, name, usedPorts, oldPorts);
    if (needsHealthCheck(spec) && !spec.healthCheckNodePort) this.allocHealthCheck(spec, usedPorts);
    else if (needsHealthCheck(spec) && !oldPorts.has(spec.healthCheckNodePort as number))
      this.allocHealthCheck(spec, usedPorts);
  }

  commit(): void {
    this.takenIPs.clear();
    this.takenPorts.clear();
  }

  rollback(): void {
    this.commit();
  }

  private allocClusterIP(spec: Spec, name: string, used: UsedOffsets): void {
    if (isHeadless(spec)) {
      spec.clusterIP = 'None';
      spec.clusterIPs = ['None'];
      return;
    }
    const requested =
      Array.isArray(spec.clusterIPs) && typeof spec.clusterIPs[0] === 'string' ? spec.clusterIPs[0] : '';
    for (const t of this.takenIPs) used.add(t);
    let offset: number | undefined;
    if (requested === '') {
      offset = allocateNext(this.owner.ipRangeSize, this.owner.ipStaticBand, used, this.rng);
      if (offset === undefined) throw internalError('failed to allocate a serviceIP: range is full');
    } else {
      offset = this.owner.ipOffset(requested);
      const reason =
        offset === undefined
          ? `the provided IP (${requested}) is not in the valid range. The range of valid IPs is ${this.owner.serviceSubnet}`
          : used.has(offset)
            ? 'provided IP is already allocated'
            : undefined;
      if (reason !== undefined || offset === undefined) {
        throw invalid(
          'Service',
          name,
          causesOf([
            invalidValue(
              'spec.clusterIPs',
              spec.clusterIPs,
              `failed to allocate IP ${requested}: ${reason ?? ''}`,
            ),
          ]),
        );
      }
    }
    this.takenIPs.add(offset);
    const ip = this.owner.ipAt(offset);
    spec.clusterIP = ip;
    spec.clusterIPs = [ip];
  }

  /** alloc.go `initNodePorts` / `updateNodePorts`: ports kept from `keep` are not allocated again. */
  private allocNodePorts(spec: Spec, name: string, used: UsedOffsets, keep: ReadonlySet<number>): void {
    for (const t of this.takenPorts) used.add(t);
    const allocateAll = spec.type === 'NodePort' || spec.allocateLoadBalancerNodePorts !== false;
    const byServicePort = new Map<unknown, number>();
    portsOf(spec).forEach((p, i) => {
      const requested = typeof p.nodePort === 'number' ? p.nodePort : 0;
      if (requested === 0 && !allocateAll) return;
      const shared = byServicePort.get(p.port);
      if (requested === 0 && shared !== undefined) {
        p.nodePort = shared;
        return;
      }
      if (requested !== 0) {
        if (!keep.has(requested) && shared !== requested) {
          const problem = this.reservePort(requested, used);
          if (problem)
            throw invalid(
              'Service',
              name,
              causesOf([invalidValue(`spec.ports[${i}].nodePort`, requested, problem)]),
            );
        }
        byServicePort.set(p.port, requested);
        return;
      }
      const offset = allocateNext(NODE_PORT_SIZE, this.owner.nodePortStaticBand, used, this.rng);
      if (offset === undefined) throw internalError('failed to allocate a nodePort: range is full');
      used.add(offset);
      this.takenPorts.add(offset);
      const nodePort = NODE_PORT_BASE + offset;
      p.nodePort = nodePort;
      byServicePort.set(p.port, nodePort);
    });
  }

  private allocHealthCheck(spec: Spec, used: UsedOffsets): void {
    for (const t of this.takenPorts) used.add(t);
    for (const p of nodePortsOf({ ...spec, healthCheckNodePort: 0 })) used.add(p - NODE_PORT_BASE);
    const requested = typeof spec.healthCheckNodePort === 'number' ? spec.healthCheckNodePort : 0;
    if (requested !== 0) {
      const problem = this.reservePort(requested, used);
      if (problem)
        throw internalError(`failed to allocate requested HealthCheck NodePort ${requested}: ${problem}`);
      return;
    }
    const offset = allocateNext(NODE_PORT_SIZE, this.owner.nodePortStaticBand, used, this.rng);
    if (offset === undefined)
      throw internalError('failed to allocate a HealthCheck NodePort 0: range is full');
    this.takenPorts.add(offset);
    spec.healthCheckNodePort = NODE_PORT_BASE + offset;
  }

  /** portallocator `Allocate`: undefined on success, else its error text. */
  private reservePort(port: number, used: UsedOffsets): string | undefined {
    const offset = port - NODE_PORT_BASE;
    if (offset < 0 || offset >= NODE_PORT_SIZE) {
      return `provided port is not in the valid range. The range of valid ports is ${NODE_PORT_RANGE}`;
    }
    if (used.has(offset)) return 'provided port is already allocated';
    used.add(offset);
    this.takenPorts.add(offset);
    return undefined;
  }
}
