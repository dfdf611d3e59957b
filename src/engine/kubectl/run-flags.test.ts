/**
 * `kubectl run` flags that used to be accepted and ignored. Expected texts are kubectl v1.33's client
 * dry runs, with v1.35's omitted zero creationTimestamp: --privileged sets the container's
 * securityContext (Go field order after imagePullPolicy), --save-config records last-applied only on
 * the object sent, and --dry-run with an attached container is a usage error.
 */
import { describe, expect, it } from 'vitest';
import { makeKubectl } from './test-helpers.ts';

describe('kubectl run flags', () => {
  it('--privileged and --image-pull-policy in -o json, in Go field order', () => {
    const k = makeKubectl();
    const r = k.run('run x --image=nginx --privileged --image-pull-policy=Always --dry-run=client -o json');
    expect(r.stdout.replace(/\s/g, '')).toBe(
      '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"x","labels":{"run":"x"}},"spec":{"containers":[{"name":"x","image":"nginx","resources":{},"imagePullPolicy":"Always","securityContext":{"privileged":true}}],"restartPolicy":"Always","dnsPolicy":"ClusterFirst"},"status":{}}',
    );
    expect(k.run('run x --image=nginx --privileged=false --dry-run=client -o json').stdout).not.toContain(
      'securityContext',
    );
  });

  it('--save-config: nothing on a client dry run, the annotation on the created pod', () => {
    const k = makeKubectl();
    expect(k.run('run x --image=nginx --save-config --dry-run=client -o yaml').stdout).not.toContain(
      'last-applied-configuration',
    );
    expect(k.run('run y --image=nginx --save-config').stdout).toBe('pod/y created\n');
    const ann = k.run(
      `get pod y -o jsonpath='{.metadata.annotations.kubectl\\.kubernetes\\.io/last-applied-configuration}'`,
    ).stdout;
    expect(JSON.parse(ann)).toMatchObject({ kind: 'Pod', metadata: { name: 'y' } });
  });

  it('--dry-run with -i is a usage error', () => {
    const k = makeKubectl();
    expect(k.run('run x --image=nginx -i --dry-run=client')).toEqual({
      stdout: '',
      stderr:
        "error: --dry-run=[server|client] can't be used with attached containers options (--attach, --stdin, or --tty)\nSee 'kubectl run -h' for help and examples\n",
      exitCode: 1,
    });
  });
});
