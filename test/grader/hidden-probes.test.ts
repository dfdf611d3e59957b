// Issue 9 item 5: a submission that passes the visible checks with an over-broad fix — here a policy that
// opens every pod of the namespace — fails the lab's hidden probes, and the learner is told only that a
// hidden probe failed. Uses labs/09-default-deny (its hidden probes: ingress to web, the metrics port,
// other namespaces, DNS beyond kube-dns).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatMessage, openSession } from '../../src/grader/index.ts';
import { loadLabFromDir } from '../../src/grader/node/load-lab.ts';

const LAB = join(import.meta.dirname, '../../labs/09-default-deny');
const ALLOW_ALL = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: { name: allow-all, namespace: shop }
spec:
  podSelector: {}
  policyTypes: [Ingress, Egress]
  ingress: [{}]
  egress: [{}]
`;

describe.skipIf(!existsSync(LAB))('hidden probes', { timeout: 120_000 }, () => {
  it('fail an over-broad fix that the visible checks would not all catch', () => {
    const s = openSession(loadLabFromDir(LAB));
    s.solve();
    expect(s.evaluate().every((r) => r.status === 'pass')).toBe(true);
    s.writeFile('open.yaml', ALLOW_ALL);
    s.exec('kubectl apply -f open.yaml');
    const hidden = s.evaluate().filter((r) => r.hidden);
    expect(hidden.length).toBeGreaterThan(0);
    expect(hidden.every((r) => r.status === 'fail' && r.redacted)).toBe(true);
    expect(hidden.map((r) => formatMessage('en', r.observed))).toEqual(
      hidden.map(() => 'a hidden traffic probe failed'),
    );
    // Only the id (authored, and shipped with the lab anyway) ties a result to its check: no target, no hop.
    expect(JSON.stringify(hidden.map(({ id: _id, ...rest }) => rest))).not.toMatch(
      /api|web|metrics|kube-dns/,
    );
  });
});
