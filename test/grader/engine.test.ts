// The grader on the real engine: starting a lab, checks that run commands on a scratch copy, sessions
// that resume from their journal, and determinism (the property replay-based grading rests on).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  evaluateChecks,
  formatMessage,
  LabSession,
  engine,
  openSession,
  startLab,
  type LoadedLab,
} from '../../src/grader/index.ts';
import { parseLab } from '../../src/grader/lab-parse.ts';
import { loadLabFromDir } from '../../src/grader/node/load-lab.ts';

const sandbox = loadLabFromDir(join(import.meta.dirname, '../../labs/00-sandbox'));

function withChecks(checks: string, setup = '[]'): LoadedLab {
  return parseLab(
    'engine-test/lab.yaml',
    `id: 98-engine
version: 1
title: { pt-BR: t, en: t }
summary: { pt-BR: s, en: s }
setup: ${setup}
steps: [{ pt-BR: p, en: p }]
hints: [{ pt-BR: a, en: a }, { pt-BR: b, en: b }, { pt-BR: c, en: c }]
solution: { commands: ['kubectl create namespace shop'] }
checks:
${checks}`,
    { 'notes.txt': 'hello\n' },
  );
}

describe('the grader on the real engine', () => {
  it('starts a lab with its files and setup lines', () => {
    const lab = withChecks(
      `  - { id: ns, title: { pt-BR: t, en: t }, type: resource, resource: ns, name: shop }`,
      `['kubectl create namespace shop']`,
    );
    const cluster = startLab(lab);
    expect(cluster.files.toJSON()).toEqual({ 'notes.txt': 'hello\n' });
    expect(evaluateChecks(lab, cluster, { history: [] }).map((r) => r.status)).toEqual(['pass']);
  });

  it('runs output checks on a scratch copy: the learner’s cluster, files and clock do not move', () => {
    const lab =
      withChecks(`  - { id: o, title: { pt-BR: t, en: t }, type: output, command: 'kubectl create namespace scratch && echo made > made.txt', contains: created }
  - { id: n, title: { pt-BR: t, en: t }, type: resource, resource: ns, name: scratch, exists: false }`);
    const cluster = startLab(lab);
    const before = JSON.stringify(cluster.snapshot());
    const results = evaluateChecks(lab, cluster, { history: [] });
    expect(results.map((r) => [r.id, r.status])).toEqual([
      ['o', 'pass'],
      ['n', 'pass'],
    ]);
    expect(formatMessage('en', results[0]!.observed)).toBe('exit code 0; output: namespace/scratch created');
    expect(JSON.stringify(cluster.snapshot())).toBe(before);
  });

  it('is deterministic: the same journal gives the same snapshot', () => {
    const a = openSession(sandbox);
    const b = openSession(sandbox);
    for (const s of [a, b]) {
      s.exec('kubectl apply -f web.yaml');
      s.writeFile('web.yaml', sandbox.solutionFiles['web.yaml']!);
      s.exec('kubectl apply -f web.yaml');
      s.wait(45_000);
      s.exec('kubectl get pods -o wide');
    }
    expect(JSON.stringify(a.cluster.snapshot())).toBe(JSON.stringify(b.cluster.snapshot()));
    const resumed = LabSession.resume(sandbox, engine, a.journal);
    expect(JSON.stringify(resumed.cluster.snapshot())).toBe(JSON.stringify(a.cluster.snapshot()));
  });

  it('solves the sandbox with the solution, and the report says 100%', () => {
    const s = openSession(sandbox);
    expect(s.evaluate().every((r) => r.status === 'fail')).toBe(true);
    s.solve();
    const report = s.report({
      locale: 'en',
      startedAt: '2026-03-01T10:00:00Z',
      submittedAt: '2026-03-01T10:05:00Z',
    });
    expect(report.score).toEqual({ passed: 5, total: 5, percent: 100 });
    expect(report.submission.journal[0]).toEqual({
      write: 'web.yaml',
      content: sandbox.solutionFiles['web.yaml'],
    });
  });
});
