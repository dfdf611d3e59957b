// `packetpath lab validate` replays each lab's fairness.yaml: an alternative that fails a check, a near
// miss that passes the check it names, or one whose message does not name its mistake is an error;
// too few cases or a missing file is an error too. Uses a copy of labs/00-sandbox.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateLabDir } from '../../src/runtime/node-cli/lab.ts';

const LABS = join(import.meta.dirname, '../../labs');
const dir = mkdtempSync(join(tmpdir(), 'packetpath-fairness-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SOLVE = `      - run: kubectl apply -f web.yaml
      - run: kubectl scale deployment web --replicas=3
      - run: kubectl expose deployment web --port=80
      - run: kubectl get endpointslices`;

function sandboxWith(name: string, fairness: string | undefined): string {
  const lab = join(dir, name);
  cpSync(join(LABS, '00-sandbox'), lab, { recursive: true });
  if (fairness === undefined) rmSync(join(lab, 'fairness.yaml'));
  else writeFileSync(join(lab, 'fairness.yaml'), fairness);
  return lab;
}

const alternatives = (n: number, steps = SOLVE): string =>
  Array.from({ length: n }, (_, i) => `  - id: alt-${i}\n    says: solves it\n    steps:\n${steps}\n`).join(
    '',
  );

const nearMiss = (id: string, fails: string, mentions: string, steps: string): string =>
  `  - id: ${id}\n    says: cuts a corner\n    fails: ${fails}\n    mentions: [${mentions}]\n    steps:\n${steps}\n`;

const TWO_REPLICAS = SOLVE.replace('--replicas=3', '--replicas=2');

describe('fairness cases in lab validate', { timeout: 120_000 }, () => {
  it('accepts a lab whose cases are graded as intended and counts them', () => {
    const r = validateLabDir(
      sandboxWith(
        '00-sandbox',
        `alternatives:\n${alternatives(3)}nearMisses:\n${[1, 2, 3].map((i) => nearMiss(`two-${i}`, 'three-replicas', "'2'", TWO_REPLICAS)).join('')}`,
      ),
    );
    expect(r.errors).toEqual([]);
    expect(r.fairness).toEqual({ alternatives: 3, nearMisses: 3, wrong: 0 });
  });

  it('reports an alternative that fails, a near miss that passes, and a message that does not name the mistake', () => {
    const r = validateLabDir(
      sandboxWith(
        '00-sandbox',
        `alternatives:\n${alternatives(2)}${alternatives(1, TWO_REPLICAS).replace('alt-0', 'two-is-fine')}nearMisses:\n${nearMiss('passes', 'three-replicas', "'3'", SOLVE)}${nearMiss('vague', 'three-replicas', 'replica count', TWO_REPLICAS)}${nearMiss('ok', 'three-replicas', "'2'", TWO_REPLICAS)}`,
      ),
    );
    expect(r.fairness).toEqual({ alternatives: 3, nearMisses: 3, wrong: 3 });
    expect(r.errors).toEqual([
      expect.stringMatching(
        /^fairness: alternative "two-is-fine" \(solves it\): check "three-replicas" fails: /,
      ),
      expect.stringMatching(
        /^fairness: alternative "two-is-fine" \(solves it\): check "three-endpoints" fails: /,
      ),
      'fairness: near miss "passes" (cuts a corner): check "three-replicas" passes (every check passes)',
      expect.stringMatching(
        /^fairness: near miss "vague": the message of "three-replicas" \(pt-BR\) does not name "replica count"/,
      ),
      expect.stringMatching(
        /^fairness: near miss "vague": the message of "three-replicas" \(en\) does not name "replica count"/,
      ),
    ]);
  });

  it('wants three of each, and the file itself', () => {
    expect(validateLabDir(sandboxWith('00-sandbox', `alternatives:\n${alternatives(1)}`)).errors).toEqual([
      'fairness: 1 alternatives, at least 3 wanted',
      'fairness: 0 near misses, at least 3 wanted',
    ]);
    expect(validateLabDir(sandboxWith('00-sandbox', undefined)).errors).toEqual([
      'fairness.yaml: no such file (every lab carries alternative solutions and near misses)',
    ]);
  });
});
