// Grade reports made in the browser's host carry the hash of the start state the session began from
// (`engine.startState`), also after a reload from saved state, so the instructor's re-grade can tell a
// report made against another start (another simulator build, a modified copy of the lab) apart.
import { describe, expect, it } from 'vitest';
import {
  engine,
  flagText,
  parseReport,
  regradeReport,
  startLab,
  startStateHash,
  type GradeReport,
} from '../grader/index.ts';
import { workerHarness } from './test-host.ts';
import { loadBundledLab } from './labs.ts';
import { type HostState } from './protocol.ts';

const harness = workerHarness;

const download = async (h: ReturnType<typeof harness>): Promise<GradeReport> =>
  parseReport(
    JSON.stringify(await h.request('report', { locale: 'en', submittedAt: '2026-11-29T12:00:00Z' })),
  );

describe('the start state in reports made by the lab host', { timeout: 120_000 }, async () => {
  const lab = await loadBundledLab('00-sandbox');
  const expected = startStateHash(startLab(lab));

  it('records the start state the session began from, and the re-grade agrees with it', async () => {
    const h = harness();
    await h.request('load', { labId: '00-sandbox', start: { kind: 'fresh' }, seed: 1 });
    await h.request('exec', { line: 'kubectl apply -f web.yaml' });
    const report = await download(h);
    expect(report.engine?.startState).toBe(expected);
    expect(regradeReport(lab, report, { engine })).toMatchObject({ flags: [], notes: [] });
  });

  it('keeps it across a reload from saved state, and a replayed start computes it again', async () => {
    const h = harness();
    await h.request('load', { labId: '00-sandbox', start: { kind: 'fresh' }, seed: 1 });
    await h.request('exec', { line: 'kubectl apply -f web.yaml' });
    const state: HostState = await h.request('state', {});
    expect(state.startState).toBe(expected);
    const reloaded = harness();
    await reloaded.request('load', { labId: '00-sandbox', start: { kind: 'state', state }, seed: 1 });
    expect((await download(reloaded)).engine?.startState).toBe(expected);
    const replayed = harness();
    await replayed.request('load', {
      labId: '00-sandbox',
      start: { kind: 'replay', journal: state.journal },
      seed: 1,
    });
    expect((await download(replayed)).engine?.startState).toBe(expected);
  });

  it('leaves it out after a reload from a state saved without it, and the re-grade notes that', async () => {
    const h = harness();
    await h.request('load', { labId: '00-sandbox', start: { kind: 'fresh' }, seed: 1 });
    const { startState: _dropped, ...older } = await h.request('state', {});
    const reloaded = harness();
    await reloaded.request('load', { labId: '00-sandbox', start: { kind: 'state', state: older }, seed: 1 });
    const report = await download(reloaded);
    expect(report.engine?.startState).toBeUndefined();
    expect(regradeReport(lab, report, { engine }).notes).toEqual([
      'report does not record the start state it began from',
    ]);
  });

  it('a saved state from another start makes a report the re-grade flags', async () => {
    const h = harness();
    await h.request('load', { labId: '00-sandbox', start: { kind: 'fresh' }, seed: 1 });
    const other = `sha256:${'0'.repeat(64)}`;
    const state: HostState = { ...(await h.request('state', {})), startState: other };
    const reloaded = harness();
    await reloaded.request('load', { labId: '00-sandbox', start: { kind: 'state', state }, seed: 1 });
    const g = regradeReport(lab, await download(reloaded), { engine });
    expect(g.flags.map(flagText)).toEqual([
      `report began from start state sha256:000000000000…, but this lab starts from ${expected.slice(0, 19)}… (another simulator build or a modified copy of the lab): snapshot not compared`,
    ]);
  });
});
