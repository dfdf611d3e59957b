import { describe, expect, it } from 'vitest';
import { PROGRESS_VERSION } from '../lab/progress';
import { drawFrom } from '../../grader/draw';
import { continuePath, recordsById, standing, type CourseLab } from './course-standing';

const record = (labId: string, passed: number, total: number, extra: Record<string, unknown> = {}) => ({
  version: PROGRESS_VERSION,
  labId,
  labVersion: 1,
  files: {},
  state: { snapshot: { format: 'packetpath-cluster' }, journal: [], quizAnswers: {}, startedAt: '' },
  history: [],
  checks: { results: [], passed, total },
  hintLevel: 0,
  updatedAt: '2026-12-01T10:00:00Z',
  rev: 1,
  ...extra,
});

const sandbox: CourseLab = { id: '00-sandbox', title: 'Sandbox', checks: 5, variants: [] };
const capstone: CourseLab = {
  id: '17-capstone',
  title: 'Capstone',
  checks: 6,
  variants: [
    { id: 'dns', title: 'DNS' },
    { id: 'policy', title: 'Policy' },
    { id: 'proxy', title: 'kube-proxy' },
  ],
};

describe('standing', () => {
  it('no record: not started, 0 %', () => {
    expect(standing(sandbox, undefined)).toEqual({ status: 'not-started', passed: 0, total: 5, percent: 0 });
  });

  it('a record: its checks decide in progress or done, and the percent', () => {
    const records = recordsById([record('00-sandbox', 2, 5)]);
    expect(standing(sandbox, records.get('00-sandbox'))).toMatchObject({
      status: 'in-progress',
      percent: 40,
      updatedAt: '2026-12-01T10:00:00Z',
    });
    const done = recordsById([record('00-sandbox', 5, 5)]).get('00-sandbox');
    expect(standing(sandbox, done)).toMatchObject({ status: 'done', percent: 100 });
  });

  it('the capstone: the variant the seed draws, named only once solved', () => {
    const seed = 12345;
    const drawn = drawFrom('17-capstone', ['dns', 'policy', 'proxy'], seed);
    const title = capstone.variants.find((v) => v.id === drawn)!.title;
    const open = recordsById([record('17-capstone', 3, 6, { drawSeed: seed })]).get('17-capstone');
    expect(standing(capstone, open).variant).toEqual({ title, revealed: false });
    const solved = recordsById([record('17-capstone', 6, 6, { drawSeed: seed })]).get('17-capstone');
    expect(standing(capstone, solved).variant).toEqual({ title, revealed: true });
  });

  it('skips what is not a readable record', () => {
    expect([...recordsById([null, 'x', { labId: 3 }, { labId: 'a', version: 99 }]).keys()]).toEqual([]);
  });
});

describe('continuePath', () => {
  const place = JSON.stringify({ labId: '00-sandbox', path: '/en/about-labs/' });
  it('the page last worked on, in the progress page locale', () => {
    expect(continuePath('00-sandbox', place, '/pt-br/foundations/linux-primer/')).toBe('/pt-br/about-labs/');
  });
  it("the lab's first chapter when the place is another lab's, missing or not ours", () => {
    for (const stored of [
      place.replace('00-sandbox', '04-x'),
      null,
      '{',
      '{"labId":"00-sandbox","path":"http://x"}',
    ])
      expect(continuePath('00-sandbox', stored, '/en/foundations/linux-primer/')).toBe(
        '/en/foundations/linux-primer/',
      );
  });
});
