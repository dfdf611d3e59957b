/**
 * kubectl writes stderr and stdout in a known order, and a terminal shows them so:
 *   - client-go's warning handler prints an API warning (the v1.33 Endpoints deprecation) to stderr
 *     when the response arrives, before the printer writes the table;
 *   - polymorphichelpers/logsforobject.go prints `Found N pods, using pod/NAME` to stderr before it
 *     requests the chosen pod's log stream;
 *   - `kubectl exec` copies the container's stdout and stderr as the process writes them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../cluster/cluster.ts';

const ENDPOINTS_WARNING =
  'Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\n';

describe('kubectl output order', () => {
  let c: Cluster;
  beforeAll(() => {
    c = createCluster(undefined, { seed: 1 });
    c.execSync('kubectl create deployment x --image=busybox --replicas=3 -- sh -c "echo hello; sleep 3600"');
    c.tick(60_000);
  });

  it('get endpoints: the deprecation warning comes before the table', () => {
    const r = c.execSync('kubectl get endpoints kubernetes');
    expect(r.output?.map((chunk) => chunk.stream)).toEqual(['stderr', 'stdout']);
    expect(r.output?.[0]?.text).toBe(ENDPOINTS_WARNING);
    expect(r.output?.[1]?.text).toMatch(/^NAME {9}ENDPOINTS {9}AGE\nkubernetes {3}172\.18\.0\.2:6443 {3}/);
  });

  it('logs deploy/x: the pod it chose is named before its log lines', () => {
    const r = c.execSync('kubectl logs deploy/x');
    expect(r.output).toEqual([
      {
        stream: 'stderr',
        text: expect.stringMatching(/^Found 3 pods, using pod\/x-[a-z0-9]+-[a-z0-9]{5}\n$/),
      },
      { stream: 'stdout', text: 'hello\n' },
    ]);
  });

  it("exec: the container's streams keep their interleaving, then kubectl's own exit message", () => {
    const r = c.execSync('kubectl exec deploy/x -- sh -c "echo a; cat /nope; echo b; exit 3"');
    expect(r.output?.map((chunk) => chunk.stream)).toEqual(['stdout', 'stderr', 'stdout', 'stderr']);
    expect(r.output?.[0]?.text).toBe('a\n');
    expect(r.output?.[1]?.text).toMatch(/^cat: .*\/nope/);
    expect(r.output?.[2]?.text).toBe('b\n');
    expect(r.output?.[3]?.text).toBe('command terminated with exit code 3\n');
  });

  it('a line of several commands keeps each one where it ran', () => {
    const r = c.execSync(
      'kubectl get ns default -o name; kubectl get ns nope; kubectl get ns default -o name',
    );
    expect(r.output).toEqual([
      { stream: 'stdout', text: 'namespace/default\n' },
      { stream: 'stderr', text: 'Error from server (NotFound): namespaces "nope" not found\n' },
      { stream: 'stdout', text: 'namespace/default\n' },
    ]);
  });
});
