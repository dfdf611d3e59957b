/**
 * The table's caches (sorted lists per namespace, indexes with their sorted lists per value) must
 * always answer what a full scan would, whatever sequence of creates, updates and deletes came first.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { AnyObject } from './objects.ts';
import { compareObjects, Table } from './table.ts';

type Op =
  | { kind: 'set'; ns: number; name: number; labels: number[]; owner: number | null }
  | { kind: 'delete'; ns: number; name: number }
  | { kind: 'touch'; ns: number; name: number }
  | { kind: 'read'; value: number }
  | { kind: 'clear' };

const LABELS = ['app=a', 'app=b', 'tier=web', 'tier=db'];

function object(ns: number, name: number, labels: number[], owner: number | null, serial: number): AnyObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      namespace: `ns${ns}`,
      name: `p${name}`,
      uid: `u${serial}`,
      resourceVersion: String(serial),
      creationTimestamp: '',
      labels: Object.fromEntries(labels.map((i) => LABELS[i]!.split('=') as [string, string])),
      ...(owner === null
        ? {}
        : { ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'o', uid: `o${owner}` }] }),
    },
  };
}

const byOwner = (o: AnyObject) => o.metadata.ownerReferences?.[0]?.uid;
const byLabel = (o: AnyObject) => Object.entries(o.metadata.labels ?? {}).map(([k, v]) => `${k}=${v}`);

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('set' as const),
    ns: fc.integer({ min: 0, max: 2 }),
    name: fc.integer({ min: 0, max: 6 }),
    labels: fc.uniqueArray(fc.integer({ min: 0, max: LABELS.length - 1 }), { maxLength: 3 }),
    owner: fc.option(fc.integer({ min: 0, max: 2 })),
  }),
  fc.record({
    kind: fc.constant('delete' as const),
    ns: fc.integer({ min: 0, max: 2 }),
    name: fc.integer({ min: 0, max: 6 }),
  }),
  // A status-like write: a new version that shares the stored labels map (the index's `reads`).
  fc.record({
    kind: fc.constant('touch' as const),
    ns: fc.integer({ min: 0, max: 2 }),
    name: fc.integer({ min: 0, max: 6 }),
  }),
  fc.record({ kind: fc.constant('read' as const), value: fc.integer({ min: 0, max: 3 }) }),
  fc.constant({ kind: 'clear' as const }),
);

describe('Table', () => {
  it('lists and indexes agree with a full scan after any sequence of writes', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const table = new Table();
        table.addIndex('owner', byOwner);
        table.addIndex('label', byLabel, (o) => o.metadata.labels);
        let serial = 0;
        const check = () => {
          const all = [...table.values()].sort(compareObjects);
          expect(table.list()).toEqual(all);
          for (let ns = 0; ns < 3; ns++)
            expect(table.list(`ns${ns}`)).toEqual(all.filter((o) => o.metadata.namespace === `ns${ns}`));
          for (let owner = 0; owner < 3; owner++)
            expect(table.byIndex('owner', `o${owner}`)).toEqual(
              all.filter((o) => byOwner(o) === `o${owner}`),
            );
          for (const l of LABELS) {
            const labelled = all.filter((o) => byLabel(o).includes(l));
            expect(table.byIndex('label', l)).toEqual(labelled);
            const visited: AnyObject[] = [];
            expect(table.someIndexed('label', l, (o) => (visited.push(o), false))).toBe(false);
            expect(visited.sort(compareObjects)).toEqual(labelled);
            for (const wanted of labelled)
              expect(table.someIndexed('label', l, (o) => o === wanted)).toBe(true);
          }
        };
        for (const op of ops) {
          if (op.kind === 'set')
            table.set(`ns${op.ns}`, `p${op.name}`, object(op.ns, op.name, op.labels, op.owner, ++serial));
          else if (op.kind === 'delete') table.delete(`ns${op.ns}`, `p${op.name}`);
          else if (op.kind === 'touch') {
            const old = table.get(`ns${op.ns}`, `p${op.name}`);
            if (old)
              table.set(`ns${op.ns}`, `p${op.name}`, {
                ...old,
                metadata: { ...old.metadata, resourceVersion: String(++serial) },
              });
          } else if (op.kind === 'clear') table.clear();
          else {
            // Reads fill the caches that later writes must keep right.
            table.list();
            table.list(`ns${op.value % 3}`);
            table.byIndex('owner', `o${op.value % 3}`);
            table.byIndex('label', LABELS[op.value]!);
            // Checked at reads and at the end only, so several writes meet the same cached lists
            // (an update leaves them stale; an insert copies a stale list).
            check();
          }
        }
        check();
      }),
      { numRuns: 1000 },
    );
  });

  it('hands out copies from byIndex, so callers may sort them', () => {
    const table = new Table();
    table.addIndex('label', byLabel);
    table.set('ns0', 'p1', object(0, 1, [0], null, 1));
    table.set('ns0', 'p2', object(0, 2, [0], null, 2));
    table.byIndex('label', 'app=a').reverse();
    expect(table.byIndex('label', 'app=a').map((o) => o.metadata.name)).toEqual(['p1', 'p2']);
  });
});
