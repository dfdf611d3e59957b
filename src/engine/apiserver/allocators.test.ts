import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { StatusError } from '../api/errors.ts';
import { parseClusterConfig } from '../api/cluster-config.ts';
import { parseIPv4 } from '../util/ip.ts';
import { Rng } from '../util/rng.ts';
import { makeServer, thrown, type TestServer } from './test-helpers.ts';
import type { AnyObject } from '../api/objects.ts';

type Spec = Record<string, unknown> & { ports?: Record<string, unknown>[] };

function service(name: string, spec: Record<string, unknown> = {}, namespace = 'default') {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace },
    spec: { selector: { app: name }, ports: [{ port: 80 }], ...spec },
  };
}
const specOf = (o: AnyObject) => o.spec as Spec;
const ipNum = (ip: unknown) => parseIPv4(String(ip))!;

describe('ClusterIP allocation (KEP-3070)', () => {
  // Golden (derived in kubernetes-facts.md §7): for 10.96.0.0/12 the static band is 10.96.0.1–10.96.1.0
  // and automatic allocation draws from 10.96.1.1–10.111.255.254 first.
  it('allocates automatically from the upper band of 10.96.0.0/12', () => {
    for (let seed = 0; seed < 40; seed++) {
      const { api } = makeServer(seed);
      const ip = specOf(api.create(service('web'))).clusterIP;
      expect(ipNum(ip)).toBeGreaterThanOrEqual(ipNum('10.96.1.1'));
      expect(ipNum(ip)).toBeLessThanOrEqual(ipNum('10.111.255.254'));
    }
  });

  it("uses kind's /16 when the cluster definition comes from a kind file", () => {
    const config = parseClusterConfig('kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\n');
    const { api } = makeServer(5, config);
    const ip = specOf(api.create(service('web'))).clusterIP;
    expect(ipNum(ip)).toBeGreaterThanOrEqual(ipNum('10.96.1.1'));
    expect(ipNum(ip)).toBeLessThanOrEqual(ipNum('10.96.255.254'));
  });

  it('fills in the single-stack family fields', () => {
    const { api } = makeServer();
    const spec = specOf(api.create(service('web')));
    expect(spec.clusterIPs).toEqual([spec.clusterIP]);
    expect(spec.ipFamilies).toEqual(['IPv4']);
    expect(spec.ipFamilyPolicy).toBe('SingleStack');
  });

  it('honours a requested ClusterIP in the static band', () => {
    const { api } = makeServer();
    expect(specOf(api.create(service('dns', { clusterIP: '10.96.0.10' }))).clusterIPs).toEqual([
      '10.96.0.10',
    ]);
  });

  // Golden: pkg/registry/core/service/storage/alloc.go (`failed to allocate IP %v: %v` on
  // spec.clusterIPs) with ipallocator ErrAllocated / ErrNotInRange; bad value rendered as JSON.
  it('rejects a requested ClusterIP that is taken or out of range', () => {
    const { api } = makeServer();
    api.create(service('a', { clusterIP: '10.96.0.5' }));
    const taken = thrown(() => api.create(service('b', { clusterIP: '10.96.0.5' }))) as StatusError;
    expect(taken.reason).toBe('Invalid');
    expect(taken.message).toBe(
      'Service "b" is invalid: spec.clusterIPs: Invalid value: ["10.96.0.5"]: failed to allocate IP 10.96.0.5: provided IP is already allocated',
    );
    expect(thrown(() => api.create(service('c', { clusterIP: '10.0.0.5' }))).message).toBe(
      'Service "c" is invalid: spec.clusterIPs: Invalid value: ["10.0.0.5"]: failed to allocate IP 10.0.0.5: the provided IP (10.0.0.5) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
    );
    // The network address is not allocatable either.
    expect(thrown(() => api.create(service('d', { clusterIP: '10.96.0.0' }))).message).toContain(
      'is not in the valid range',
    );
  });

  it('gives headless Services no ClusterIP and ExternalName Services no IP fields', () => {
    const { api } = makeServer();
    const headless = specOf(api.create(service('db', { clusterIP: 'None' })));
    expect(headless.clusterIP).toBe('None');
    expect(headless.clusterIPs).toEqual(['None']);
    expect(headless.ipFamilyPolicy).toBe('SingleStack');
    // alloc.go initIPFamilyFields: headless + selectorless defaults to RequireDualStack with both families.
    const selectorless = specOf(
      api.create({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'ext' },
        spec: { clusterIP: 'None', ports: [{ port: 80 }] },
      }),
    );
    expect(selectorless.ipFamilyPolicy).toBe('RequireDualStack');
    expect(selectorless.ipFamilies).toEqual(['IPv4', 'IPv6']);
    const external = specOf(
      api.create({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'out' },
        spec: { type: 'ExternalName', externalName: 'example.com' },
      }),
    );
    expect(external.clusterIP).toBeUndefined();
    expect(external.ipFamilies).toBeUndefined();
  });

  it('keeps the ClusterIP immutable on update', () => {
    const { api } = makeServer();
    const created = api.create(service('web'));
    const ip = specOf(created).clusterIP as string;
    const changed = service('web', { clusterIP: '10.96.0.7' });
    // Golden: core validation validateUpgradeDowngradeClusterIPs ("may not change once set").
    expect(thrown(() => api.update(changed)).message).toBe(
      'Service "web" is invalid: spec.clusterIPs[0]: Invalid value: ["10.96.0.7"]: may not change once set',
    );
    // A PUT that omits the allocated IP keeps it (service REST patchAllocatedValues).
    expect(specOf(api.update(service('web', { ports: [{ port: 8080 }] }))).clusterIP).toBe(ip);
  });

  it('moves clusterIPs along with a changed clusterIP, so the change is refused (normalizeClusterIPs)', () => {
    const { api } = makeServer();
    const created = specOf(api.create(service('web')));
    // A merge patch of spec.clusterIP alone: clusterIPs arrives unchanged from the stored object.
    const patched = service('web', { clusterIP: '10.96.0.50', clusterIPs: created.clusterIPs });
    // Golden: validateUpgradeDowngradeClusterIPs after storage.go normalizeClusterIPs copied the
    // singular field into clusterIPs[0].
    expect(thrown(() => api.update(patched)).message).toBe(
      'Service "web" is invalid: spec.clusterIPs[0]: Invalid value: ["10.96.0.50"]: may not change once set',
    );
    const stored = specOf(api.get('services', 'default', 'web')!);
    expect([stored.clusterIP, stored.clusterIPs]).toEqual([created.clusterIP, created.clusterIPs]);
  });

  it("keeps a named port's NodePort when the port is renumbered (patchAllocatedValues by name)", () => {
    const { api } = makeServer();
    const created = specOf(
      api.create(service('web', { type: 'NodePort', ports: [{ name: 'http', port: 80 }] })),
    );
    const nodePort = created.ports![0]!.nodePort;
    const updated = specOf(
      api.update(service('web', { type: 'NodePort', ports: [{ name: 'http', port: 8080 }] })),
    );
    expect(updated.ports![0]!.nodePort).toBe(nodePort);
  });

  it('validates the ClientIP affinity timeout (0 < t <= 86400)', () => {
    const { api } = makeServer();
    const affinity = (timeoutSeconds: number) => ({
      sessionAffinity: 'ClientIP',
      sessionAffinityConfig: { clientIP: { timeoutSeconds } },
    });
    // Golden: validation.go validateAffinityTimeout (core.MaxClientIPServiceAffinitySeconds = 86400).
    for (const t of [0, -5, 86401]) {
      expect(thrown(() => api.create(service(`t${Math.abs(t)}`, affinity(t)))).message).toBe(
        `Service "t${Math.abs(t)}" is invalid: spec.sessionAffinityConfig.clientIP.timeoutSeconds: ` +
          `Invalid value: ${t}: must be greater than 0 and less than 86400`,
      );
    }
    expect(specOf(api.create(service('day', affinity(86400)))).sessionAffinity).toBe('ClientIP');
  });

  it('releases the IP when the Service is deleted', () => {
    const { api } = makeServer();
    api.create(service('a', { clusterIP: '10.96.0.20' }));
    api.delete('services', 'default', 'a');
    expect(specOf(api.create(service('b', { clusterIP: '10.96.0.20' }))).clusterIP).toBe('10.96.0.20');
  });
});

describe('NodePort allocation (KEP-3668)', () => {
  // Golden (kubernetes-facts.md §7): static band 30000–30085, dynamic allocation from 30086–32767 first.
  it('allocates from 30086-32767', () => {
    for (let seed = 0; seed < 40; seed++) {
      const { api } = makeServer(seed);
      const port = specOf(api.create(service('web', { type: 'NodePort' }))).ports![0]!.nodePort as number;
      expect(port).toBeGreaterThanOrEqual(30086);
      expect(port).toBeLessThanOrEqual(32767);
    }
  });

  // Golden: portallocator ErrAllocated / ErrNotInRange via alloc.go initNodePorts
  // (field.Invalid on spec.ports[i].nodePort); kubernetes-facts.md §6.4.
  it('rejects taken and out-of-range NodePorts', () => {
    const { api } = makeServer();
    api.create(service('a', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }));
    expect(
      thrown(() => api.create(service('b', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] })))
        .message,
    ).toBe(
      'Service "b" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated',
    );
    expect(
      thrown(() => api.create(service('c', { type: 'NodePort', ports: [{ port: 80, nodePort: 80 }] })))
        .message,
    ).toBe(
      'Service "c" is invalid: spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767',
    );
  });

  it('gives TCP and UDP on the same port one NodePort', () => {
    const { api } = makeServer();
    const ports = specOf(
      api.create(
        service('dns', {
          type: 'NodePort',
          ports: [
            { name: 'dns', port: 53, protocol: 'UDP' },
            { name: 'dns-tcp', port: 53, protocol: 'TCP' },
          ],
        }),
      ),
    ).ports!;
    expect(ports[0]!.nodePort).toBe(ports[1]!.nodePort);
  });

  it('allocates a healthCheckNodePort only for LoadBalancer + externalTrafficPolicy Local', () => {
    const { api } = makeServer();
    const local = specOf(api.create(service('lb', { type: 'LoadBalancer', externalTrafficPolicy: 'Local' })));
    expect(local.healthCheckNodePort).toBeGreaterThanOrEqual(30000);
    expect(local.healthCheckNodePort).not.toBe(local.ports![0]!.nodePort);
    expect(
      specOf(api.create(service('np', { type: 'NodePort', externalTrafficPolicy: 'Local' })))
        .healthCheckNodePort,
    ).toBeUndefined();
    expect(specOf(api.create(service('lb2', { type: 'LoadBalancer' }))).healthCheckNodePort).toBeUndefined();
  });

  it('skips NodePorts for LoadBalancers with allocateLoadBalancerNodePorts false', () => {
    const { api } = makeServer();
    const spec = specOf(
      api.create(service('lb', { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false })),
    );
    expect(spec.ports![0]!.nodePort).toBeUndefined();
  });

  it('releases NodePorts when the Service changes to ClusterIP', () => {
    const { api } = makeServer();
    const created = api.create(service('web', { type: 'NodePort', ports: [{ port: 80, nodePort: 30100 }] }));
    const back = {
      ...service('web', {
        type: 'ClusterIP',
        ports: specOf(created).ports,
        externalTrafficPolicy: 'Cluster',
      }),
    };
    const updated = specOf(api.update(back));
    expect(updated.ports![0]!.nodePort).toBeUndefined();
    expect(updated.externalTrafficPolicy).toBeUndefined();
    expect(
      specOf(api.create(service('other', { type: 'NodePort', ports: [{ port: 80, nodePort: 30100 }] })))
        .ports![0]!.nodePort,
    ).toBe(30100);
  });

  it('keeps NodePorts across an update that omits them', () => {
    const { api } = makeServer();
    const port = specOf(api.create(service('web', { type: 'NodePort' }))).ports![0]!.nodePort;
    expect(specOf(api.update(service('web', { type: 'NodePort' }))).ports![0]!.nodePort).toBe(port);
  });
});

describe('allocation state lives in the store', () => {
  const ops = fc.array(
    fc.oneof(
      fc.record({
        op: fc.constant('create' as const),
        name: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
        type: fc.constantFrom('ClusterIP', 'NodePort', 'LoadBalancer'),
      }),
      fc.record({ op: fc.constant('delete' as const), name: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f') }),
    ),
    { maxLength: 25 },
  );

  function run(server: TestServer, steps: { op: 'create' | 'delete'; name: string; type?: string }[]): void {
    for (const s of steps) {
      try {
        if (s.op === 'create') server.api.create(service(s.name, { type: s.type }));
        else server.api.delete('services', 'default', s.name);
      } catch (e) {
        if (!(e instanceof StatusError)) throw e;
      }
    }
  }

  it('keeps ClusterIPs and NodePorts unique and in range across creates and deletes (property)', () => {
    fc.assert(
      fc.property(fc.integer(), ops, (seed, steps) => {
        const server = makeServer(
          seed,
          parseClusterConfig(
            'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnetworking:\n  serviceSubnet: 10.96.0.0/26\n',
          ),
        );
        run(server, steps);
        const svcs = server.api.list('services');
        const ips = svcs.map((s) => ipNum(s.spec?.clusterIP));
        const ports = svcs.flatMap((s) =>
          (s.spec?.ports ?? []).map((p) => p.nodePort).filter((p): p is number => p !== undefined),
        );
        expect(new Set(ips).size).toBe(ips.length);
        expect(new Set(ports).size).toBe(ports.length);
        for (const ip of ips) {
          expect(ip).toBeGreaterThan(ipNum('10.96.0.0'));
          expect(ip).toBeLessThan(ipNum('10.96.0.63'));
        }
        for (const p of ports) expect(p >= 30000 && p <= 32767).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('continues identically after a store snapshot and restore (property)', () => {
    fc.assert(
      fc.property(fc.integer(), ops, ops, (seed, before, after) => {
        const original = makeServer(seed);
        run(original, before);
        const copy = makeServer(seed);
        copy.store.restore(original.store.snapshot());
        // A restored cluster rebuilds its RNG from the snapshot's state: mirror that.
        Object.assign(copy.rng, Rng.fromState(original.rng.state()));
        run(original, after);
        run(copy, after);
        expect(
          copy.store
            .snapshot()
            .objects.filter((o) => o.resource === 'services')
            .map((o) => o.object.spec),
        ).toEqual(
          original.store
            .snapshot()
            .objects.filter((o) => o.resource === 'services')
            .map((o) => o.object.spec),
        );
      }),
      { numRuns: 40 },
    );
  });
});

// The used sets are kept through the Services' watch; a store restore (no events) must not let an
// allocation hand out an address or port a restored Service holds, and a deletion must free them.
describe('allocation state follows the stored Services', () => {
  it('refuses what restored Services hold and frees what deleted ones held', () => {
    const a = makeServer(9);
    const web = a.api.create(service('web', { type: 'NodePort', clusterIP: '10.96.5.5' }));
    const nodePort = specOf(web).ports![0]!.nodePort;
    const b = makeServer(9);
    b.api.create(service('warm'));
    b.store.restore(a.store.snapshot());
    const ipTaken = thrown(() => b.api.create(service('copy', { clusterIP: '10.96.5.5' }))) as StatusError;
    expect(ipTaken.message).toContain('failed to allocate IP 10.96.5.5: provided IP is already allocated');
    const portTaken = thrown(() =>
      b.api.create(service('copy', { type: 'NodePort', ports: [{ port: 80, nodePort }] })),
    ) as StatusError;
    expect(portTaken.message).toContain('provided port is already allocated');
    b.api.delete('services', 'default', 'web');
    const again = b.api.create(
      service('copy', { type: 'NodePort', clusterIP: '10.96.5.5', ports: [{ port: 80, nodePort }] }),
    );
    expect(specOf(again).clusterIP).toBe('10.96.5.5');
  });
});
