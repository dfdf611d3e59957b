/** Lines run against a full simulated cluster, as the kubectl command tests compare them. */
import { createCluster, type Cluster } from '../../cluster/cluster.ts';

/** A non-interactive line's result, without the fields the comparisons do not look at. */
export function run(c: Cluster, line: string) {
  const r = c.execSync(line, { interactive: false });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
}

export const ok = (stdout: string) => ({ stdout, stderr: '', exitCode: 0 });

/** A cluster with Deployment `web` (nginx, port 80) exposed as Service `web`, its pod running. */
export function webCluster(): Cluster {
  const c = createCluster(undefined, { seed: 11 });
  run(c, 'kubectl create deployment web --image=nginx --port=80');
  run(c, 'kubectl expose deployment web --port=80');
  run(c, 'sleep 15');
  return c;
}
