import { describe, expect, it } from 'vitest';
import { advance, deployment, getPod, makeCluster, pod, service } from './test-helpers.ts';
import type { Cluster } from '../cluster/cluster.ts';

function slicesOf(c: Cluster, svc: string) {
  return c.api
    .list('endpointslices.discovery.k8s.io', 'default')
    .filter((s) => s.metadata.labels?.['kubernetes.io/service-name'] === svc);
}

describe('EndpointSlice controller', () => {
  it('publishes one slice per selector Service with the ready pods, labels and owner', () => {
    const c = makeCluster();
    c.api.create(deployment('web', 2));
    c.api.create(service('web', { app: 'web' }, [{ name: 'http', port: 80, targetPort: 80 }]));
    advance(c, 15_000);
    const [slice, ...rest] = slicesOf(c, 'web');
    expect(rest).toHaveLength(0);
    expect(slice!.metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(slice!.metadata.labels).toMatchObject({
      'kubernetes.io/service-name': 'web',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
    });
    expect(slice!.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'Service',
      name: 'web',
      controller: true,
    });
    expect(slice!.addressType).toBe('IPv4');
    expect(slice!.ports).toEqual([{ name: 'http', port: 80, protocol: 'TCP' }]);
    const pods = c.api.list('pods', 'default');
    expect(slice!.endpoints?.map((e) => e.addresses[0]).sort()).toEqual(
      pods.map((p) => p.status!.podIP!).sort(),
    );
    for (const e of slice!.endpoints ?? []) {
      expect(e.conditions).toEqual({ ready: true, serving: true, terminating: false });
      expect(e.targetRef).toMatchObject({ kind: 'Pod', namespace: 'default' });
      expect(e.nodeName).toMatch(/^kind-worker2?$/);
    }
    const ep = c.api.get('endpoints', 'default', 'web')!;
    expect(ep.subsets?.[0]?.addresses?.map((a) => a.ip).sort()).toEqual(
      pods.map((p) => p.status!.podIP!).sort(),
    );
    expect(ep.subsets?.[0]?.ports).toEqual([{ name: 'http', port: 80, protocol: 'TCP' }]);
  });

  it('resolves a named targetPort per pod, one slice per port mapping', () => {
    const c = makeCluster();
    const server = (name: string, port: number) =>
      pod(
        name,
        [
          {
            name: 'echo',
            image: 'hashicorp/http-echo',
            args: ['-text=hi', `-listen=:${port}`],
            ports: [{ name: 'web', containerPort: port }],
          },
        ],
        (p) => (p.metadata.labels = { app: 'echo' }),
      );
    c.api.create(server('a', 5678));
    c.api.create(server('b', 8080));
    c.api.create(service('echo', { app: 'echo' }, [{ port: 80, targetPort: 'web' }]));
    advance(c, 10_000);
    const slices = slicesOf(c, 'echo');
    expect(slices.map((s) => s.ports?.[0]?.port).sort()).toEqual([5678, 8080]);
    const byPort = new Map(
      slices.map((s) => [s.ports![0]!.port, s.endpoints!.map((e) => e.targetRef?.name)]),
    );
    expect(byPort.get(5678)).toEqual(['a']);
    expect(byPort.get(8080)).toEqual(['b']);
  });

  it('keeps a terminating pod as ready=false, serving per readiness, terminating=true', () => {
    const c = makeCluster();
    // sh is PID 1 and ignores SIGTERM: the pod stays Terminating for its 30s grace period.
    c.api.create(
      pod(
        'slow',
        [{ name: 's', image: 'busybox', command: ['sh', '-c', 'httpd -p 80; sleep 3600'] }],
        (p) => (p.metadata.labels = { app: 'slow' }),
      ),
    );
    c.api.create(service('slow', { app: 'slow' }, [{ port: 80 }]));
    advance(c, 10_000);
    c.api.delete('pods', 'default', 'slow');
    advance(c, 2000);
    expect(getPod(c, 'slow').metadata.deletionTimestamp).toBeDefined();
    const [slice] = slicesOf(c, 'slow');
    expect(slice!.endpoints).toHaveLength(1);
    expect(slice!.endpoints![0]!.conditions).toEqual({ ready: false, serving: true, terminating: true });
    expect(c.api.get('endpoints', 'default', 'slow')!.subsets ?? []).toEqual([]);
    advance(c, 30_000);
    expect(slicesOf(c, 'slow')[0]!.endpoints).toEqual([]);
  });

  // EndpointSlice endpoints carry the zone of their node (`topology.kubernetes.io/zone`); a zone
  // label added to a node later reaches the slices, while node status updates move nothing.
  it('follows a zone label added to a node', () => {
    const c = makeCluster();
    c.api.create(deployment('web', 2));
    c.api.create(service('web', { app: 'web' }, [{ port: 80 }]));
    advance(c, 15_000);
    const before = slicesOf(c, 'web')[0]!;
    expect(before.endpoints?.every((e) => e.zone === undefined)).toBe(true);
    const node = c.api.get('nodes', undefined, 'kind-worker')!;
    c.api.updateMetadata({
      ...node,
      metadata: { ...node.metadata, labels: { ...node.metadata.labels, 'topology.kubernetes.io/zone': 'a' } },
    });
    advance(c, 2000);
    const after = slicesOf(c, 'web')[0]!;
    const zones = Object.fromEntries((after.endpoints ?? []).map((e) => [e.nodeName, e.zone]));
    expect(Object.keys(zones).sort()).toEqual(['kind-worker', 'kind-worker2']);
    for (const [n, zone] of Object.entries(zones)) expect(zone).toBe(n === 'kind-worker' ? 'a' : undefined);
  });

  // The controller ignores its own writes (endpointSliceTracker) but puts right a slice or an
  // Endpoints object someone else changed.
  it('restores a managed slice and Endpoints edited by hand', () => {
    const c = makeCluster();
    c.api.create(deployment('web', 2));
    c.api.create(service('web', { app: 'web' }, [{ port: 80 }]));
    advance(c, 15_000);
    const slice = slicesOf(c, 'web')[0]!;
    const want = slice.endpoints;
    expect(want).toHaveLength(2);
    c.api.update({ ...slice, endpoints: [] } as unknown as Parameters<typeof c.api.update>[0]);
    const ep = c.api.get('endpoints', 'default', 'web')!;
    c.api.update({ ...ep, subsets: [] } as unknown as Parameters<typeof c.api.update>[0]);
    advance(c, 1000);
    expect(slicesOf(c, 'web')[0]!.endpoints).toEqual(want);
    expect(c.api.get('endpoints', 'default', 'web')!.subsets?.[0]?.addresses).toHaveLength(2);
  });

  it('a selector that matches nothing gives one slice with no endpoints', () => {
    const c = makeCluster();
    c.api.create(service('ghost', { app: 'nothing' }, [{ port: 80 }]));
    advance(c, 2000);
    const slices = slicesOf(c, 'ghost');
    expect(slices).toHaveLength(1);
    expect(slices[0]!.endpoints).toEqual([]);
    expect(slices[0]!.ports).toBeUndefined();
    expect(c.api.get('endpoints', 'default', 'ghost')!.subsets).toBeUndefined();
  });
});

describe('namespace controller', () => {
  it('empties a deleted namespace (pods gracefully), then removes it', () => {
    const c = makeCluster();
    c.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
    c.api.create(deployment('web', 1, (d) => (d.metadata.namespace = 'team')));
    c.api.create(
      pod(
        'sleeper',
        [{ name: 's', image: 'busybox', command: ['sleep', 'infinity'] }],
        (p) => (p.metadata.namespace = 'team'),
      ),
    );
    advance(c, 15_000);
    c.api.delete('namespaces', undefined, 'team');
    advance(c, 2000);
    const ns = c.api.get('namespaces', undefined, 'team');
    expect(ns?.status?.phase).toBe('Terminating');
    expect(c.api.list('deployments.apps', 'team')).toHaveLength(0);
    advance(c, 40_000);
    expect(c.api.get('namespaces', undefined, 'team')).toBeUndefined();
    expect(c.api.list('pods', 'team')).toHaveLength(0);
  });
});
