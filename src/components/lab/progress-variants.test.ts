// Saved progress of a lab with variants keeps the learner's draw seed: the host rebuilds the same
// variant from it on every load, so a reload, a Reset or another tab's record keep the fault.
import { describe, expect, it } from 'vitest';
import { classify, isDrawSeed, storedDrawSeed } from './progress.ts';

const record = {
  version: 2,
  labId: '17-capstone',
  labVersion: 1,
  files: { 'policies.yaml': 'kind: NetworkPolicy\n' },
  state: {
    snapshot: { format: 'packetpath-cluster' },
    journal: [{ run: 'kubectl -n shop get networkpolicy' }],
    quizAnswers: {},
    startedAt: '',
  },
  history: ['kubectl -n shop get networkpolicy'],
  checks: null,
  hintLevel: 0,
  updatedAt: '2026-11-29T00:00:00Z',
  rev: 1,
  drawSeed: 4_000_000_000,
};

describe('the draw seed in saved progress', () => {
  it('is kept by a current record', () => {
    const stored = classify(record, '17-capstone');
    expect(stored.kind).toBe('ok');
    expect(storedDrawSeed(stored)).toBe(4_000_000_000);
  });

  it('is 0 for a record without one (built with the seed the host uses when none is sent)', () => {
    const { drawSeed: _seed, ...without } = record;
    expect(storedDrawSeed(classify(without, '17-capstone'))).toBe(0);
    // A version 1 record (no rev) migrates as it is, seed included.
    const { rev: _rev, ...v1 } = record;
    expect(storedDrawSeed(classify({ ...v1, version: 1 }, '17-capstone'))).toBe(4_000_000_000);
  });

  it('is undefined when nothing is stored (the page makes a new one)', () => {
    expect(storedDrawSeed(classify(undefined, '17-capstone'))).toBeUndefined();
    expect(storedDrawSeed(classify('garbage', '17-capstone'))).toBeUndefined();
  });

  it('survives salvage, so a replayed journal runs on its own variant; a damaged seed is a damaged field', () => {
    const damaged = classify({ ...record, hintLevel: 'x' }, '17-capstone');
    expect(damaged).toMatchObject({ kind: 'old', drawSeed: 4_000_000_000 });
    expect(storedDrawSeed(damaged)).toBe(4_000_000_000);
    const badSeed = classify({ ...record, drawSeed: -1 }, '17-capstone');
    expect(badSeed).toMatchObject({ kind: 'old', reason: 'damaged fields: drawSeed' });
    expect(storedDrawSeed(badSeed)).toBe(0);
  });

  it('accepts whole numbers in [0, 2^32) only', () => {
    for (const ok of [0, 1, 0xffffffff]) expect(isDrawSeed(ok)).toBe(true);
    for (const bad of [-1, 0x100000000, 1.5, '3', null, Number.NaN]) expect(isDrawSeed(bad)).toBe(false);
  });
});
