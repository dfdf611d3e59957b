/**
 * The DaemonSet controller's pods refused by admission: controller_utils `CreatePodsOnNode` records
 * `Warning FailedCreate` with `Error creating: %v` on the DaemonSet (as kubectl describe ds shows),
 * instead of failing silently.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../cluster/cluster.ts';

describe('DaemonSet FailedCreate', () => {
  it('a missing serviceAccountName: no pods, a Warning FailedCreate event on the DaemonSet', () => {
    const c = createCluster(undefined, { seed: 1 });
    c.execSync(`kubectl create -f - <<'EOF'
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      serviceAccountName: nope
      containers: [{name: c, image: nginx}]
EOF`);
    c.tick(5000);
    expect(c.execSync('kubectl get pods -l app=agent').stderr).toBe(
      'No resources found in default namespace.\n',
    );
    const events = c.execSync(
      `kubectl get events --field-selector involvedObject.kind=DaemonSet -o jsonpath='{range .items[*]}{.type} {.reason} {.source.component}: {.message}{"\\n"}{end}'`,
    );
    expect(events.stdout).toBe(
      'Warning FailedCreate daemonset-controller: Error creating: pods "agent-" is forbidden: error looking up service account default/nope: serviceaccount "nope" not found\n',
    );
  });
});
