/**
 * The state outside the API objects lives in the snapshot: a restored cluster keeps its background
 * port-forwards, the CoreDNS replicas' logs and reload history, and the nodes' counters and conntrack.
 * A port-forward ends when its pod goes away. And restoreCluster refuses, with a SnapshotError that
 * says what is wrong, anything that is not a snapshot it can run from.
 */
import { describe, expect, it } from 'vitest';
import { defaultCorefileText } from '../dataplane/dns/corefile.ts';
import { createCluster, restoreCluster, SnapshotError, type Cluster } from './cluster.ts';
import { MAX_SNAPSHOT_CHARS } from './snapshot-schema.ts';

function ok(c: Cluster, line: string): string {
  const r = c.execSync(line, { interactive: true });
  expect(r.exitCode, `${line}\n${r.stderr}`).toBe(0);
  return r.stdout;
}

const CURL = 'curl -s -o /dev/null -w "%{http_code}" localhost:18080';
const restored = (c: Cluster) => restoreCluster(JSON.stringify(c.snapshot()));

function withForward(): Cluster {
  const c = createCluster(undefined, { seed: 3 });
  ok(c, 'kubectl create deployment web --image=nginx');
  ok(c, 'kubectl rollout status deploy/web');
  ok(c, 'kubectl port-forward deploy/web 18080:80 >/dev/null 2>&1 &');
  return c;
}

describe('port-forwards', () => {
  it('keep running in a restored cluster', () => {
    const c = restored(withForward());
    expect(c.execSync(CURL)).toMatchObject({ stdout: '200', exitCode: 0 });
    expect(c.hostForwards.active()).toEqual([
      {
        addresses: ['127.0.0.1', '::1'],
        localPort: 18080,
        namespace: 'default',
        pod: expect.stringMatching(/^web-/),
        podPort: 80,
      },
    ]);
  });

  it('end when their pod is deleted: the port is closed (curl exit 7), the port free again', () => {
    const c = withForward();
    ok(c, 'kubectl delete pod -l app=web');
    expect(c.hostForwards.active()).toEqual([]);
    expect(c.execSync(CURL)).toMatchObject({ stdout: '000', exitCode: 7 });
    // A new forward to the ReplicaSet's new pod can listen on the port again.
    ok(c, 'kubectl rollout status deploy/web');
    expect(ok(c, 'kubectl port-forward deploy/web 18080:80')).toBe(
      'Forwarding from 127.0.0.1:18080 -> 80\nForwarding from [::1]:18080 -> 80\n',
    );
    expect(c.execSync(CURL)).toMatchObject({ stdout: '200', exitCode: 0 });
  });
});

describe('CoreDNS state', () => {
  it('logs the same reloads and queries after a restore', () => {
    const c = createCluster(undefined, { seed: 5 });
    c.files.write(
      'Corefile',
      defaultCorefileText('cluster.local').replace('    errors\n', '    errors\n    log\n'),
    );
    ok(
      c,
      'kubectl -n kube-system create configmap coredns --from-file=Corefile --dry-run=client -o yaml | kubectl apply -f -',
    );
    ok(c, 'sleep 40');
    ok(c, 'kubectl run dns --image=busybox:1.36 -- sleep 3600');
    ok(c, 'kubectl wait --for=condition=Ready pod/dns');
    ok(c, 'kubectl exec dns -- nslookup kubernetes.default.svc.cluster.local');
    const logs = 'kubectl -n kube-system logs -l k8s-app=kube-dns --tail=-1';
    const before = ok(c, logs);
    expect(before).toContain('[INFO] Reloading complete');
    expect(before).toContain('"A IN kubernetes.default.svc.cluster.local. udp');
    expect(ok(restored(c), logs)).toBe(before);
  });
});

describe('node state', () => {
  it('keeps the rule counters and conntrack entries', () => {
    const c = createCluster(undefined, { seed: 7 });
    const node = c.config.nodes[1]!.name;
    ok(c, `kubectl debug node/${node} -it --image=nicolaka/netshoot`);
    ok(c, 'curl -sk -o /dev/null https://10.96.0.1/');
    const copy = restored(c);
    for (const line of ['iptables -t nat -L KUBE-SERVICES -v -n', 'conntrack -L'])
      expect(ok(copy, line)).toBe(ok(c, line));
    expect(ok(copy, 'conntrack -L')).toContain('dst=10.96.0.1');
    expect(ok(copy, 'iptables -t nat -L KUBE-SERVICES -v -n')).toMatch(/^ +1 +60 KUBE-SVC-/m);
  });
});

describe('restoreCluster validates what it loads', () => {
  const good = () =>
    JSON.parse(JSON.stringify(createCluster(undefined, { seed: 1 }).snapshot())) as Record<string, unknown>;
  const refuse = (input: unknown) => {
    try {
      restoreCluster(typeof input === 'string' ? input : JSON.stringify(input));
    } catch (e) {
      expect(e).toBeInstanceOf(SnapshotError);
      return (e as Error).message;
    }
    throw new Error('restored');
  };

  it.each([
    [
      'a version it does not read',
      (s: Record<string, unknown>) => ({ ...s, version: 4 }),
      'unsupported snapshot version 4 (this engine reads versions 1 to 3)',
    ],
    [
      'a sighting without a kind',
      (s: Record<string, unknown>) => ({ ...s, seen: [{ line: 'kubectl get pods', names: [] }] }),
      'invalid snapshot: seen.0.resource: Invalid input: expected string, received undefined',
    ],
    [
      'no clock',
      ({ clock: _c, ...s }: Record<string, unknown>) => s,
      'invalid snapshot: clock: Invalid input: expected number, received undefined',
    ],
    [
      'a clock that is text',
      (s: Record<string, unknown>) => ({ ...s, clock: 'noon' }),
      'invalid snapshot: clock: Invalid input: expected number, received string',
    ],
    [
      'an unknown resource',
      (s: Record<string, unknown>) => ({
        ...s,
        store: { resourceVersion: 1, objects: [{ resource: 'gizmos', object: {} }] },
      }),
      'invalid snapshot: store.objects.0.resource: not a resource this API server serves',
    ],
    [
      'an object without a name',
      (s: Record<string, unknown>) => ({
        ...s,
        store: {
          resourceVersion: 1,
          objects: [{ resource: 'pods', object: { apiVersion: 'v1', kind: 'Pod', metadata: {} } }],
        },
      }),
      'invalid snapshot: store.objects.0.object.metadata.name: Invalid input: expected string, received undefined',
    ],
    [
      'a port-forward to port 0',
      (s: Record<string, unknown>) => ({
        ...s,
        hostForwards: [{ addresses: [], localPort: 0, namespace: 'default', pod: 'web', podPort: 80 }],
      }),
      'invalid snapshot: hostForwards.0.localPort: Too small: expected number to be >=1',
    ],
    [
      'ten thousand nodes',
      (s: Record<string, unknown>) => ({
        ...s,
        config: {
          ...(s.config as object),
          nodes: Array.from({ length: 10_000 }, () => (s.config as { nodes: unknown[] }).nodes[0]),
        },
      }),
      'invalid snapshot: config.nodes: Too big: expected array to have <=100 items',
    ],
  ])('refuses %s', (_name, change, message) => {
    expect(refuse(change(good()))).toBe(message);
  });

  it('refuses text that is not JSON, or too large to be a snapshot, before parsing it', () => {
    expect(refuse('{')).toMatch(/^invalid snapshot: .*JSON/);
    expect(refuse(' '.repeat(MAX_SNAPSHOT_CHARS + 1))).toBe(
      `invalid snapshot: ${MAX_SNAPSHOT_CHARS + 1} characters, more than the ${MAX_SNAPSHOT_CHARS} a cluster snapshot may have`,
    );
  });

  it('lets nothing but a SnapshotError out of a well-formed snapshot with nonsense inside', () => {
    const s = good() as { store: { objects: { resource: string; object: { spec?: unknown } }[] } };
    s.store.objects.find((o) => o.resource === 'pods')!.object.spec = 42;
    let cluster: Cluster | undefined;
    try {
      cluster = restoreCluster(JSON.stringify(s));
    } catch (e) {
      expect(e).toBeInstanceOf(SnapshotError);
    }
    if (cluster) expect(cluster.execSync('kubectl get pods -A').exitCode).toBe(0);
  });

  it('migrates a version 1 snapshot: the objects restore, the state outside them starts empty', () => {
    const c = withForward();
    const { hostForwards: _f, dns: _d, corefileHistory: _h, kubeProxy: _k, seen: _s, ...v1 } = c.snapshot();
    const old = restoreCluster(JSON.stringify({ ...v1, version: 1 }));
    expect(old.hostForwards.active()).toEqual([]);
    expect(ok(old, 'kubectl get deploy web -o name')).toBe('deployment.apps/web\n');
    expect(old.snapshot().version).toBe(3);
  });

  it('migrates a version 2 snapshot: nothing has been seen yet, and what is looked at next is', () => {
    const c = withForward();
    ok(c, 'kubectl get deploy');
    const { seen: _s, ...v2 } = c.snapshot();
    const old = restoreCluster(JSON.stringify({ ...v2, version: 2 }));
    expect(old.sightings.list()).toEqual([]);
    expect(old.hostForwards.active()).toHaveLength(1);
    ok(old, 'kubectl get svc kubernetes');
    expect(old.sightings.list()).toEqual([
      {
        line: 'kubectl get svc kubernetes',
        resource: 'services',
        namespace: 'default',
        names: ['kubernetes'],
      },
    ]);
  });
});

describe('what the terminal showed', () => {
  it('lives in the snapshot: a restored cluster remembers what the learner saw', () => {
    const c = withForward();
    ok(c, 'kubectl get deploy -o yaml | grep -c name');
    ok(c, 'kubectl get nodes > nodes.txt');
    const seen = restored(c).sightings.list();
    expect(seen).toEqual([
      {
        line: 'kubectl get deploy -o yaml | grep -c name',
        resource: 'deployments.apps',
        namespace: 'default',
        names: ['web'],
      },
    ]);
  });
});
