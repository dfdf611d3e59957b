/**
 * An output check runs its command in a scratch copy restored from the learner's cluster: that copy
 * must answer exactly as the learner's own cluster would, also where the answer depends on state
 * outside the API objects (a background port-forward, the CoreDNS reload plugin's log after a
 * Corefile edit). Two clusters are built from the same seed and journal (the engine is deterministic):
 * one is graded, the others run the checks' commands themselves, and each check must see that text.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultCorefileText } from '../../src/engine/dataplane/dns/corefile.ts';
import type { Cluster } from '../../src/engine/index.ts';
import { evaluateChecks, startLab, type LoadedLab } from '../../src/grader/index.ts';
import type { Check } from '../../src/grader/lab-schema.ts';
import { loadLabFromDir } from '../../src/grader/node/load-lab.ts';

const lab = loadLabFromDir(join(import.meta.dirname, '../../labs/00-sandbox'));

const COMMANDS = [
  'curl -s localhost:18080',
  'kubectl -n kube-system logs -l k8s-app=kube-dns --tail=-1',
  'conntrack -L 2>&1; kubectl get pods -A',
];

function learnerCluster(): Cluster {
  const c = startLab(lab);
  c.files.write(
    'Corefile',
    defaultCorefileText('cluster.local').replace('    errors\n', '    errors\n    log\n'),
  );
  for (const line of [
    'kubectl create deployment web --image=nginx',
    'kubectl rollout status deploy/web',
    'kubectl port-forward deploy/web 18080:80 >/dev/null 2>&1 &',
    'kubectl -n kube-system create configmap coredns --from-file=Corefile --dry-run=client -o yaml | kubectl apply -f -',
    'sleep 40',
  ]) {
    const r = c.execSync(line, { interactive: false });
    expect(r.exitCode, `${line}\n${r.stderr}`).toBe(0);
  }
  return c;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe("an output check's scratch copy", { timeout: 120_000 }, () => {
  it('prints what the live cluster prints, after a port-forward and a Corefile reload', () => {
    // Each command on its own live cluster, at the moment the checks run (a line moves the clock on).
    const expected = COMMANDS.map(
      (command) => learnerCluster().execSync(command, { interactive: false }).stdout,
    );
    expect(expected[0]).toContain('Welcome to nginx!');
    expect(expected[1]).toContain('[INFO] Reloading complete');
    const checks: Check[] = COMMANDS.map((command, i) => ({
      id: `same-${i}`,
      title: { 'pt-BR': command, en: command },
      hidden: false,
      type: 'output',
      command,
      matches: `^${escape(expected[i]!)}$`,
    }));
    const graded: LoadedLab = { ...lab, lab: { ...lab.lab, checks } };
    const results = evaluateChecks(graded, learnerCluster(), { history: [], quizAnswers: {} });
    for (const r of results) expect(r, r.id).toMatchObject({ status: 'pass' });
  });
});
