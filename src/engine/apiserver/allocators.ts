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
import type { ClusterConfig } from '../cluster/config.ts';
import type { Rng } from '../util/rng.ts';
import { cidrSize, formatIPv4, parseCidr, parseIPv4, type Cidr } from '../util/ip.ts';
import { isPlainObject } from '../util/json.ts';
import { causesOf, invalidValue, type FieldError } from './field-errors.ts';
import { allocateNext, rangeOffset } from './range-allocator.ts';

/** kube-apiserver `--service-node-port-range` default. */
export const NODE_PORT_BASE = 30000;
export const NODE_PORT_SIZE = 2768;
const NODE_PORT_RANGE = `${NODE_PORT_BASE}-${NODE_PORT_BASE + NODE_PORT_SIZE - 1}`;

type Spec = Record<string, unknown>;
type Port = Record<string, unknown>;

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

function specOf(object: unknown): Spec {
  const o = object as Record<string, unknown>;
  if (!isPlainObject(o.spec)) o.spec = {};
  return o.spec as Spec;
}

function portsOf(spec: Spec): Port[] {
  return Array.isArray(spec.ports) ? spec.ports.filter(isPlainObject) : [];
}

const needsNodePorts = (spec: Spec) => spec.type === 'NodePort' || spec.type === 'LoadBalancer';
/** `apiservice.NeedsHealthCheck`. */
export const needsHealthCheck = (spec: Spec) =>
  spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
const isHeadless = (spec: Spec) =>
  spec.clusterIP === 'None' || (Array.isArray(spec.clusterIPs) && spec.clusterIPs[0] === 'None');

/** The NodePorts and healthCheckNodePort a Service holds. */
export function nodePortsOf(spec: Spec): number[] {
  const out = portsOf(spec)
    .map((p) => p.nodePort)
    .filter((n): n is number => typeof n === 'number' && n !== 0);
  if (typeof spec.healthCheckNodePort === 'number' && spec.healthCheckNodePort !== 0)
    out.push(spec.healthCheckNodePort);
  return out;
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
  usedIPs(skip?: { namespace?: string; name: string }): Set<number> {
    const used = new Set<number>();
    for (const svc of this.store.list('services')) {
      if (skip && svc.metadata.namespace === skip.namespace && svc.metadata.name === skip.name) continue;
      for (const ip of svc.spec?.clusterIPs ?? (svc.spec?.clusterIP ? [svc.spec.clusterIP] : [])) {
        const offset = this.ipOffset(ip);
        if (offset !== undefined) used.add(offset);
      }
    }
    return used;
  }

  usedNodePorts(skip?: { namespace?: string; name: string }): Set<number> {
    const used = new Set<number>();
    for (const svc of this.store.list('services')) {
      if (skip && svc.metadata.namespace === skip.namespace && svc.metadata.name === skip.name) continue;
      for (const p of nodePortsOf((svc.spec ?? {}) as Spec)) used.add(p - NODE_PORT_BASE);
    }
    return used;
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
    this.initIPFamilyFields(spec, name);
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
    if (spec.type !== 'ExternalName') {
      if (spec.ipFamilyPolicy === undefined && before.ipFamilyPolicy !== undefined)
        spec.ipFamilyPolicy = before.ipFamilyPolicy;
      this.initIPFamilyFields(spec, name);
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

  /** alloc.go `initIPFamilyFields` for a single-stack IPv4 cluster. */
  private initIPFamilyFields(spec: Spec, name: string): void {
    if (
      spec.clusterIP !== undefined &&
      spec.clusterIP !== '' &&
      (!Array.isArray(spec.clusterIPs) || spec.clusterIPs.length === 0)
    ) {
      spec.clusterIPs = [spec.clusterIP];
    }
    const selectorless = !isPlainObject(spec.selector) || Object.keys(spec.selector).length === 0;
    if (spec.ipFamilyPolicy === undefined) {
      spec.ipFamilyPolicy = isHeadless(spec) && selectorless ? 'RequireDualStack' : 'SingleStack';
    }
    const errors: FieldError[] = [];
    const clusterIPs = Array.isArray(spec.clusterIPs) ? (spec.clusterIPs as unknown[]) : [];
    clusterIPs.forEach((ip, i) => {
      if (ip === 'None' || ip === '' || typeof ip !== 'string') return;
      if (parseIPv4(ip) === undefined) {
        const family = ip.includes(':') ? 'IPv6' : undefined;
        errors.push(
          invalidValue(
            `spec.clusterIPs[${i}]`,
            family ? clusterIPs : ip,
            family
              ? `${family} is not configured on this cluster`
              : 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
          ),
        );
      }
    });
    const families = Array.isArray(spec.ipFamilies) ? (spec.ipFamilies as unknown[]) : [];
    if (isHeadless(spec) && selectorless) {
      if (families.length === 0) spec.ipFamilies = ['IPv4'];
      if ((spec.ipFamilies as unknown[]).length < 2 && spec.ipFamilyPolicy !== 'SingleStack') {
        spec.ipFamilies = [
          ...(spec.ipFamilies as unknown[]),
          (spec.ipFamilies as unknown[])[0] === 'IPv6' ? 'IPv4' : 'IPv6',
        ];
      }
    } else {
      if (spec.ipFamilyPolicy === 'RequireDualStack') {
        errors.push(
          invalidValue(
            'spec.ipFamilyPolicy',
            spec.ipFamilyPolicy,
            'this cluster is not configured for dual-stack services',
          ),
        );
      }
      families.forEach((f, i) => {
        if (f !== 'IPv4')
          errors.push(invalidValue(`spec.ipFamilies[${i}]`, f, 'not configured on this cluster'));
      });
      if (families.length === 0) spec.ipFamilies = ['IPv4'];
    }
    if (errors.length > 0) throw invalid('Service', name, causesOf(errors));
  }

  private allocClusterIP(spec: Spec, name: string, used: Set<number>): void {
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
  private allocNodePorts(spec: Spec, name: string, used: Set<number>, keep: ReadonlySet<number>): void {
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

  private allocHealthCheck(spec: Spec, used: Set<number>): void {
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
  private reservePort(port: number, used: Set<number>): string | undefined {
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

/**
 * Service REST `patchAllocatedValues`: a PUT that omits what the server allocated (clusterIP, NodePorts,
 * healthCheckNodePort) keeps the old values, so `kubectl replace` of a hand-written file works.
 */
function patchAllocatedValues(spec: Spec, before: Spec): void {
  const hadIP = before.type !== 'ExternalName';
  if (hadIP && spec.type !== 'ExternalName') {
    if (spec.clusterIP === undefined || spec.clusterIP === '') spec.clusterIP = before.clusterIP;
    if (!Array.isArray(spec.clusterIPs) || spec.clusterIPs.length === 0) {
      spec.clusterIPs = spec.clusterIP === before.clusterIP ? before.clusterIPs : [spec.clusterIP];
    }
  }
  if (needsNodePorts(before) && needsNodePorts(spec)) {
    const oldByPort = new Map(
      portsOf(before).map((p) => [`${String(p.protocol)}/${String(p.port)}`, p.nodePort]),
    );
    for (const p of portsOf(spec)) {
      if (!p.nodePort) {
        const old = oldByPort.get(`${String(p.protocol)}/${String(p.port)}`);
        if (old) p.nodePort = old;
      }
    }
  }
  if (needsHealthCheck(before) && needsHealthCheck(spec) && !spec.healthCheckNodePort) {
    spec.healthCheckNodePort = before.healthCheckNodePort;
  }
}

/**
 * Service strategy `dropTypeDependentFields`: fields the old type needed and the new one does not are
 * cleared when the request left them as they were (NodePorts going to ClusterIP, IPs going to
 * ExternalName), which is what releases them.
 */
function dropTypeDependentFields(spec: Spec, before: Spec): void {
  if (spec.type === 'ExternalName' && before.type !== 'ExternalName') {
    for (const f of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy'] as const) {
      if (spec[f] === undefined || JSON.stringify(spec[f]) === JSON.stringify(before[f])) delete spec[f];
    }
  }
  if (!needsNodePorts(spec) && needsNodePorts(before)) {
    const oldPorts = new Set(nodePortsOf({ ports: before.ports }));
    for (const p of portsOf(spec))
      if (typeof p.nodePort === 'number' && oldPorts.has(p.nodePort)) delete p.nodePort;
  }
  if (
    !needsHealthCheck(spec) &&
    needsHealthCheck(before) &&
    spec.healthCheckNodePort === before.healthCheckNodePort
  ) {
    delete spec.healthCheckNodePort;
  }
  if (
    spec.type !== 'LoadBalancer' &&
    before.type === 'LoadBalancer' &&
    spec.allocateLoadBalancerNodePorts === before.allocateLoadBalancerNodePorts
  ) {
    delete spec.allocateLoadBalancerNodePorts;
  }
  if (
    spec.type !== 'NodePort' &&
    spec.type !== 'LoadBalancer' &&
    before.externalTrafficPolicy !== undefined
  ) {
    const externalIPs = Array.isArray(spec.externalIPs) && spec.externalIPs.length > 0;
    if (!externalIPs && spec.externalTrafficPolicy === before.externalTrafficPolicy)
      delete spec.externalTrafficPolicy;
  }
}
