/**
 * `kubectl delete` flags that used to be accepted and ignored: `--cascade` (the API server marks the
 * owner, the garbage collector orphans or deletes dependents first), `-i/--interactive`, `--raw`,
 * `--timeout`. Error and prompt texts: kubectl v1.33 (pkg/cmd/delete/delete.go, delete_flags.go
 * parseCascadingFlag); the offline goldens were checked against the v1.33 binary.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../cluster/cluster.ts';
import { makeKubectl } from '../test-helpers.ts';

/** A cluster with a one-replica Deployment whose pod ignores SIGTERM (so it terminates in 30 s). */
function withDeployment(name: string) {
  const c = createCluster(undefined, { seed: 1 });
  c.execSync(`kubectl create deployment ${name} --image=busybox -- sleep 3600`);
  for (let i = 0; i < 30; i++) c.tick(1000);
  return c;
}

describe('kubectl delete --cascade', () => {
  it('orphan: the ReplicaSet and its pods keep running, without the ownerReference', () => {
    const c = withDeployment('web');
    expect(c.execSync('kubectl delete deploy web --cascade=orphan')).toMatchObject({
      stdout: 'deployment.apps "web" deleted from default namespace\n',
      stderr: '',
    });
    expect(c.execSync('kubectl get deploy').stderr).toBe('No resources found in default namespace.\n');
    const rs = c.execSync('kubectl get rs -o jsonpath={.items[*].metadata.name}').stdout;
    expect(rs).toMatch(/^web-[a-z0-9]+$/);
    expect(c.execSync('kubectl get rs -o jsonpath={.items[0].metadata.ownerReferences}').stdout).toBe('');
    expect(c.execSync('kubectl get pods -o jsonpath={.items[*].status.phase}').stdout).toBe('Running');
  });

  it('orphan on a ReplicaSet its Deployment recreates: the wait compares uids (delete.go UIDMap)', () => {
    const c = withDeployment('w2');
    const uid = c.execSync('kubectl get rs -o jsonpath={.items[*].metadata.uid}').stdout;
    const before = c.clock.now();
    expect(c.execSync('kubectl delete rs -l app=w2 --cascade=orphan')).toMatchObject({
      stdout: expect.stringMatching(/^replicaset\.apps "w2-[a-z0-9]+" deleted from default namespace\n$/),
      stderr: '',
      exitCode: 0,
    });
    expect(c.clock.now() - before).toBeLessThan(60_000);
    const now = c.execSync('kubectl get rs -o jsonpath={.items[*].metadata.uid}').stdout;
    expect(now).not.toBe('');
    expect(now).not.toBe(uid);
  });

  it('foreground: the owner stays, marked, until its dependents are gone', () => {
    const c = withDeployment('web');
    c.execSync('kubectl delete deploy web --cascade=foreground --wait=false');
    expect(
      c.execSync(
        'kubectl get deploy web -o jsonpath={.metadata.finalizers}{.metadata.deletionGracePeriodSeconds}',
      ).stdout,
    ).toBe('["foregroundDeletion"]0');
    // The ReplicaSet owns pods, so it goes in the foreground too; its pod is Terminating.
    expect(c.execSync('kubectl get rs -o jsonpath={.items[0].metadata.finalizers}').stdout).toBe(
      '["foregroundDeletion"]',
    );
    expect(c.execSync('kubectl get pods').stdout).toContain('Terminating');
    for (let i = 0; i < 40; i++) c.tick(1000);
    expect(c.execSync('kubectl get deploy,rs,pods').stderr).toBe(
      'No resources found in default namespace.\n',
    );
  });

  it('foreground with the default --wait returns once everything is gone', () => {
    const c = withDeployment('web');
    expect(c.execSync('kubectl delete deploy web --cascade=foreground').exitCode).toBe(0);
    expect(c.execSync('kubectl get deploy,rs,pods').stderr).toBe(
      'No resources found in default namespace.\n',
    );
  });

  it('background (the default) deletes the owner at once and the collector the rest', () => {
    const c = withDeployment('web');
    c.execSync('kubectl delete deploy web --wait=false');
    expect(c.execSync('kubectl get deploy').stderr).toBe('No resources found in default namespace.\n');
    expect(c.execSync('kubectl get rs').stderr).toBe('No resources found in default namespace.\n');
  });

  it('the boolean spellings are deprecated, with delete_flags.go’s warning', () => {
    const c = withDeployment('web');
    expect(c.execSync('kubectl delete deploy web --cascade=false')).toMatchObject({
      stderr:
        'warning: --cascade=false is deprecated (boolean value) and can be replaced with --cascade=orphan.\n',
      exitCode: 0,
    });
    expect(c.execSync('kubectl get rs -o name').stdout).toMatch(/^replicaset.apps\/web-/);
    const k = makeKubectl();
    k.run('create configmap a');
    expect(k.run('delete cm a --cascade=1').stderr).toBe(
      'warning: --cascade=1 is deprecated (boolean value) and can be replaced with --cascade=background.\n',
    );
    expect(k.run('delete cm a --cascade=bogus')).toMatchObject({
      stderr: 'error: invalid cascade value (bogus). Must be "background", "foreground", or "orphan"\n',
      exitCode: 1,
    });
  });
});

describe('kubectl delete -i/--interactive', () => {
  const setup = () => {
    const k = makeKubectl();
    k.run('create configmap a');
    k.run('create configmap b');
    return k;
  };

  it('lists what it would delete and deletes on y', () => {
    const k = setup();
    expect(k.run('delete cm a b -i', { stdin: 'y\n' })).toMatchObject({
      stdout:
        'You are about to delete the following 2 resource(s):\nconfigmap/a\nconfigmap/b\nDo you want to continue? (y/n): configmap "a" deleted from default namespace\nconfigmap "b" deleted from default namespace\n',
      exitCode: 0,
    });
    expect(k.run('get cm').stderr).toBe('No resources found in default namespace.\n');
  });

  it('anything but y (or no answer) cancels', () => {
    const k = setup();
    for (const stdin of ['n\n', 'yes\n', '']) {
      expect(k.run('delete cm a --interactive', { stdin })).toMatchObject({
        stdout:
          'You are about to delete the following 1 resource(s):\nconfigmap/a\nDo you want to continue? (y/n): deletion is cancelled\n',
        exitCode: 0,
      });
    }
    expect(k.run('delete cm a -i', { stdin: 'Y' }).stdout).toContain('configmap "a" deleted');
  });

  it('nothing found: no question', () => {
    const k = setup();
    expect(k.run('delete pods --all -i').stdout).toBe('No resources found\n');
    expect(k.run('delete cm nope -i', { stdin: 'y' })).toMatchObject({
      stdout: '',
      stderr: 'Error from server (NotFound): configmaps "nope" not found\n',
      exitCode: 1,
    });
  });
});

describe('kubectl delete --raw', () => {
  // Goldens: kubectl v1.33 `delete pod x --raw=…` (Validate runs before any request).
  it.each([
    ['--raw=/x -o name', '--raw and --output are mutually exclusive'],
    ['--raw=/x -f a.yaml -f b.yaml', '--raw can only use a single local file or stdin'],
    ['--raw=/x -f http://x/a.yaml', '--raw cannot read from a url'],
    ['--raw=/x -R -f a.yaml', '--raw and --recursive are mutually exclusive'],
    ['--raw=/x -i', '--interactive can not be used with --raw'],
    ['--raw=::', '--raw must be a valid URL path: parse "::": missing protocol scheme'],
    ['--raw=/x --now --grace-period=3', '--now and --grace-period cannot be specified together'],
  ])('%s', (flags, message) => {
    const k = makeKubectl();
    expect(k.run(`delete pod x ${flags}`)).toMatchObject({ stderr: `error: ${message}\n`, exitCode: 1 });
  });

  it('DELETEs the path and prints the server’s answer', () => {
    const k = makeKubectl();
    k.run('create configmap cm');
    const uid = k.host.api.get('configmaps', 'default', 'cm')!.metadata.uid;
    expect(k.run('delete --raw /api/v1/namespaces/default/configmaps/cm')).toMatchObject({
      stdout: `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","details":{"name":"cm","kind":"configmaps","uid":"${uid}"}}\n`,
      exitCode: 0,
    });
    expect(k.run('delete --raw /api/v1/namespaces/default/configmaps/cm').stderr).toBe(
      'Error from server (NotFound): configmaps "cm" not found\n',
    );
    expect(k.run('delete --raw /api/v1/nothing').stderr).toBe(
      'Error from server (NotFound): the server could not find the requested resource\n',
    );
    expect(k.run('delete --raw api/v1/x').stderr).toBe(
      'error: --raw must be a valid URL path: parse "api/v1/x": invalid URI for request\n',
    );
  });
});

describe('kubectl delete --force, --now, --grace-period, --wait, --timeout', () => {
  const withPod = () => {
    const k = makeKubectl();
    k.put({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default' },
      spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox' }] },
      status: { phase: 'Running' },
    });
    return k;
  };

  it('--force warns and deletes at once', () => {
    const k = withPod();
    expect(k.run('delete pod p --force')).toMatchObject({
      stdout: 'pod "p" force deleted from default namespace\n',
      stderr:
        'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n',
    });
    expect(k.run('delete pod p --force --grace-period=5').stderr).toBe(
      'error: --force and --grace-period greater than 0 cannot be specified together\n',
    );
  });

  it('--grace-period and --now set the pod’s grace; --wait=false returns while it terminates', () => {
    const k = withPod();
    expect(k.run('delete pod p --grace-period=20 --wait=false').exitCode).toBe(0);
    expect(k.host.api.get('pods', 'default', 'p')?.metadata.deletionGracePeriodSeconds).toBe(20);
    const k2 = withPod();
    k2.run('delete pod p --now --wait=false');
    expect(k2.host.api.get('pods', 'default', 'p')?.metadata.deletionGracePeriodSeconds).toBe(1);
  });

  it('--timeout: a pod nobody finishes is reported as cmdwait words it', () => {
    const k = withPod();
    const before = k.host.clock.now();
    expect(k.run('delete pod p --timeout=5s')).toMatchObject({
      stdout: 'pod "p" deleted from default namespace\n',
      stderr: 'error: timed out waiting for the condition on pods/p\n',
      exitCode: 1,
    });
    expect(k.host.clock.now() - before).toBe(5000);
  });
});
