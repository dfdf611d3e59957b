import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ApiStore, objectKey, splitKey, type WatchEvent } from './store.ts';
import { SimClock } from '../util/clock.ts';
import { Rng } from '../util/rng.ts';
import { StatusError } from './errors.ts';

function makeStore() {
  return new ApiStore(new SimClock(), new Rng(42));
}

const cm = (name: string, data: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default' },
  data,
});

describe('ApiStore', () => {
  it('assigns uid, resourceVersion and creationTimestamp on create; generation only where tracked', () => {
    const store = makeStore();
    const obj = store.create('configmaps', cm('a'));
    expect(obj.metadata.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(obj.metadata.resourceVersion).toBe('1');
    expect(obj.metadata.generation).toBeUndefined();
    expect(obj.metadata.creationTimestamp).toBe('2026-01-01T00:00:00Z');
    const np = store.create('networkpolicies.networking.k8s.io', {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'deny', namespace: 'default' },
      spec: { podSelector: {} },
    });
    expect(np.metadata.generation).toBe(1);
  });

  it('rejects duplicates with the API wording', () => {
    const store = makeStore();
    store.create('configmaps', cm('a'));
    expect(() => store.create('configmaps', cm('a'))).toThrow(
      new StatusError('AlreadyExists', 'configmaps "a" already exists'),
    );
  });

  it('NotFound names the qualified resource', () => {
    const store = makeStore();
    expect(() => store.mustGet('deployments.apps', 'default', 'web')).toThrow(
      'deployments.apps "web" not found',
    );
  });

  it('an update that changes nothing keeps the resourceVersion and emits nothing', () => {
    const store = makeStore();
    const a = store.create('configmaps', cm('a', { k: 'v' }));
    const events: WatchEvent[] = [];
    store.watch('configmaps', (e) => events.push(e));
    const same = store.update('configmaps', { ...a, metadata: { ...a.metadata } });
    expect(same.metadata.resourceVersion).toBe(a.metadata.resourceVersion);
    expect(events).toHaveLength(0);
  });

  it('generation moves only when more than metadata/status changes', () => {
    const store = makeStore();
    const a = store.create('networkpolicies.networking.k8s.io', {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'deny', namespace: 'default' },
      spec: { podSelector: {} },
    });
    const relabelled = store.update('networkpolicies.networking.k8s.io', {
      ...a,
      metadata: { ...a.metadata, labels: { x: 'y' } },
    });
    expect(relabelled.metadata.generation).toBe(1);
    const changed = store.update('networkpolicies.networking.k8s.io', {
      ...relabelled,
      spec: { podSelector: { matchLabels: { a: 'b' } } },
    });
    expect(changed.metadata.generation).toBe(2);
  });

  it('a stale resourceVersion is a Conflict', () => {
    const store = makeStore();
    const a = store.create('configmaps', cm('a', { k: 'v' }));
    store.update('configmaps', { ...a, data: { k: 'w' } });
    expect(() => store.update('configmaps', { ...a, data: { k: 'x' } })).toThrow(
      /Operation cannot be fulfilled on configmaps "a"/,
    );
  });

  it('lists sorted by namespace then name and emits watch events in order', () => {
    const store = makeStore();
    const seen: string[] = [];
    store.watch('*', (e) => seen.push(`${e.type} ${e.object.metadata.name}`));
    store.create('configmaps', { ...cm('b'), metadata: { name: 'b', namespace: 'x' } });
    store.create('configmaps', cm('c'));
    store.create('configmaps', cm('a'));
    store.delete('configmaps', 'default', 'c');
    expect(store.list('configmaps').map((o) => `${o.metadata.namespace}/${o.metadata.name}`)).toEqual([
      'default/a',
      'x/b',
    ]);
    expect(seen).toEqual(['ADDED b', 'ADDED c', 'ADDED a', 'DELETED c']);
  });

  it('cluster-scoped objects carry no namespace', () => {
    const store = makeStore();
    const ns = store.create('namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'shop', namespace: 'oops' },
    });
    expect(ns.metadata.namespace).toBeUndefined();
    expect(store.get('namespaces', 'whatever', 'shop')).toBeDefined();
  });

  it('snapshot → restore → snapshot is identical, and inputs are copied', () => {
    const store = makeStore();
    const input = cm('a', { k: 'v' });
    store.create('configmaps', input);
    input.data.k = 'mutated';
    store.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    const snap = store.snapshot();
    const copy = makeStore();
    copy.restore(JSON.parse(JSON.stringify(snap)));
    expect(copy.snapshot()).toEqual(snap);
    expect(copy.get('configmaps', 'default', 'a')?.data).toEqual({ k: 'v' });
  });
});

describe('objectKey and splitKey', () => {
  it('round-trip namespaced and cluster-scoped keys, and hand out one string per pair', () => {
    const name = ['web-', '7d4c9b8d5-x2x4z'].join('');
    const key = objectKey('default', name);
    expect(key).toBe('default/web-7d4c9b8d5-x2x4z');
    expect(splitKey(key)).toEqual(['default', name]);
    expect(objectKey('default', 'web-7d4c9b8d5-x2x4z')).toBe(key);
    expect(objectKey(undefined, 'kind-worker')).toBe('kind-worker');
    expect(objectKey('', 'kind-worker')).toBe('kind-worker');
    expect(splitKey('kind-worker')).toEqual(['', 'kind-worker']);
    // Keys made elsewhere (a queue restored from text) still split.
    expect(splitKey(['kube-system', 'coredns'].join('/'))).toEqual(['kube-system', 'coredns']);
  });
});

describe('ApiStore.updateStatus', () => {
  type Status = Record<string, unknown> | undefined;
  const statusArb: fc.Arbitrary<Status> = fc.option(
    fc.dictionary(fc.constantFrom('phase', 'podIP', 'conditions', 'replicas'), fc.jsonValue({ maxDepth: 2 })),
    { nil: undefined },
  );
  // A write either replaces the status or spreads the stored one (sharing its parts, as the kubelet does).
  const writeArb = fc.record({ name: fc.constantFrom('a', 'b'), spread: fc.boolean(), status: statusArb });

  it('stores and announces exactly what update of { ...stored, status } does', () => {
    fc.assert(
      fc.property(fc.array(writeArb, { maxLength: 12 }), (writes) => {
        const [fast, full] = [makeStore(), makeStore()];
        const events: WatchEvent[][] = [[], []];
        [fast, full].forEach((s, i) => {
          s.watch('pods', (e) => events[i]!.push(e));
          for (const name of ['a', 'b'])
            s.create('pods', {
              apiVersion: 'v1',
              kind: 'Pod',
              metadata: { name, namespace: 'default' },
              spec: { containers: [{ name: 'c', image: 'nginx' }] },
              status: { phase: 'Pending' },
            });
        });
        for (const w of writes) {
          const status = (old: { status?: unknown }) =>
            w.spread && w.status ? { ...(old.status as object), ...w.status } : w.status;
          const a = fast.get('pods', 'default', w.name)!;
          fast.updateStatus('pods', 'default', w.name, status(a));
          const b = full.get('pods', 'default', w.name)!;
          full.update('pods', { ...b, status: status(b) } as never);
        }
        expect(JSON.stringify(fast.snapshot())).toBe(JSON.stringify(full.snapshot()));
        expect(events[0]!.map((e) => JSON.stringify(e))).toEqual(events[1]!.map((e) => JSON.stringify(e)));
      }),
      { numRuns: 300 },
    );
  });
});
