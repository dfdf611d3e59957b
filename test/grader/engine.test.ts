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

describe('the grader on the real engine', { timeout: 120_000 }, () => {
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

describe('traffic and DNS checks on the engine dataplane', { timeout: 120_000 }, () => {
  const lab = parseLab(
    'np/lab.yaml',
    `id: 97-policy
version: 1
title: { pt-BR: t, en: t }
summary: { pt-BR: s, en: s }
setup:
  - kubectl create deployment web --image=nginx:1.29 --port=80
  - kubectl expose deployment web --port=80
  - kubectl run client --image=busybox:1.36 -- sleep 3600
steps: [{ pt-BR: p, en: p }]
hints: [{ pt-BR: a, en: a }, { pt-BR: b, en: b }, { pt-BR: c, en: c }]
solution: { commands: ['kubectl apply -f deny.yaml'] }
checks:
  - { id: open, title: { pt-BR: t, en: t }, type: reachability, from: { pod: client }, to: 'http://web/', expect: allowed }
  - { id: closed, title: { pt-BR: t, en: t }, hidden: true, type: reachability, from: { pod: client }, to: 'web:80', expect: blocked }
  - { id: dns, title: { pt-BR: t, en: t }, type: dns, from: { pod: client }, name: web, expect: { resolves: true, maxQueries: 2 } }
  - { id: nx, title: { pt-BR: t, en: t }, type: dns, from: { pod: client }, name: nope.example, expect: { resolves: false } }`,
    {
      'deny.yaml':
        'apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: deny}\nspec:\n  podSelector: {matchLabels: {app: web}}\n  policyTypes: [Ingress]\n',
    },
  );

  it('decides reachability with the packet walk and names the deciding hop, without touching the cluster', () => {
    const s = openSession(lab);
    s.wait(60_000);
    const before = JSON.stringify(s.cluster.snapshot());
    expect(s.evaluate().map((r) => [r.id, r.status])).toEqual([
      ['open', 'pass'],
      ['closed', 'fail'],
      ['dns', 'pass'],
      ['nx', 'pass'],
    ]);
    expect(JSON.stringify(s.cluster.snapshot())).toBe(before);
    s.exec('kubectl apply -f deny.yaml');
    const after = evaluateChecks(lab, s.cluster, { history: [] }, { revealHidden: true });
    const open = after.find((r) => r.id === 'open')!;
    expect(open.status).toBe('fail');
    expect(formatMessage('en', open.observed)).toBe('the connection times out: the traffic is dropped');
    expect(formatMessage('en', open.hop!)).toMatch(
      /^decided at: pod default\/web-[a-z0-9]+-[a-z0-9]+ is isolated for Ingress by default\/deny and no rule allows this traffic$/,
    );
    expect(after.find((r) => r.id === 'closed')!.status).toBe('pass');
  });
});
