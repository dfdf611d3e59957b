// A lab with variants in the browser's host (the worker's handler, driven directly): the learner's draw
// seed picks the variant at every load, so a reload from saved state and a Reset keep the same fault;
// the report names the variant and its seed, and re-grades as that variant.
import { describe, expect, it } from 'vitest';
import { drawVariant, engine, parseReport, regradeReport } from '../grader/index.ts';
import { workerHarness } from './test-host.ts';
import { loadBundledLab } from './labs.ts';
import { type CheckSummary, type HostState, type LoadResult } from './protocol.ts';

const harness = workerHarness;

const failing = (c: CheckSummary) => c.results.filter((r) => r.status !== 'pass').map((r) => r.id);

describe('a lab with variants in the lab host', { timeout: 120_000 }, async () => {
  const capstone = (await loadBundledLab('17-capstone')).lab;
  const seedFor = (v: string) => [...Array(200).keys()].find((s) => drawVariant(capstone, s) === v)!;

  it("loads the variant the seed draws, with that variant's start files", async () => {
    const h = harness();
    const seed = seedFor('policy');
    const r: LoadResult = await h.request('load', { labId: '17-capstone', start: { kind: 'fresh' }, seed });
    expect(r.lab.variant).toMatchObject({
      id: 'policy',
      seed,
      of: ['dns', 'kube-proxy', 'overlay', 'policy', 'selector'],
    });
    expect(r.lab.variant?.title.en).toMatch(/api-from-web/);
    // api-from-web admits port 80 in this variant's policies.yaml.
    expect(r.files['policies.yaml']).toMatch(/app: web \}\n\s+ports:\n\s+- protocol: TCP\n\s+port: 80\n/);
    // The hidden whole-set check sees the same fault: api admits web on 80, not on 8080.
    expect(failing(await h.request('check', {}))).toEqual([
      'order-accepted',
      'web-reaches-api',
      'hidden-api-admits-only-web',
    ]);
    const sel = await harness().request('load', {
      labId: '17-capstone',
      start: { kind: 'fresh' },
      seed: seedFor('selector'),
    });
    expect(sel.lab.variant?.id).toBe('selector');
    expect(sel.files['api-service.yaml']).toContain('app: shop-api');
  });

  it('a reload from saved state and a Reset keep the variant', async () => {
    const seed = seedFor('dns');
    const h = harness();
    await h.request('load', { labId: '17-capstone', start: { kind: 'fresh' }, seed });
    await h.request('exec', { line: 'kubectl -n shop get networkpolicy' });
    const state: HostState = await h.request('state', {});
    const before = failing(await h.request('check', {}));

    const reloaded = harness();
    const r = await reloaded.request('load', { labId: '17-capstone', start: { kind: 'state', state }, seed });
    expect(r.lab.variant?.id).toBe('dns');
    expect(r.history).toEqual(['kubectl -n shop get networkpolicy']);
    expect(failing(await reloaded.request('check', {}))).toEqual(before);

    const reset = await reloaded.request('load', { labId: '17-capstone', start: { kind: 'fresh' }, seed });
    expect(reset.lab.variant?.id).toBe('dns');
    expect(reset.files['policies.yaml']).toContain('port: 5353');
  });

  it('reports the variant and the seed, and the report re-grades as that variant', async () => {
    const seed = seedFor('selector');
    const h = harness();
    await h.request('load', { labId: '17-capstone', start: { kind: 'fresh' }, seed });
    await h.request('exec', { line: "sed -i 's/app: shop-api/app: api/' api-service.yaml" });
    await h.request('exec', { line: 'kubectl apply -f api-service.yaml' });
    const report = parseReport(
      JSON.stringify(await h.request('report', { locale: 'pt-BR', submittedAt: '2026-11-29T12:00:00Z' })),
    );
    expect(report.lab).toMatchObject({ id: '17-capstone', variant: 'selector', seed });
    expect(report.score.percent).toBe(100);
    const g = regradeReport(await loadBundledLab('17-capstone'), report, { engine });
    expect(g.flags).toEqual([]);
    expect(g.score.percent).toBe(100);
  });

  it('a lab without variants has none and ignores the seed', async () => {
    const r = await harness().request('load', { labId: '00-sandbox', start: { kind: 'fresh' }, seed: 3 });
    expect(r.lab.variant).toBeUndefined();
  });
});
