// Labs with variants: the format (schema and parse), one variant's plain lab, the draw, validation of
// every variant, and reports that name their variant. The fake engine's toy commands (test-helpers.ts)
// keep these fast; test/grader/capstone-variants.test.ts does the same on the real capstone.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labContentHash } from './content-hash.ts';
import { drawFrom, isDrawSeed, MAX_DRAW_SEED, redrawSeed } from './draw.ts';
import { LabError, parseLab } from './lab-parse.ts';
import { startLab } from './lab-runtime.ts';
import { regradeReport } from './regrade.ts';
import { labForReport, parseReport, ReportError, type GradeReport } from './report.ts';
import { LabSession } from './session.ts';
import { fakeEngine } from './test-helpers.ts';
import { validateLab } from './validate.ts';
import { drawVariant, labForLearner, resolveVariant, variantIds } from './variants.ts';

const T = `title: { pt-BR: Verificação, en: Check }`;
const head = `id: 99-variants
version: 1
title: { pt-BR: Variantes, en: Variants }
summary: { pt-BR: Um lab com variantes, en: A lab with variants }
steps: [{ pt-BR: Conserte o que quebrou, en: Fix what broke }]
hints: [{ pt-BR: a, en: a }, { pt-BR: b, en: b }, { pt-BR: c, en: c }]
setup: ['mk svc shop/api']
checks:
  - { id: api, ${T}, type: resource, resource: svc, namespace: shop, name: api }
  - { id: no-junk, ${T}, type: resource, resource: cm, namespace: shop, name: junk, exists: false }
`;
const variants = `variants:
  - id: gone
    title: { pt-BR: O Service sumiu, en: The Service is gone }
    setup: ['rm svc shop/api']
    solution: { commands: ['mk svc shop/api'] }
  - id: junk
    title: { pt-BR: Sobrou um ConfigMap, en: A ConfigMap was left behind }
    setup: ['mk cm shop/junk']
    hints: [{ pt-BR: procure o ConfigMap, en: look for the ConfigMap }]
    checks:
      - { id: file-kept, ${T}, type: output, command: 'cat notes.txt', contains: fixed }
    solution: { commands: ['rm cm shop/junk', 'cat notes.txt'] }
`;
const text = head + variants;
const files = {
  junk: { startFiles: { 'notes.txt': 'broken\n' }, solutionFiles: { 'notes.txt': 'fixed\n' } },
};

const load = (yaml = text, v: Parameters<typeof parseLab>[4] = files) =>
  parseLab('lab.yaml', yaml, {}, {}, v);

describe('the variants format', () => {
  it('parses variants with their defaults, and no shared solution', () => {
    const { lab, variantFiles } = load();
    expect(variantIds(lab)).toEqual(['gone', 'junk']);
    expect(lab.solution).toBeUndefined();
    expect(lab.variants?.[0]).toMatchObject({ setup: ['rm svc shop/api'], checks: [], hints: [] });
    expect(variantFiles?.junk?.startFiles).toEqual({ 'notes.txt': 'broken\n' });
  });

  it('names each problem by its path', () => {
    const err = (yaml: string, v = {}) => {
      try {
        parseLab('lab.yaml', yaml, {}, {}, v);
      } catch (e) {
        expect(e).toBeInstanceOf(LabError);
        return (e as Error).message;
      }
      return 'no error';
    };
    expect(err(head)).toMatch(/lab\.yaml: solution: required \(or variants/);
    expect(err(`${text}solution: { commands: [x] }\n`)).toMatch(
      /solution: a lab with variants has no shared solution/,
    );
    expect(err(text.replace('id: junk', 'id: gone'))).toMatch(
      /variants\[1\]\.id: duplicate variant id "gone"/,
    );
    expect(err(text.replace('id: file-kept', 'id: api'))).toMatch(
      /variants\[1\]\.checks\[0\]\.id: check id "api" is already a shared check id/,
    );
    expect(err(text.replace('id: junk', 'id: Junk!'))).toMatch(/variants\[1\]\.id: must be a lowercase slug/);
    expect(
      err(text.replace('title: { pt-BR: O Service sumiu, en: The Service is gone }', 'title: { en: Gone }')),
    ).toMatch(/variants\[0\]\.title\.pt-BR/);
    const one = `${head}variants:\n${variants.split('  - id: junk')[0]!.split('variants:\n')[1]}`;
    expect(err(one)).toMatch(/variants: Too small/i);
    expect(err(text, { ghost: { startFiles: {}, solutionFiles: {} } })).toMatch(
      /variants\/ghost\/: no variant with id "ghost"/,
    );
  });

  it("resolves one variant: shared setup first, then the variant's; its checks, hints, files and solution", () => {
    const loaded = load();
    const junk = resolveVariant(loaded, 'junk');
    expect(junk.variant).toEqual({
      id: 'junk',
      title: { 'pt-BR': 'Sobrou um ConfigMap', en: 'A ConfigMap was left behind' },
      of: ['gone', 'junk'],
    });
    expect(junk.lab.variants).toBeUndefined();
    expect(junk.lab.setup).toEqual(['mk svc shop/api', 'mk cm shop/junk']);
    expect(junk.lab.checks.map((c) => c.id)).toEqual(['api', 'no-junk', 'file-kept']);
    expect(junk.lab.hints).toHaveLength(4);
    expect(junk.lab.solution?.commands).toEqual(['rm cm shop/junk', 'cat notes.txt']);
    expect(junk.startFiles).toEqual({ 'notes.txt': 'broken\n' });
    expect(junk.solutionFiles).toEqual({ 'notes.txt': 'fixed\n' });
    expect(resolveVariant(loaded, 'gone').lab.checks.map((c) => c.id)).toEqual(['api', 'no-junk']);
    expect(() => resolveVariant(loaded, 'nope')).toThrow(/no variant "nope" \(variants: gone, junk\)/);
  });

  it('starts a variant, never the lab with variants itself', () => {
    const loaded = load();
    expect(() => startLab(loaded, fakeEngine)).toThrow(/has variants/);
    const c = startLab(resolveVariant(loaded, 'junk'), fakeEngine);
    expect(c.view().get('configmaps', 'shop', 'junk')).toBeDefined();
    expect(c.files.read('notes.txt')).toBe('broken\n');
  });

  it("hashes each variant's content apart", () => {
    const loaded = load();
    const a = labContentHash(resolveVariant(loaded, 'gone'));
    expect(a).not.toBe(labContentHash(resolveVariant(loaded, 'junk')));
    expect(a).toBe(labContentHash(resolveVariant(load(), 'gone')));
  });
});

describe('lab validate on every variant', () => {
  it('passes when each variant starts broken and its solution fixes it', () => {
    expect(validateLab(load(), fakeEngine)).toEqual({ errors: [], warnings: [] });
  });

  it("names the variant whose start already passes or whose solution doesn't", () => {
    const noFault = text.replace("setup: ['rm svc shop/api']", 'setup: []');
    expect(validateLab(load(noFault), fakeEngine).errors).toContain(
      'variants[gone]: start: every check already passes before the learner does anything',
    );
    const badFix = text.replace(
      "commands: ['rm cm shop/junk', 'cat notes.txt']",
      "commands: ['cat notes.txt']",
    );
    expect(validateLab(load(badFix), fakeEngine).errors).toEqual([
      expect.stringMatching(/^variants\[junk\]: solution: check "no-junk" fails/),
    ]);
  });

  it('warns once about a shared text, per variant about its own', () => {
    const same = text
      .replace(
        'summary: { pt-BR: Um lab com variantes, en: A lab with variants }',
        'summary: { pt-BR: A lab with variants here, en: A lab with variants here }',
      )
      .replace(
        '{ pt-BR: procure o ConfigMap, en: look for the ConfigMap }',
        '{ pt-BR: look for the ConfigMap, en: look for the ConfigMap }',
      );
    expect(validateLab(load(same), fakeEngine).warnings).toEqual([
      'summary: the pt-BR and en texts are identical (not translated?)',
      'variants[junk]: hints[3]: the pt-BR and en texts are identical (not translated?)',
    ]);
  });
});

describe('the draw', () => {
  const ids = ['dns', 'kube-proxy', 'overlay', 'policy', 'selector'];
  const seed = fc.integer({ min: 0, max: MAX_DRAW_SEED });

  it('is a function of (seed, lab id): same inputs, same variant, always one of the lab', () => {
    fc.assert(
      fc.property(seed, fc.stringMatching(/^[a-z0-9-]{1,20}$/), (s, labId) => {
        const v = drawFrom(labId, ids, s);
        expect(ids).toContain(v);
        expect(drawFrom(labId, ids, s)).toBe(v);
      }),
    );
    expect(drawVariant(load().lab, 7)).toBe(drawFrom('99-variants', ['gone', 'junk'], 7));
    expect(drawFrom('x', [], 1)).toBeUndefined();
  });

  it('reaches every variant, in roughly even shares, for any lab id', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9-]{1,20}$/), fc.nat({ max: 1_000_000 }), (labId, from) => {
        const counts = new Map<string, number>();
        for (let s = from; s < from + 1000; s++) {
          const v = drawFrom(labId, ids, s)!;
          counts.set(v, (counts.get(v) ?? 0) + 1);
        }
        expect([...counts.keys()].sort()).toEqual(ids);
        // 1000 draws, 5 outcomes: each share is 200 ± about 13 (one standard deviation); 120..280 is ±6σ.
        for (const n of counts.values()) (expect(n).toBeGreaterThan(120), expect(n).toBeLessThan(280));
      }),
      { numRuns: 25 },
    );
  });

  it('draws per lab: one seed does not give the same variant in every lab', () => {
    fc.assert(
      fc.property(seed, (s) => {
        const drawn = new Set(Array.from({ length: 20 }, (_, i) => drawFrom(`lab-${i}`, ids, s)));
        expect(drawn.size).toBeGreaterThan(1);
      }),
    );
  });

  it('"new fault" finds a seed that draws another variant', () => {
    fc.assert(
      fc.property(seed, fc.array(seed, { minLength: 64, maxLength: 64 }), (s, candidates) => {
        let i = 0;
        const next = redrawSeed('17-capstone', ids, s, () => candidates[i++ % candidates.length]!);
        expect(isDrawSeed(next)).toBe(true);
        if (candidates.some((c) => drawFrom('17-capstone', ids, c) !== drawFrom('17-capstone', ids, s)))
          expect(drawFrom('17-capstone', ids, next)).not.toBe(drawFrom('17-capstone', ids, s));
      }),
    );
  });

  it('labForLearner: the variant asked for, else the one the seed draws; plain labs as they are', () => {
    const loaded = load();
    expect(labForLearner(loaded, { variant: 'gone' }).variant?.id).toBe('gone');
    for (const s of [0, 1, 2, 3, 4, 5])
      expect(labForLearner(loaded, { seed: s }).variant?.id).toBe(drawVariant(loaded.lab, s));
    const plain = parseLab('p.yaml', head + "solution: { commands: ['mk svc shop/api'] }\n");
    expect(labForLearner(plain)).toBe(plain);
    expect(() => labForLearner(plain, { variant: 'gone' })).toThrow(/has no variants/);
  });
});

describe('reports of a variant', () => {
  const loaded = load();
  const seedFor = (id: string) => [...Array(100).keys()].find((s) => drawVariant(loaded.lab, s) === id)!;

  function solved(id: string): GradeReport {
    const variant = resolveVariant(loaded, id);
    const s = new LabSession(variant, fakeEngine);
    for (const [path, content] of Object.entries(variant.solutionFiles)) s.writeFile(path, content);
    for (const line of variant.lab.solution!.commands) s.exec(line);
    return parseReport(
      JSON.stringify(
        s.report({
          locale: 'en',
          startedAt: '2026-03-01T10:00:00Z',
          submittedAt: '2026-03-01T10:30:00Z',
          seed: seedFor(id),
        }),
      ),
    );
  }

  it('records the variant and its seed, and re-grades against that variant', () => {
    for (const id of variantIds(loaded.lab)) {
      const r = solved(id);
      expect(r.lab).toMatchObject({ id: '99-variants', variant: id, seed: seedFor(id) });
      const g = regradeReport(loaded, r, { engine: fakeEngine });
      expect(g.flags).toEqual([]);
      expect(g.score.percent).toBe(100);
      expect(g.results.map((x) => x.id)).toEqual(resolveVariant(loaded, id).lab.checks.map((c) => c.id));
    }
  });

  it('refuses a tampered, unknown or missing variant', () => {
    const r = solved('junk');
    const other = (lab: Partial<GradeReport['lab']>) => ({ ...r, lab: { ...r.lab, ...lab } });
    expect(() => labForReport(loaded, other({ variant: 'gone' }))).toThrow(
      new ReportError(`seed ${seedFor('junk')} draws variant "junk", not "gone"`),
    );
    const noSeed = other({ variant: 'gone' });
    delete (noSeed.lab as { seed?: number }).seed;
    expect(() => regradeReport(loaded, noSeed, { engine: fakeEngine })).toThrow(/content hash mismatch/);
    expect(() => labForReport(loaded, other({ variant: 'nope' }))).toThrow(
      /lab 99-variants has no variant "nope" \(variants: gone, junk\)/,
    );
    const none = other({});
    delete (none.lab as { variant?: string }).variant;
    expect(() => labForReport(loaded, none)).toThrow(
      /report names no variant; lab 99-variants has variants \(gone, junk\)/,
    );
  });
});
