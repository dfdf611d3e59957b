import { it, expect } from 'vitest';
import { labs } from './corpus.ts';
import { labCluster, guardedExec } from './harness.ts';
import { restoreCluster } from '../../src/engine/index.ts';
it('dbg', () => {
  const lab = labs().find((l) => l.id === '01-pod-to-pod')!;
  const c = labCluster(lab);
  for (const line of ['kubectl debug node/kind-worker -it --image=busybox','curl -sk -o /dev/null -w "%{http_code}" https://10.96.0.1/']) console.log(guardedExec(c, line).stdout);
  const d = restoreCluster(JSON.stringify(c.snapshot()));
  for (const line of ['conntrack -L','iptables -t nat -L KUBE-SERVICES -v -n | head -3']) {
    const a = guardedExec(c, line), b = guardedExec(d, line);
    console.log(a.stdout, '----', b.stdout);
  }
});
