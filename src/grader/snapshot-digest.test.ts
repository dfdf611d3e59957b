import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from './content-hash.ts';
import { snapshotDigest, snapshotJson } from './snapshot-digest.ts';
import { fakeEngine } from './test-helpers.ts';

/** A snapshot-shaped value: any JSON around a store whose objects list holds entries of any shape. */
const entry = fc.oneof(
  fc.record({ resource: fc.string(), object: fc.jsonValue() }),
  fc.record({ object: fc.jsonValue(), resource: fc.string(), extra: fc.jsonValue() }),
  fc.jsonValue(),
);
const snapshotLike = fc.oneof(
  fc.record({
    format: fc.string(),
    clock: fc.double(),
    store: fc.record({ resourceVersion: fc.jsonValue(), objects: fc.array(entry), more: fc.jsonValue() }),
    files: fc.dictionary(fc.string(), fc.string()),
  }),
  fc.record({ store: fc.record({ objects: fc.jsonValue() }) }),
  fc.jsonValue(),
);

describe('snapshotJson', () => {
  it('is exactly JSON.stringify of a real snapshot, with and without remembered object texts', () => {
    const c = fakeEngine.createCluster(undefined, { seed: 3, files: { 'a.yaml': 'x: 1\n' } });
    c.execSync('mk svc shop/api');
    c.execSync('mk cm shop/cfg {"data":{"k":"v","__proto__":"p"}}');
    const snap = c.snapshot();
    expect(snapshotJson(snap)).toBe(JSON.stringify(snap));
    expect(snapshotJson(snap, true)).toBe(JSON.stringify(snap));
    c.execSync('rm svc shop/api');
    const next = c.snapshot();
    expect(snapshotJson(next, true)).toBe(JSON.stringify(next));
  });

  it('is exactly JSON.stringify for any shape a report may carry (property)', () => {
    fc.assert(
      fc.property(snapshotLike, (value) => {
        expect(snapshotJson(value)).toBe(JSON.stringify(value));
        expect(snapshotJson(JSON.parse(JSON.stringify(value)))).toBe(JSON.stringify(value));
      }),
      { numRuns: 300 },
    );
  });

  it('writes what JSON.stringify writes for holes, undefined members and toJSON', () => {
    const objects: unknown[] = [];
    objects[2] = { resource: 'pods', object: { a: undefined, b: 1 } };
    objects.push(undefined);
    const snap = {
      store: { objects, when: new Date(0) },
      gone: undefined,
      rng: [1, -0, Number.NaN],
    };
    expect(snapshotJson(snap)).toBe(JSON.stringify(snap));
  });
});

describe('snapshotDigest', () => {
  it('is sha256 of the JSON text, and changes with any edit of it', () => {
    const snap = { store: { resourceVersion: 3, objects: [{ resource: 'pods', object: { n: 'a' } }] } };
    expect(snapshotDigest(snap)).toBe(`sha256:${sha256Hex(JSON.stringify(snap))}`);
    const edited = structuredClone(snap);
    edited.store.objects[0]!.object.n = 'b';
    expect(snapshotDigest(edited)).not.toBe(snapshotDigest(snap));
    // The Node CLI passes node:crypto's sha256: the same digest.
    expect(snapshotDigest(snap, { sha256: () => createHash('sha256') })).toBe(snapshotDigest(snap));
    expect(snapshotDigest(snap, { remember: true })).toBe(snapshotDigest(snap));
  });
});
