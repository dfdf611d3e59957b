/**
 * `kubectl run --overrides`: kubectl's OverrideOptions.Apply patches the generated pod before sending
 * it (pkg/cmd/util/override_options.go): merge (RFC 7386, default), strategic, json (RFC 6902). Error
 * texts are the libraries' own: evanphx/json-patch's errBadJSONPatch, encoding/json's SyntaxError,
 * and `invalid override type: %v`.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../cluster/cluster.ts';

describe('kubectl run --overrides', () => {
  it('a merge override pins the pod to a node (the generated pod is otherwise scheduled freely)', () => {
    const c = createCluster(undefined, { seed: 3 });
    for (const node of ['kind-worker', 'kind-worker2']) {
      const name = `pin-${node}`;
      const r = c.execSync(
        `kubectl run ${name} --image=busybox:1.36 --overrides='{"spec":{"nodeName":"${node}"}}' -- sleep 3600`,
      );
      expect(r.stdout).toBe(`pod/${name} created\n`);
      expect(c.execSync(`kubectl get pod ${name} -o jsonpath='{.spec.nodeName}'`).stdout).toBe(node);
    }
  });

  it('merges maps and keeps the generated fields (dry run)', () => {
    const c = createCluster(undefined, { seed: 3 });
    const r = c.execSync(
      `kubectl run e --image=nginx --dry-run=client -o json --overrides='{"metadata":{"labels":{"tier":"web"}},"spec":{"hostNetwork":true,"dnsPolicy":null}}'`,
    );
    const pod = JSON.parse(r.stdout) as { metadata: { labels: unknown }; spec: Record<string, unknown> };
    expect(pod.metadata.labels).toEqual({ run: 'e', tier: 'web' });
    expect(pod.spec.hostNetwork).toBe(true);
    expect('dnsPolicy' in pod.spec).toBe(false); // null deletes, as RFC 7386 says
    expect(pod.spec.restartPolicy).toBe('Always');
  });

  it('applies a JSON patch with --override-type=json', () => {
    const c = createCluster(undefined, { seed: 3 });
    const r = c.execSync(
      `kubectl run f --image=nginx --dry-run=client -o jsonpath='{.spec.nodeName}' --override-type=json --overrides='[{"op":"add","path":"/spec/nodeName","value":"kind-worker2"}]'`,
    );
    expect(r.stdout).toBe('kind-worker2');
  });

  it.each([
    [`--overrides='{"spec":'`, 'error: Invalid JSON Patch\n'],
    [
      `--override-type=strategic --overrides='x'`,
      "error: invalid character 'x' looking for beginning of value\n",
    ],
    [
      `--override-type=strategic --overrides='[1]'`,
      'error: json: cannot unmarshal array into Go value of type map[string]interface {}\n',
    ],
    [`--override-type=foo --overrides='{}'`, 'error: invalid override type: foo\n'],
  ])('%s is refused with the library error, and nothing is created', (flags, stderr) => {
    const c = createCluster(undefined, { seed: 3 });
    const r = c.execSync(`kubectl run d --image=busybox ${flags} -- sleep 1`);
    expect(r).toMatchObject({ stdout: '', stderr, exitCode: 1 });
    expect(c.execSync('kubectl get pod d').exitCode).toBe(1);
  });
});
