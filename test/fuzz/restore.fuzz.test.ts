/**
 * Property: a snapshot is the whole cluster. For a session drawn from a lab's own commands (setup,
 * solution files and commands, what its steps and hints show) plus the moves that exercise the state
 * outside the API objects (a background port-forward and curl through it, a Corefile edit the reload
 * plugin picks up, CoreDNS's `log` lines, node counters and conntrack), cut at a random point:
 * `restoreCluster(snapshot(c))` answers every later line exactly as `c` does, and ends in the same
 * snapshot.
 */
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { restoreCluster, type Cluster } from '../../src/engine/index.ts';
import { solutionJournal, startLab, type JournalStep } from '../../src/grader/index.ts';
import { defaultCorefileText } from '../../src/engine/dataplane/dns/corefile.ts';
import { labs } from './corpus.ts';
import { guardedExec, params } from './harness.ts';

/** The Corefile with the `log` plugin on: every query a replica answers is a log line. */
const LOGGING_COREFILE = defaultCorefileText('cluster.local').replace(
  '    errors\n',
  '    errors\n    log\n',
);

/** What a learner does around a lab that touches the state kept outside the API objects. */
const HOST_STATE_STEPS: readonly JournalStep[] = [
  { run: 'kubectl create deployment pp-web --image=nginx' },
  { run: 'kubectl rollout status deploy/pp-web --timeout=60s' },
  { run: 'kubectl port-forward deploy/pp-web 18080:80 >/dev/null 2>&1 &' },
  { run: 'curl -s -o /dev/null -w "%{http_code}" localhost:18080' },
  { run: 'kubectl delete pod -l app=pp-web --wait=false' },
  { write: 'Corefile', content: LOGGING_COREFILE },
  {
    run: 'kubectl -n kube-system create configmap coredns --from-file=Corefile --dry-run=client -o yaml | kubectl apply -f -',
  },
  { run: 'sleep 40' },
  { run: 'kubectl run pp-dns --image=busybox:1.36 -- sleep 3600' },
  { run: 'kubectl exec pp-dns -- nslookup kubernetes.default' },
  { run: 'kubectl -n kube-system logs -l k8s-app=kube-dns --tail=20' },
  { run: 'kubectl debug node/kind-worker -it --image=busybox' },
  { run: 'curl -sk -o /dev/null -w "%{http_code}" https://10.96.0.1/' },
  { run: 'conntrack -L' },
  { run: 'iptables -t nat -L KUBE-SERVICES -v -n' },
  { run: 'exit' },
];

function apply(cluster: Cluster, step: JournalStep): unknown {
  if ('run' in step) {
    const r = guardedExec(cluster, step.run);
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
  }
  if ('write' in step) cluster.files.write(step.write, step.content);
  else if ('remove' in step) cluster.files.remove(step.remove);
  else cluster.tick(step.wait);
  return undefined;
}

const all = labs().map((lab) => ({
  lab,
  steps: [...lab.commands.map((run): JournalStep => ({ run })), ...solutionJournal(lab.loaded)],
}));

/**
 * A session: some of the lab's steps, in any order, woven into the host-state steps (in their order,
 * as many of them as drawn), then a cut point anywhere in it.
 */
const sessions = fc.nat({ max: all.length - 1 }).chain((lab) =>
  fc
    .record({
      labSteps: fc.array(fc.nat({ max: all[lab]!.steps.length - 1 }), { maxLength: 5 }),
      hostSteps: fc.integer({ min: 4, max: HOST_STATE_STEPS.length }),
      weave: fc.array(fc.boolean(), {
        minLength: HOST_STATE_STEPS.length + 5,
        maxLength: HOST_STATE_STEPS.length + 5,
      }),
      cut: fc.double({ min: 0, max: 1, noNaN: true }),
    })
    .map(({ labSteps, hostSteps, weave, cut }) => {
      const mine = labSteps.map((i) => all[lab]!.steps[i]!);
      const host = HOST_STATE_STEPS.slice(0, hostSteps);
      const session: JournalStep[] = [];
      let m = 0;
      let h = 0;
      for (const takeLab of weave) {
        if (takeLab && m < mine.length) session.push(mine[m++]!);
        else if (h < host.length) session.push(host[h++]!);
      }
      session.push(...mine.slice(m), ...host.slice(h));
      return { lab, session, at: Math.floor(cut * session.length) };
    }),
);

/** Where two JSON values first differ (`store.objects.12.object.status`), for a readable failure. */
function firstDifference(a: unknown, b: unknown, path = ''): string | undefined {
  if (isDeepStrictEqual(a, b)) return undefined;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDifference(
        (a as Record<string, unknown>)[k],
        (b as Record<string, unknown>)[k],
        `${path}.${k}`,
      );
      if (d) return d;
    }
  }
  return `${path}: ${JSON.stringify(a)?.slice(0, 300)} vs ${JSON.stringify(b)?.slice(0, 300)}`;
}

/** A copy of `cluster` through its snapshot, as a page reload or the next `packetpath exec` makes it. */
const restored = (cluster: Cluster) => restoreCluster(JSON.stringify(cluster.snapshot()));

describe('property: restore(snapshot(c)) behaves as c', { timeout: 600_000 }, () => {
  it('gives the same output for every command after the cut, and the same final snapshot', () => {
    fc.assert(
      fc.property(sessions, ({ lab, session, at }) => {
        // Built, not restored: a restore that loses something would otherwise lose it on both sides.
        const live = startLab(all[lab]!.lab.loaded);
        let copy: Cluster | undefined;
        session.forEach((step, i) => {
          if (i === at) copy = restored(live);
          // Every point of the session is a cut too, for the one step that follows it.
          const once = i === at ? undefined : restored(live);
          const expected = apply(live, step);
          const label = `step ${i} of ${JSON.stringify(session)}`;
          if (once) expect(apply(once, step), label).toEqual(expected);
          if (copy) expect(apply(copy, step), label).toEqual(expected);
        });
        const final = (c: Cluster) => JSON.parse(JSON.stringify(c.snapshot())) as unknown;
        const difference = firstDifference(final(copy ?? restored(live)), final(live));
        if (difference) throw new Error(`the snapshots differ at ${difference}`);
      }),
      params('restore-equals-original', 6),
    );
  });
});
