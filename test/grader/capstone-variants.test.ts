// The capstone (labs/17-capstone) on the real engine: one lab, five faults. Each variant's solution,
// recorded the way the lab UI records it (a session with the draw seed), is re-graded by `packetpath
// grade` against that variant rebuilt from the lab; reports with a variant edited, unknown or missing
// are errors for their file; a journal that fixes one fault does not pass another.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  drawVariant,
  labContentHash,
  openSession,
  resolveVariant,
  variantIds,
  type GradeReport,
  type LoadedLab,
} from '../../src/grader/index.ts';
import { loadLabFromDir } from '../../src/grader/node/load-lab.ts';
import { runGrade } from '../../src/runtime/node-cli/grade.ts';

const LABS = join(import.meta.dirname, '../../labs');
const VARIANTS = ['dns', 'kube-proxy', 'overlay', 'policy', 'selector'];
let dir: string;
let lab: LoadedLab;
const reports = new Map<string, GradeReport>();

const seedFor = (id: string): number => {
  for (let s = 0; ; s++) if (drawVariant(lab.lab, s) === id) return s;
};

const write = (name: string, r: unknown) => writeFileSync(join(dir, name), JSON.stringify(r));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'packetpath-capstone-'));
  lab = loadLabFromDir(join(LABS, '17-capstone'));
  for (const id of VARIANTS) {
    const variant = resolveVariant(lab, id);
    const s = openSession(variant);
    for (const [path, content] of Object.entries(variant.solutionFiles)) s.writeFile(path, content);
    for (const line of variant.lab.solution!.commands) s.exec(line);
    const r = s.report({
      locale: 'en',
      learner: id,
      startedAt: '2026-11-29T10:00:00Z',
      submittedAt: '2026-11-29T10:30:00Z',
      seed: seedFor(id),
    });
    reports.set(id, r);
    write(`${id}.json`, r);
  }
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { cwd: dir, out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}

describe('the capstone lab', { timeout: 300_000 }, () => {
  it('has the five faults of issue 7 as variants', () => {
    expect(variantIds(lab.lab)).toEqual(VARIANTS);
  });

  it("records each variant and its seed, and packetpath grade passes each variant's solution", async () => {
    for (const id of VARIANTS) expect(reports.get(id)!.lab).toMatchObject({ variant: id, seed: seedFor(id) });
    const { io, out, err } = capture();
    const code = await runGrade(['17-capstone', ...VARIANTS.map((v) => `${v}.json`), '--labs', LABS], io);
    expect(err.join('')).toBe('');
    expect(code).toBe(0);
    // Every check of the variant (the shared ones plus its own) passes.
    for (const id of VARIANTS) {
      const n = resolveVariant(lab, id).lab.checks.length;
      expect(out.join('')).toMatch(
        new RegExp(`^${id}\\.json\\s+${id}\\s+100%\\s+${n}/${n}\\s+-\\s+ok$`, 'm'),
      );
    }
  });

  it('a variant edited, unknown or missing is an error for that file; a fix for another fault fails', async () => {
    const policy = reports.get('policy')!;
    // Edited by hand: the seed still draws "policy".
    write('edited.json', { ...policy, lab: { ...policy.lab, variant: 'dns' } });
    write('unknown.json', { ...policy, lab: { ...policy.lab, variant: 'mtu', seed: undefined } });
    const { variant: _v, seed: _s, ...bare } = policy.lab;
    write('missing.json', { ...policy, lab: bare });
    // Relabelled consistently (seed and content hash of "selector"): replayed honestly as "selector",
    // where the policy fix leaves the Service's selector broken.
    write('relabelled.json', {
      ...policy,
      lab: {
        ...policy.lab,
        variant: 'selector',
        seed: seedFor('selector'),
        contentHash: labContentHash(resolveVariant(lab, 'selector')),
      },
    });
    const { io, out, err } = capture();
    const files = ['edited.json', 'unknown.json', 'missing.json', 'relabelled.json', 'dns.json'];
    expect(await runGrade(['17-capstone', ...files, '--labs', LABS], io)).toBe(1);
    const lines = err.join('');
    expect(lines).toContain(
      `packetpath grade: edited.json: seed ${seedFor('policy')} draws variant "policy", not "dns"`,
    );
    expect(lines).toContain(
      'packetpath grade: unknown.json: lab 17-capstone has no variant "mtu" (variants: dns, kube-proxy, overlay, policy, selector)',
    );
    expect(lines).toContain(
      'packetpath grade: missing.json: report names no variant; lab 17-capstone has variants (dns, kube-proxy, overlay, policy, selector)',
    );
    expect(lines).toMatch(
      /packetpath grade: relabelled\.json: recorded score 100% does not match recomputed \d+%/,
    );
    expect(out.join('')).toMatch(/^dns\.json\s+dns\s+100%\s+14\/14\s+-\s+ok$/m);
  });
});

describe('the overlay variant', { timeout: 300_000 }, () => {
  it("times out because kind-worker lost its BGP route to api's node; fixing only the pod does not last", () => {
    const variant = resolveVariant(lab, 'overlay');
    const s = openSession(variant);
    for (const [path, content] of Object.entries(variant.startFiles)) s.writeFile(path, content);
    // kind-worker2's calico-node is stuck on the mistyped image: no BIRD runs there.
    expect(s.exec('kubectl -n kube-system get pods -l k8s-app=calico-node -o wide').stdout).toMatch(
      /^calico-node-\w+\s+0\/1\s+ImagePullBackOff\s+0\s+\S+\s+172\.18\.0\.4\s+kind-worker2\s/m,
    );
    const curl = s.exec('kubectl exec -n shop deploy/web -- curl -sS -m 5 http://api/hostname');
    expect(curl.stderr).toMatch(/^curl: \(28\) Connection timed out after 500\d milliseconds$/m);
    expect(curl.exitCode).toBe(28);
    // The name, the Service and its endpoints are fine.
    expect(s.exec('kubectl exec -n shop deploy/web -- getent hosts api').stdout).toMatch(
      /^10\.\d+\.\d+\.\d+\s+api\.shop\.svc\.cluster\.local$/m,
    );
    // kind-worker still routes to the control plane's block, not to kind-worker2's (withdrawn).
    const routes = s.exec('kubectl debug node/kind-worker -it --image=busybox -- ip route').stdout;
    expect(routes).toContain('10.244.0.0/24 via 172.18.0.2 dev tunl0 proto bird onlink \n');
    expect(routes).not.toContain('10.244.2.0/24');
    expect(s.exec('trace -n shop deploy/web -- curl -sS http://api/hostname').stdout).toMatch(
      /drop +10\.244\.2\.\d+: kind-worker has no route to 10\.244\.2\.0\/24: calico-node is not running on kind-worker2/,
    );
    // A pod's image is mutable: fixing it there brings BIRD and the route back, but not the DaemonSet.
    const pod = s
      .exec(
        'kubectl -n kube-system get pods -l k8s-app=calico-node --field-selector spec.nodeName=kind-worker2 -o name',
      )
      .stdout.trim();
    expect(pod).toMatch(/^pod\/calico-node-\w+$/);
    s.exec(`kubectl -n kube-system set image ${pod} calico-node=docker.io/calico/node:v3.31.2`);
    s.exec('sleep 30');
    expect(s.exec('kubectl exec -n shop deploy/web -- curl -sS -m 5 http://api/hostname').exitCode).toBe(0);
    const r = s.report({
      locale: 'en',
      learner: 'pod-only',
      startedAt: '2026-11-29T10:00:00Z',
      submittedAt: '2026-11-29T10:30:00Z',
      seed: seedFor('overlay'),
    });
    expect(r.results.filter((x) => x.status !== 'pass').map((x) => x.id)).toEqual([
      'hidden-calico-node-template-image',
    ]);
  });
});
