/**
 * `kubectl run … --rm -i[t] -- TOOL`: the classic throwaway diagnosis pod. An attached client shows what
 * the container's program printed; for network tools that output comes from the dataplane (DNS answers,
 * HTTP bodies), so it must match what the same tool prints through `kubectl exec` in a running pod.
 */
import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../cluster/cluster.ts';

function clusterWithWeb(): Cluster {
  const c = createCluster(undefined, { seed: 7 });
  for (const line of [
    'kubectl create deployment web --image=nginx:1.27',
    'kubectl expose deployment web --port=80',
    'kubectl wait --for=condition=Available deployment/web --timeout=120s',
  ])
    expect(c.execSync(line).exitCode).toBe(0);
  return c;
}

describe('kubectl run attached to a network tool', () => {
  it.each([true, false])(
    'wget -qO- http://web prints nginx’s page, then the pod is deleted (tty: %s)',
    (tty) => {
      const c = clusterWithWeb();
      const flags = tty ? '-it' : '-i';
      const r = c.execSync(
        `kubectl run w --rm ${flags} --restart=Never --image=busybox:1.36 -- wget -qO- http://web`,
        {
          interactive: true,
        },
      );
      expect(r.exitCode).toBe(0);
      // nginx's default index.html, as the nginx image ships it.
      expect(r.stdout).toContain('<title>Welcome to nginx!</title>');
      expect(r.stdout.endsWith('pod "w" deleted from default namespace\n')).toBe(true);
      expect(c.execSync('kubectl get pod w').stderr).toBe(
        'Error from server (NotFound): pods "w" not found\n',
      );
    },
  );

  it('nslookup of a full name answers with the Service ClusterIP (busybox format)', () => {
    const c = clusterWithWeb();
    const r = c.execSync(
      'kubectl run dns --rm -it --restart=Never --image=busybox:1.36 -- nslookup kubernetes.default.svc.cluster.local',
      { interactive: true },
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n');
    expect(r.stdout).toContain('Name:\tkubernetes.default.svc.cluster.local\nAddress: 10.96.0.1\n');
  });

  it('busybox 1.29+ nslookup does not search a dotted name: NXDOMAIN, and the pod ends in Error', () => {
    // fact-check #59: BusyBox's own resolver applies the search list only to dotless names.
    const c = clusterWithWeb();
    const r = c.execSync(
      'kubectl run dns --rm -i --restart=Never --image=busybox:1.36 -- nslookup kubernetes.default',
      { interactive: true },
    );
    expect(r.stdout).toContain("** server can't find kubernetes.default: NXDOMAIN");
    expect(r.stderr).toContain('pod default/dns terminated (Error)\n');
    expect(r.exitCode).toBe(1);
  });

  it('shows the same bytes as kubectl exec of the same tool in a running pod', () => {
    const c = clusterWithWeb();
    expect(c.execSync('kubectl run keep --image=busybox:1.36 -- sleep 3600').exitCode).toBe(0);
    c.execSync('kubectl wait --for=condition=Ready pod/keep --timeout=60s');
    const viaExec = c.execSync('kubectl exec keep -- wget -qO- http://web');
    const viaRun = c.execSync(
      'kubectl run once --rm -i --restart=Never --image=busybox:1.36 -- wget -qO- http://web',
      {
        interactive: true,
      },
    );
    expect(viaExec.exitCode).toBe(0);
    expect(viaRun.stdout).toBe(viaExec.stdout + 'pod "once" deleted from default namespace\n');
  });
});
