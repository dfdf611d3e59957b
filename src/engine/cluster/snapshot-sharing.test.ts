/**
 * Snapshots share the store's objects instead of copying them (stored objects are never mutated, a write
 * replaces them), and a restore takes them back as they are. These tests pin down what that must not
 * change: clusters restored from one snapshot move on independently, the snapshot itself never changes,
 * and a restore from JSON (or from objects a caller built) behaves exactly like one from shared objects.
 */
import { describe, expect, it } from 'vitest';
import { ApiStore } from '../api/store.ts';
import { Rng } from '../util/rng.ts';
import { SimClock } from '../util/clock.ts';
import { createCluster, restoreCluster, type Cluster } from './cluster.ts';

const cm = (name: string, data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default' },
  data,
});

function run(c: Cluster, lines: readonly string[]): void {
  for (const line of lines) {
    const r = c.execSync(line, { interactive: true });
    expect(r.stderr, line).toBe('');
  }
}

describe('store snapshots share stored objects', () => {
  it('hands out the stored instances, and a restore of that snapshot keeps them', () => {
    const store = new ApiStore(new SimClock(), new Rng(1));
    const stored = store.create('configmaps', cm('a', { k: 'v' }));
    const snap = store.snapshot();
    expect(snap.objects[0]!.object).toBe(stored);
    const copy = new ApiStore(new SimClock(), new Rng(1));
    copy.restore(snap);
    expect(copy.get('configmaps', 'default', 'a')).toBe(stored);
  });

  it('copies objects it did not hand out: parsed JSON, or objects a caller built and may change', () => {
    const store = new ApiStore(new SimClock(), new Rng(1));
    store.create('configmaps', cm('a', { k: 'v' }));
    const parsed = JSON.parse(JSON.stringify(store.snapshot())) as ReturnType<ApiStore['snapshot']>;
    const copy = new ApiStore(new SimClock(), new Rng(1));
    copy.restore(parsed);
    const object = parsed.objects[0]!.object as unknown as { data: Record<string, string> };
    expect(copy.get('configmaps', 'default', 'a')).not.toBe(object);
    object.data.k = 'changed after the restore';
    expect(copy.get('configmaps', 'default', 'a')?.data).toEqual({ k: 'v' });
  });

  it('a write to a restored store replaces the shared object and leaves the original store alone', () => {
    const store = new ApiStore(new SimClock(), new Rng(1));
    const original = store.create('configmaps', cm('a', { k: 'v' }));
    const copy = new ApiStore(new SimClock(), new Rng(1));
    copy.restore(store.snapshot());
    copy.update('configmaps', { ...original, data: { k: 'w' } });
    expect(copy.get('configmaps', 'default', 'a')?.data).toEqual({ k: 'w' });
    expect(store.get('configmaps', 'default', 'a')).toBe(original);
    expect(original.data).toEqual({ k: 'v' });
  });
});

describe('clusters restored from one snapshot', () => {
  it('move on independently, leave the snapshot unchanged, and match a restore from JSON text', () => {
    const a = createCluster(undefined, { seed: 7 });
    run(a, [
      'kubectl create deployment web --image=nginx --replicas=2',
      'kubectl expose deployment web --port=80',
    ]);
    const snap = a.snapshot();
    const text = JSON.stringify(snap);
    const shared = restoreCluster(snap);
    const fromText = restoreCluster(text);
    const theirs = [
      'kubectl scale deployment web --replicas=4',
      'kubectl label pods -l app=web tier=front',
      'kubectl delete service web',
    ];
    run(shared, theirs);
    run(fromText, theirs);
    run(a, ['kubectl scale deployment web --replicas=1', 'kubectl create deployment api --image=nginx']);
    // Neither cluster's writes reached the objects the snapshot shares with them.
    expect(JSON.stringify(snap)).toBe(text);
    expect(JSON.stringify(shared.snapshot())).toBe(JSON.stringify(fromText.snapshot()));
    expect(shared.store.list('pods').filter((p) => p.metadata.labels?.tier === 'front')).toHaveLength(4);
    expect(a.store.list('pods').some((p) => p.metadata.labels?.tier === 'front')).toBe(false);
    expect(a.store.get('services', 'default', 'web')).toBeDefined();
  });
});
